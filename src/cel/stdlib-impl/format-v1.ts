/**
 * `string.format()` as cel-go implements it for `ext.Strings` versions 1–3 (Kubernetes uses
 * version 2): `ext/formatting.go` with the `en_US` locale of golang.org/x/text — `%f` groups
 * thousands (`1,234.500000`), `%e` prints `1.234568×10⁰³` (and cel-go passes the precision as a
 * *width*), infinities print as `∞`, and lists/maps render as CEL-like literals.
 *
 * @module
 */

import { formatGoFloat } from "../../go/fmt.js";
import { typeOf } from "../values/ops.js";
import type { CelValue } from "../values/values.js";
import { CelDuration, CelError, CelMap, CelTimestamp, CelType, CelUint } from "../values/values.js";
import { formatDuration, formatTimestamp } from "./time.js";
import { goQuote } from "../../go/fmt.js";

class FormatError extends Error {}

const utf8 = new TextEncoder();

/** Exact decimal expansion of a finite non-negative double: digits and the position of the point. */
function exactDecimal(d: number): { digits: string; point: number } {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, d);
  const hi = dv.getUint32(0);
  const lo = dv.getUint32(4);
  const exp = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (exp !== 0) m |= 1n << 52n;
  const e = (exp === 0 ? 1 : exp) - 1075;
  if (m === 0n) return { digits: "0", point: 1 };
  if (e >= 0) {
    const s = (m << BigInt(e)).toString();
    return { digits: s, point: s.length };
  }
  const k = -e;
  const s = (m * 5n ** BigInt(k)).toString();
  return { digits: s, point: s.length - k };
}

/** Rounds the exact decimal to `keep` digits (half to even); returns digits (length keep or keep+1 on carry). */
function roundDigits(digits: string, keep: number): string {
  if (keep < 0) return "";
  if (digits.length <= keep) return digits.padEnd(keep, "0");
  const head = digits.slice(0, keep);
  const rest = digits.slice(keep);
  const first = rest.charCodeAt(0) - 48;
  let up = first > 5 || (first === 5 && /[1-9]/.test(rest.slice(1)));
  if (first === 5 && !up && !/[1-9]/.test(rest.slice(1))) {
    const last = keep === 0 ? 0 : head.charCodeAt(keep - 1) - 48;
    up = last % 2 === 1;
  }
  if (!up) return head;
  if (keep === 0) return "1";
  return (BigInt(head) + 1n).toString().padStart(keep, "0");
}

function groupThousands(intPart: string): string {
  return intPart.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** x/text `%.<p>f` in en_US. */
function fixed(d: number, precision: number): string {
  if (Number.isNaN(d)) return "NaN";
  if (!Number.isFinite(d)) return d > 0 ? "∞" : "-∞";
  const neg = d < 0 || Object.is(d, -0);
  const { digits, point } = exactDecimal(Math.abs(d));
  // digits before the point, padded so that the rounding position exists
  let ds = digits;
  let pt = point;
  if (pt <= 0) {
    ds = "0".repeat(1 - pt) + ds;
    pt = 1;
  }
  const rounded = roundDigits(ds, pt + precision);
  const carry = rounded.length > pt + precision ? 1 : 0;
  const intPart = rounded.slice(0, pt + carry).replace(/^0+(?=\d)/, "");
  const frac = rounded.slice(pt + carry);
  const body = groupThousands(intPart) + (precision > 0 ? `.${frac}` : "");
  return (neg ? "-" : "") + body;
}

const SUPERSCRIPT = ["⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"];

/** x/text `%<width>e` in en_US (precision 6). */
function scientific(d: number, width: number): string {
  let out: string;
  if (Number.isNaN(d)) out = "NaN";
  else if (!Number.isFinite(d)) out = d > 0 ? "∞" : "-∞";
  else {
    const neg = d < 0 || Object.is(d, -0);
    let mant: string;
    let exp: number;
    if (d === 0) {
      mant = "0000000";
      exp = 0;
    } else {
      const { digits, point } = exactDecimal(Math.abs(d));
      const nz = digits.replace(/^0+/, "");
      const lead = digits.length - nz.length;
      exp = point - lead - 1;
      mant = roundDigits(nz, 7);
      if (mant.length > 7) {
        mant = mant.slice(0, 7);
        exp += 1;
      }
    }
    const expDigits = String(Math.abs(exp)).padStart(2, "0");
    const sup = [...expDigits].map((c) => SUPERSCRIPT[c.charCodeAt(0) - 48]).join("");
    out = `${neg ? "-" : ""}${mant[0]}.${mant.slice(1)}×10${exp < 0 ? "⁻" : ""}${sup}`;
  }
  const len = [...out].length;
  return len < width ? " ".repeat(width - len) + out : out;
}

const typeName = (v: CelValue): string => typeOf(v).name;

function decimal(v: CelValue): string {
  if (typeof v === "bigint") return String(v);
  if (v instanceof CelUint) return String(v.value);
  throw new FormatError(`decimal clause can only be used on integers, was given ${typeName(v)}`);
}

function stringConversion(v: CelValue): string {
  if (typeof v === "string") return v;
  if (typeof v === "bigint") return String(v);
  if (v instanceof CelUint) return String(v.value);
  if (typeof v === "number") return formatGoFloat(v);
  if (typeof v === "boolean") return String(v);
  if (v instanceof Uint8Array) return new TextDecoder().decode(v);
  if (v instanceof CelTimestamp) return formatTimestamp(v);
  if (v instanceof CelDuration) return formatDuration(v);
  if (v instanceof CelType) return v.name;
  if (v === null) return "null";
  throw new FormatError(
    `string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given ${typeName(v)}`,
  );
}

/** cel-go `FormatString` (the `%s` clause). */
function formatString(v: CelValue): string {
  if (Array.isArray(v)) return formatList(v);
  if (v instanceof CelMap) return formatMap(v);
  return stringConversion(v);
}

/** cel-go `clauseForType` followed by `quoteForCEL`: how list elements and map values render. */
function element(v: CelValue): string {
  if (typeof v === "bigint" || v instanceof CelUint) return decimal(v);
  if (typeof v === "string") return goQuote(v);
  if (v instanceof Uint8Array) return `b${goQuote(new TextDecoder().decode(v))}`;
  if (typeof v === "boolean" || v === null || v instanceof CelType) return formatString(v);
  if (v instanceof CelTimestamp) return `timestamp(${goQuote(formatTimestamp(v))})`;
  if (v instanceof CelDuration) return `duration(${goQuote(formatDuration(v))})`;
  if (Array.isArray(v)) return formatList(v);
  if (v instanceof CelMap) return formatMap(v);
  if (typeof v === "number") {
    if (Number.isNaN(v)) return '"NaN"';
    if (!Number.isFinite(v)) return v > 0 ? '"+Inf"' : '"-Inf"';
    return goFixed(v, 6);
  }
  throw new FormatError(`no formatting function for ${typeName(v)}`);
}

/** Go `fmt.Sprintf("%.<p>f")` (no grouping). */
function goFixed(v: number, p: number): string {
  return fixed(v, p).replace(/,/g, "");
}

function formatList(l: readonly CelValue[]): string {
  return `[${l.map(element).join(", ")}]`;
}

function formatMap(m: CelMap): string {
  const pairs: [string, string][] = [];
  for (const [k, v] of m.entries()) {
    let key: string;
    if (typeof k === "string") key = goQuote(k);
    else if (typeof k === "boolean") key = String(k);
    else if (typeof k === "bigint" || k instanceof CelUint) key = decimal(k);
    else throw new FormatError(`no formatting function for map key of type ${typeName(k)}`);
    pairs.push([key, element(v)]);
  }
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return `{${pairs.map(([k, v]) => `${k}:${v}`).join(", ")}}`;
}

function floatArg(v: CelValue, clause: "fixed-point" | "scientific"): number {
  if (typeof v === "number") return v;
  if (v === "NaN" || v === "Infinity" || v === "-Infinity") return Number(v);
  throw new FormatError(`${clause} clause can only be used on doubles, was given ${typeName(v)}`);
}

function hex(v: CelValue, upper: boolean): string {
  let s: string;
  if (typeof v === "string" || v instanceof Uint8Array) {
    const bytes = typeof v === "string" ? utf8.encode(v) : v;
    s = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  } else if (typeof v === "bigint") s = v < 0n ? `-${(-v).toString(16)}` : v.toString(16);
  else if (v instanceof CelUint) s = v.value.toString(16);
  else throw new FormatError(`only integers, byte buffers, and strings can be formatted as hex, was given ${typeName(v)}`);
  return upper ? s.toUpperCase() : s;
}

function radix(v: CelValue, base: 2 | 8): string {
  if (typeof v === "bigint") return v < 0n ? `-${(-v).toString(base)}` : v.toString(base);
  if (v instanceof CelUint) return v.value.toString(base);
  if (base === 2 && typeof v === "boolean") return v ? "1" : "0";
  throw new FormatError(
    base === 2
      ? `only integers and bools can be formatted as binary, was given ${typeName(v)}`
      : `octal clause can only be used on integers, was given ${typeName(v)}`,
  );
}

/** `"...".format(args)` with cel-go's ext.Strings v1–v3 semantics. */
export function formatV1(fmt: string, args: readonly CelValue[]): CelValue {
  let out = "";
  let argIndex = 0;
  let i = 0;
  while (i < fmt.length) {
    const c = fmt[i] as string;
    if (c !== "%") {
      out += c;
      i++;
      continue;
    }
    if (fmt[i + 1] === "%") {
      out += "%";
      i += 2;
      continue;
    }
    if (argIndex >= args.length) return new CelError(`index ${argIndex} out of range`);
    const arg = args[argIndex] as CelValue;
    if (i + 1 >= fmt.length) return new CelError("unexpected end of string");
    let j = i + 1;
    let precision: number | undefined;
    if (fmt[j] === ".") {
      j++;
      let digits = "";
      for (;;) {
        if (j >= fmt.length)
          return new CelError(
            "could not parse formatting clause: error while parsing precision: could not find end of precision specifier",
          );
        const d = fmt[j] as string;
        if (d < "0" || d > "9") break;
        digits += d;
        j++;
      }
      if (digits === "")
        return new CelError(
          'could not parse formatting clause: error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing "": invalid syntax',
        );
      precision = Number(digits);
    }
    const verb = fmt[j] as string;
    j++;
    let s: string;
    try {
      switch (verb) {
        case "s":
          s = formatString(arg);
          break;
        case "d":
          s = decimal(arg);
          break;
        case "f":
          s = fixed(floatArg(arg, "fixed-point"), precision ?? 6);
          break;
        case "e":
          // cel-go builds "%<precision>e": the precision becomes a width
          s = scientific(floatArg(arg, "scientific"), precision ?? 6);
          break;
        case "b":
          s = radix(arg, 2);
          break;
        case "o":
          s = radix(arg, 8);
          break;
        case "x":
        case "X":
          s = hex(arg, verb === "X");
          break;
        default:
          return new CelError(`could not parse formatting clause: unrecognized formatting clause "${verb}"`);
      }
    } catch (e) {
      if (e instanceof FormatError) return new CelError(`error during formatting: ${e.message}`);
      throw e;
    }
    out += s;
    i = j;
    argIndex++;
  }
  return out;
}
