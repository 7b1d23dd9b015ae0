/**
 * cel-go `ext.Strings` (version 2 as Kubernetes uses it): code-point based
 * charAt/indexOf/lastIndexOf/substring, ASCII casing, replace, split, trim, join,
 * strings.quote and format.
 *
 * @module
 */

import { formatGoFloat } from "../../go/fmt.js";
import type { OverloadImpl } from "../interpreter/functions.js";
import { tagOf } from "../values/ops.js";
import type { CelValue } from "../values/values.js";
import { CelDuration, CelError, CelMap, CelTimestamp, CelType, CelUint } from "../values/values.js";
import { err, global, member } from "./overload.js";
import { formatV1 } from "./format-v1.js";
import { formatDuration, formatTimestamp } from "./time.js";

const cps = (s: string): string[] => Array.from(s);
const oob = (n: bigint | number): CelError => err(`index out of range: ${n}`);

const SURROGATE = /[\uD800-\uDFFF]/;

function indexOfOffset(str: string, sub: string, offset: bigint): CelValue {
  if (!SURROGATE.test(str) && !SURROGATE.test(sub)) {
    // UTF-16 indices are code-point indices
    if (offset < 0n) return oob(offset);
    if (sub === "") return offset > BigInt(str.length) ? BigInt(str.length) : offset;
    const off = Number(offset);
    if (off >= str.length) return -1n;
    return BigInt(str.indexOf(sub, off));
  }
  // cel-go: an offset past the end is not an error (the spec's conformance test disagrees;
  // cel-go skips string_ext/value_errors/indexof_out_of_range)
  if (offset < 0n) return oob(offset);
  const r = cps(str);
  const off = Number(offset);
  if (sub === "") return off > r.length ? BigInt(r.length) : offset;
  const s = cps(sub);
  if (off >= r.length) return -1n;
  for (let i = off; i < r.length - (s.length - 1); i++) {
    let ok = true;
    for (let j = 0; j < s.length; j++)
      if (r[i + j] !== s[j]) {
        ok = false;
        break;
      }
    if (ok) return BigInt(i);
  }
  return -1n;
}

function lastIndexOfOffset(str: string, sub: string, offset: bigint): CelValue {
  if (offset < 0n) return oob(offset);
  const r = cps(str);
  let off = Number(offset);
  if (sub === "") return off > r.length ? BigInt(r.length) : offset;
  const s = cps(sub);
  if (off >= r.length) return -1n;
  if (off > r.length - s.length) off = r.length - s.length;
  for (let i = off; i >= 0; i--) {
    let ok = true;
    for (let j = 0; j < s.length; j++)
      if (r[i + j] !== s[j]) {
        ok = false;
        break;
      }
    if (ok) return BigInt(i);
  }
  return -1n;
}

/** Go `strings.Replace(s, old, new, n)` (n < 0: all). */
function goReplace(s: string, old: string, nw: string, n: number): string {
  if (n === 0 || old === nw) return s;
  if (old === "") {
    const r = cps(s);
    const out: string[] = [];
    let done = 0;
    for (let i = 0; i <= r.length; i++) {
      if (n < 0 || done < n) {
        out.push(nw);
        done++;
      }
      if (i < r.length) out.push(r[i] as string);
    }
    return out.join("");
  }
  if (n < 0) return s.split(old).join(nw);
  let out = "";
  let rest = s;
  for (let i = 0; i < n; i++) {
    const k = rest.indexOf(old);
    if (k < 0) break;
    out += rest.slice(0, k) + nw;
    rest = rest.slice(k + old.length);
  }
  return out + rest;
}

/** Go `strings.SplitN(s, sep, n)`. */
function goSplitN(s: string, sep: string, n: number): string[] {
  if (n === 0) return [];
  if (sep === "") {
    const r = cps(s);
    if (n < 0 || n >= r.length) return r;
    return [...r.slice(0, n - 1), r.slice(n - 1).join("")];
  }
  const parts = s.split(sep);
  if (n < 0 || parts.length <= n) return parts;
  return [...parts.slice(0, n - 1), parts.slice(n - 1).join(sep)];
}

const SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

function asciiCase(s: string, upper: boolean): string {
  if (!(upper ? /[a-z]/ : /[A-Z]/).test(s)) return s;
  return s.replace(upper ? /[a-z]+/g : /[A-Z]+/g, (m) => (upper ? m.toUpperCase() : m.toLowerCase()));
}

/** `strings.quote`. */
export function quote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (c >= 0xd800 && c <= 0xdfff) {
      out += "\ufffd";
      continue;
    }
    switch (ch) {
      case "\x07":
        out += "\\a";
        break;
      case "\b":
        out += "\\b";
        break;
      case "\f":
        out += "\\f";
        break;
      case "\n":
        out += "\\n";
        break;
      case "\r":
        out += "\\r";
        break;
      case "\t":
        out += "\\t";
        break;
      case "\v":
        out += "\\v";
        break;
      case "\\":
        out += "\\\\";
        break;
      case '"':
        out += '\\"';
        break;
      default:
        out += ch;
    }
  }
  return `${out}"`;
}

function join(l: readonly CelValue[], sep: string): CelValue {
  for (const e of l) if (typeof e !== "string") return err(`join: invalid input: ${String(e)}`);
  return (l as string[]).join(sep);
}

// ---- format (cel-go ext/formatting.go, common verbs)

function fmtString(v: CelValue, _top: boolean): string | CelError {
  if (typeof v === "string") return v;
  if (typeof v === "bigint") return String(v);
  if (v instanceof CelUint) return String(v.value);
  if (typeof v === "boolean") return String(v);
  if (v === null) return "null";
  if (typeof v === "number") {
    if (Number.isNaN(v)) return "NaN";
    if (!Number.isFinite(v)) return v > 0 ? "Infinity" : "-Infinity";
    return formatGoFloat(v);
  }
  if (v instanceof Uint8Array) {
    return new TextDecoder().decode(v);
  }
  if (v instanceof CelDuration) return formatDuration(v);
  if (v instanceof CelTimestamp) return formatTimestamp(v);
  if (v instanceof CelType) return v.name;
  if (Array.isArray(v)) {
    const parts: string[] = [];
    for (const x of v) {
      const s = fmtString(x, false);
      if (s instanceof CelError) return s;
      parts.push(s);
    }
    return `[${parts.join(", ")}]`;
  }
  if (v instanceof CelMap) {
    const parts: string[] = [];
    for (const [k, x] of v.entries()) {
      const ks = fmtString(k, false);
      const xs = fmtString(x, false);
      if (ks instanceof CelError) return ks;
      if (xs instanceof CelError) return xs;
      parts.push(`${ks}: ${xs}`);
    }
    parts.sort();
    return `{${parts.join(", ")}}`;
  }
  return err(`string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given ${tagOf(v)}`);
}

function fmtFixed(v: CelValue, prec: number, verb: string): string | CelError {
  let d: number;
  if (typeof v === "number") d = v;
  else if (typeof v === "bigint") d = Number(v);
  else if (v instanceof CelUint) d = Number(v.value);
  else if (typeof v === "string" && ["NaN", "Infinity", "-Infinity"].includes(v)) d = Number(v);
  else
    return err(
      `${verb === "e" ? "scientific" : "fixed-point"} clause can only be used on ints, uints, doubles, and strings which hold NaN or Infinity, was given ${tagOf(v)}`,
    );
  if (Number.isNaN(d)) return "NaN";
  if (!Number.isFinite(d)) return d > 0 ? "Infinity" : "-Infinity";
  if (verb === "e") return d.toExponential(prec).replace(/e([+-])(\d)$/, "e$10$2");
  return toFixedHalfEven(d, prec);
}

function fmtInt(v: CelValue, radix: number, verb: string, upper = false): string | CelError {
  let n: bigint;
  if (typeof v === "bigint") n = v;
  else if (v instanceof CelUint) n = v.value;
  else if (verb === "d" && typeof v === "number") {
    if (!Number.isFinite(v)) return Number.isNaN(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity";
    return err(`decimal clause can only be used on ints, uints, and doubles, was given double`);
  } else if (radix === 16 && (typeof v === "string" || v instanceof Uint8Array)) {
    const bytes = typeof v === "string" ? new TextEncoder().encode(v) : v;
    const h = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    return upper ? h.toUpperCase() : h;
  } else if (radix === 2 && typeof v === "boolean") return v ? "1" : "0";
  else {
    const names: Record<string, string> = {
      d: "decimal clause can only be used on ints, uints, and doubles",
      x: "only integers, byte buffers, and strings can be formatted as hex",
      X: "only integers, byte buffers, and strings can be formatted as hex",
      o: "octal clause can only be used on ints and uints",
      b: "only integers and bools can be formatted as binary",
    };
    return err(`${names[verb]}, was given ${tagOf(v)}`);
  }
  const s = n < 0n ? `-${(-n).toString(radix)}` : n.toString(radix);
  return upper ? s.toUpperCase() : s;
}

/** Exact binary value of a finite double as (mantissa, exponent): d = m * 2^e. */
function decompose(d: number): [bigint, number] {
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, d);
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const exp = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (exp !== 0) m |= 1n << 52n;
  return [m, (exp === 0 ? 1 : exp) - 1075];
}

/** Go `%.Nf`: exact decimal value, ties rounded to even (JS `toFixed` rounds ties up). */
export function toFixedHalfEven(d: number, prec: number): string {
  const s = d.toFixed(prec);
  if (prec > 20 || Math.abs(d) >= 1e21) return s;
  const [m, e] = decompose(Math.abs(d));
  // twice the scaled value: 2 * |d| * 10^prec = m * 10^prec * 2^(e+1); a tie iff it is an odd integer
  const num = m * 10n ** BigInt(prec);
  const shift = e + 1;
  let twice: bigint | undefined;
  if (shift >= 0) twice = num << BigInt(shift);
  else if (num % (1n << BigInt(-shift)) === 0n) twice = num >> BigInt(-shift);
  if (twice === undefined || twice % 2n === 0n) return s;
  const lower = (twice - 1n) / 2n;
  const n = lower % 2n === 0n ? lower : lower + 1n;
  let digits = n.toString().padStart(prec + 1, "0");
  if (prec > 0) digits = `${digits.slice(0, -prec)}.${digits.slice(-prec)}`;
  return (d < 0 ? "-" : "") + digits;
}

/** `"...".format([args])`. */
export function format(fmt: string, args: readonly CelValue[]): CelValue {
  let out = "";
  let ai = 0;
  for (let i = 0; i < fmt.length; i++) {
    const c = fmt[i];
    if (c !== "%") {
      out += c;
      continue;
    }
    i++;
    if (fmt[i] === "%") {
      out += "%";
      continue;
    }
    let prec: number | undefined;
    if (fmt[i] === ".") {
      let j = i + 1;
      while (j < fmt.length && /\d/.test(fmt[j] as string)) j++;
      prec = Number(fmt.slice(i + 1, j));
      i = j;
    }
    const verb = fmt[i];
    if (verb === undefined) return err("unexpected end of format string");
    if (ai >= args.length) return err(`index ${ai} out of range`);
    const a = args[ai++] as CelValue;
    let r: string | CelError;
    switch (verb) {
      case "s":
        r = fmtString(a, true);
        break;
      case "d":
        r = fmtInt(a, 10, "d");
        break;
      case "f":
        r = fmtFixed(a, prec ?? 6, "f");
        break;
      case "e":
        r = fmtFixed(a, prec ?? 6, "e");
        break;
      case "x":
        r = fmtInt(a, 16, "x");
        break;
      case "X":
        r = fmtInt(a, 16, "X", true);
        break;
      case "o":
        r = fmtInt(a, 8, "o");
        break;
      case "b":
        r = fmtInt(a, 2, "b");
        break;
      default:
        return err(`could not parse formatting clause: unrecognized formatting clause "${verb}"`);
    }
    if (r instanceof CelError) return r;
    out += r;
  }
  return out;
}

/**
 * `ext.Strings` overloads. `version` is cel-go's `StringsVersion`: below 4, `format` uses cel-go's
 * first formatter (`ext/formatting.go`, as Kubernetes' version 2 does); from 4 on, the
 * spec-conformant one.
 */
export function stringsExtOverloads(version = Number.POSITIVE_INFINITY): OverloadImpl[] {
  return [
    member("string_char_at_int", "charAt", ["string", "int"], (s: string, i: bigint) => {
      const r = cps(s);
      if (i < 0n || i > BigInt(r.length)) return oob(i);
      return r[Number(i)] ?? "";
    }),
    member("string_index_of_string", "indexOf", ["string", "string"], (s: string, t: string) => indexOfOffset(s, t, 0n)),
    member("string_index_of_string_int", "indexOf", ["string", "string", "int"], indexOfOffset),
    member("string_last_index_of_string", "lastIndexOf", ["string", "string"], (s: string, t: string) => {
      const n = cps(s).length;
      if (t === "") return BigInt(n);
      if (s.length < t.length) return -1n;
      return lastIndexOfOffset(s, t, BigInt(n - 1));
    }),
    member("string_last_index_of_string_int", "lastIndexOf", ["string", "string", "int"], lastIndexOfOffset),
    member("string_lower_ascii", "lowerAscii", ["string"], (s: string) => asciiCase(s, false)),
    member("string_upper_ascii", "upperAscii", ["string"], (s: string) => asciiCase(s, true)),
    member("string_replace_string_string", "replace", ["string", "string", "string"], (s: string, a: string, b: string) =>
      goReplace(s, a, b, -1),
    ),
    member(
      "string_replace_string_string_int",
      "replace",
      ["string", "string", "string", "int"],
      (s: string, a: string, b: string, n: bigint) => goReplace(s, a, b, Number(n)),
    ),
    member("string_split_string", "split", ["string", "string"], (s: string, sep: string) => goSplitN(s, sep, -1)),
    member("string_split_string_int", "split", ["string", "string", "int"], (s: string, sep: string, n: bigint) =>
      goSplitN(s, sep, Number(n)),
    ),
    member("string_substring_int", "substring", ["string", "int"], (s: string, a: bigint) => {
      const r = cps(s);
      if (a < 0n || a > BigInt(r.length)) return oob(a);
      return r.slice(Number(a)).join("");
    }),
    member("string_substring_int_int", "substring", ["string", "int", "int"], (s: string, a: bigint, b: bigint) => {
      const r = cps(s);
      if (a > b) return err(`invalid substring range. start: ${a}, end: ${b}`);
      if (a < 0n || a > BigInt(r.length)) return oob(a);
      if (b < 0n || b > BigInt(r.length)) return oob(b);
      return r.slice(Number(a), Number(b)).join("");
    }),
    member("string_trim", "trim", ["string"], (s: string) => s.replace(SPACE, "")),
    member("list_join", "join", ["list"], (l: CelValue[]) => join(l, "")),
    member("list_join_string", "join", ["list", "string"], join),
    global("strings_quote", "strings.quote", ["string"], quote),
    member("string_format", "format", ["string", "list"], version >= 4 ? format : formatV1),
  ];
}
