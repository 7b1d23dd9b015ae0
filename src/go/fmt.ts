/**
 * Go's `fmt` renderings of values, as used in Kubernetes messages: `strconv.Quote` (`%q`), `%v` of numbers
 * and of unstructured values (`map[a:1 b:[x y]]`, `<nil>`), and Go's byte-wise string order.
 */
import { escapedByte } from "./utf8.js";
import { type Float64, type JsonValue, kindOf, toNumber } from "../value/json-value.js";

/**
 * Go's `unicode.IsPrint` for a non-ASCII rune; made on first use: V8 builds the Unicode property classes
 * when the expression is created (~0.5 ms), and most runs never quote a non-ASCII string.
 */
let printable: RegExp | undefined;
const isPrintable = (ch: string): boolean => (printable ??= /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u).test(ch);

/** Go `strconv.Quote` (what `%q` prints for a string). */
const PLAIN_ASCII = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

export function goQuote(s: string): string {
  // printable ASCII without `"` and `\`: quoted as is (one allocation, no per-character rope)
  if (PLAIN_ASCII.test(s)) return `"${s}"`;
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp === 0x22) out += '\\"';
    else if (cp === 0x5c) out += "\\\\";
    else if (cp >= 0x20 && cp < 0x7f) out += ch;
    else if (cp >= 0xd800 && cp <= 0xdfff) {
      // a byte that is not UTF-8 (see go/utf8.ts) as Go shows it; another lone surrogate as U+FFFD's escape
      const b = escapedByte(cp);
      out += b >= 0 ? `\\x${b.toString(16)}` : "\\ufffd";
    } else if (cp >= 0x80 && isPrintable(ch)) out += ch;
    else {
      switch (cp) {
        case 0x07:
          out += "\\a";
          break;
        case 0x08:
          out += "\\b";
          break;
        case 0x0c:
          out += "\\f";
          break;
        case 0x0a:
          out += "\\n";
          break;
        case 0x0d:
          out += "\\r";
          break;
        case 0x09:
          out += "\\t";
          break;
        case 0x0b:
          out += "\\v";
          break;
        default:
          if (cp < 0x80) out += "\\x" + cp.toString(16).padStart(2, "0");
          else if (cp < 0x10000) out += "\\u" + cp.toString(16).padStart(4, "0");
          else out += "\\U" + cp.toString(16).padStart(8, "0");
      }
    }
  }
  return out + '"';
}

function decompose(n: number): { digits: string; exp: number } {
  // toExponential() without argument yields the shortest round-trip digits, as Go's shortest formatting.
  const s = Math.abs(n).toExponential();
  const e = s.indexOf("e");
  return { digits: s.slice(0, e).replace(".", ""), exp: Number(s.slice(e + 1)) };
}

function expForm(digits: string, exp: number): string {
  const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  const ae = Math.abs(exp);
  return `${mant}e${exp < 0 ? "-" : "+"}${ae < 10 ? "0" : ""}${ae}`;
}

function fixedForm(digits: string, exp: number): string {
  if (exp < 0) return "0." + "0".repeat(-exp - 1) + digits;
  if (digits.length <= exp + 1) return digits + "0".repeat(exp + 1 - digits.length);
  return digits.slice(0, exp + 1) + "." + digits.slice(exp + 1);
}

/** Go `%v` (and `%g`) of a float64: `1e+06`, `0.5`, `1.234567e+06`, `1e-05`, `-0`, `+Inf`, `NaN`. */
export function formatGoFloat(n: number): string {
  if (Number.isNaN(n)) return "NaN";
  if (n === Number.POSITIVE_INFINITY) return "+Inf";
  if (n === Number.NEGATIVE_INFINITY) return "-Inf";
  const sign = n < 0 || Object.is(n, -0) ? "-" : "";
  if (n === 0) return sign + "0";
  const { digits, exp } = decompose(n);
  // strconv 'g' with shortest precision: %e when exp < -4 || exp >= 6.
  if (exp < -4 || exp >= 6) return sign + expForm(digits, exp);
  return sign + fixedForm(digits, exp);
}

/** Go `%v` of a number value from unstructured data (int64 or float64). */
export function formatGoNumber(v: number | bigint | Float64): string {
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number" && Number.isInteger(v)) return Object.is(v, -0) ? "0" : String(v);
  return formatGoFloat(toNumber(v));
}

/** Byte-wise (UTF-8) string order, as Go's sort.Strings. */
export function compareGoStrings(a: string, b: string): number {
  if (a === b) return 0;
  // For strings without surrogates UTF-16 order equals code point order equals UTF-8 byte order.
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

/** Go `fmt.Sprintf("%v", v)` of an `interface{}` holding an unstructured value. */
export function goSprint(v: JsonValue | undefined): string {
  switch (kindOf(v)) {
    case "null":
      return "<nil>";
    case "string":
      return v as string;
    case "boolean":
      return v ? "true" : "false";
    case "integer":
      return formatGoNumber(v as number | bigint);
    case "number":
      return formatGoFloat(toNumber(v as number));
    case "array":
      return `[${(v as JsonValue[]).map(goSprint).join(" ")}]`;
    default: {
      const o = v as Record<string, JsonValue>;
      const keys = Object.keys(o).sort(compareGoStrings);
      return `map[${keys.map((k) => `${k}:${goSprint(o[k])}`).join(" ")}]`;
    }
  }
}

/**
 * Go `%#v` of an unstructured value held in an `interface{}`: strings quoted, numbers as `%v` prints them,
 * `[]interface {}{…}` and `map[string]interface {}{"k":…}` (keys sorted) with `, ` between elements, a nil element
 * `interface {}(nil)`.
 */
export function goSharpSprint(v: JsonValue | undefined): string {
  switch (kindOf(v)) {
    case "null":
      return "interface {}(nil)";
    case "string":
      return goQuote(v as string);
    case "array":
      return `[]interface {}{${(v as JsonValue[]).map(goSharpSprint).join(", ")}}`;
    case "object": {
      const o = v as Record<string, JsonValue>;
      const keys = Object.keys(o).sort(compareGoStrings);
      return `map[string]interface {}{${keys.map((k) => `${goQuote(k)}:${goSharpSprint(o[k])}`).join(", ")}}`;
    }
    default:
      return goSprint(v);
  }
}

/** encoding/json's word for a JSON value's type in `json: cannot unmarshal X into Go value of type …`. */
export function goJsonTypeWord(v: JsonValue): string {
  const k = kindOf(v);
  return k === "integer" ? "number" : k === "boolean" ? "bool" : k;
}
