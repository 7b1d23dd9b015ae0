/**
 * CEL standard library implementations keyed by cel-go overload ids: arithmetic
 * with int64/uint64 overflow errors, comparisons (incl. cross-type numeric),
 * equality, `in`, `size`, conversions, string functions, time accessors.
 *
 * @module
 */

import { formatGoFloat } from "../../go/fmt.js";
import { parseGoBool } from "../../go/strconv.js";
import type { OverloadImpl } from "../interpreter/functions.js";
import { celCompare, celEquals, codePointLength, typeOf } from "../values/ops.js";
import type { CelValue } from "../values/values.js";
import { CelDuration, CelError, CelMap, type CelOptional, type CelTimestamp, type CelType, CelUint, TYPES } from "../values/values.js";
import { matches } from "./regex.js";
import { checkInt, err, global, INT64_MAX, INT64_MIN, member, UINT64_MAX } from "./overload.js";
import {
  formatDuration,
  formatTimestamp,
  makeDuration,
  makeTimestamp,
  parseDuration,
  parseTimestamp,
  timeFields,
} from "./time.js";

const U = (v: bigint): CelUint | CelError => (v < 0n || v > UINT64_MAX ? err("unsigned integer overflow") : new CelUint(v));
const NS = 1_000_000_000n;
const TWO_63 = 2 ** 63;
const TWO_64 = 2 ** 64;

function arithmetic(): OverloadImpl[] {
  return [
    global("add_int64", "_+_", ["int", "int"], (a: bigint, b: bigint) => checkInt(a + b)),
    global("add_uint64", "_+_", ["uint", "uint"], (a: CelUint, b: CelUint) => U(a.value + b.value)),
    global("add_double", "_+_", ["double", "double"], (a: number, b: number) => a + b),
    global("add_string", "_+_", ["string", "string"], (a: string, b: string) => a + b),
    global("add_bytes", "_+_", ["bytes", "bytes"], (a: Uint8Array, b: Uint8Array) => {
      const out = new Uint8Array(a.length + b.length);
      out.set(a);
      out.set(b, a.length);
      return out;
    }),
    global("add_list", "_+_", ["list", "list"], (a: CelValue[], b: CelValue[]) =>
      a.length === 0 ? b : b.length === 0 ? a : a.concat(b),
    ),
    global("add_timestamp_duration", "_+_", ["timestamp", "duration"], (a: CelTimestamp, b: CelDuration) =>
      makeTimestamp(a.nanos + b.nanos),
    ),
    global("add_duration_timestamp", "_+_", ["duration", "timestamp"], (a: CelDuration, b: CelTimestamp) =>
      makeTimestamp(a.nanos + b.nanos),
    ),
    global("add_duration_duration", "_+_", ["duration", "duration"], (a: CelDuration, b: CelDuration) =>
      a.nanos + b.nanos > INT64_MAX || a.nanos + b.nanos < INT64_MIN
        ? err("integer overflow")
        : new CelDuration(a.nanos + b.nanos),
    ),
    global("subtract_int64", "_-_", ["int", "int"], (a: bigint, b: bigint) => checkInt(a - b)),
    global("subtract_uint64", "_-_", ["uint", "uint"], (a: CelUint, b: CelUint) => U(a.value - b.value)),
    global("subtract_double", "_-_", ["double", "double"], (a: number, b: number) => a - b),
    global("subtract_timestamp_timestamp", "_-_", ["timestamp", "timestamp"], (a: CelTimestamp, b: CelTimestamp) => {
      const d = a.nanos - b.nanos;
      return d > INT64_MAX || d < INT64_MIN ? err("integer overflow") : new CelDuration(d);
    }),
    global("subtract_timestamp_duration", "_-_", ["timestamp", "duration"], (a: CelTimestamp, b: CelDuration) =>
      makeTimestamp(a.nanos - b.nanos),
    ),
    global("subtract_duration_duration", "_-_", ["duration", "duration"], (a: CelDuration, b: CelDuration) => {
      const d = a.nanos - b.nanos;
      return d > INT64_MAX || d < INT64_MIN ? err("integer overflow") : new CelDuration(d);
    }),
    global("multiply_int64", "_*_", ["int", "int"], (a: bigint, b: bigint) => checkInt(a * b)),
    global("multiply_uint64", "_*_", ["uint", "uint"], (a: CelUint, b: CelUint) => U(a.value * b.value)),
    global("multiply_double", "_*_", ["double", "double"], (a: number, b: number) => a * b),
    global("divide_int64", "_/_", ["int", "int"], (a: bigint, b: bigint) =>
      b === 0n ? err("division by zero") : checkInt(a / b),
    ),
    global("divide_uint64", "_/_", ["uint", "uint"], (a: CelUint, b: CelUint) =>
      b.value === 0n ? err("division by zero") : new CelUint(a.value / b.value),
    ),
    global("divide_double", "_/_", ["double", "double"], (a: number, b: number) => a / b),
    global("modulo_int64", "_%_", ["int", "int"], (a: bigint, b: bigint) => {
      if (b === 0n) return err("modulus by zero");
      if (b === -1n && a === INT64_MIN) return err("integer overflow");
      return a % b;
    }),
    global("modulo_uint64", "_%_", ["uint", "uint"], (a: CelUint, b: CelUint) =>
      b.value === 0n ? err("modulus by zero") : new CelUint(a.value % b.value),
    ),
    global("negate_int64", "-_", ["int"], (a: bigint) => checkInt(-a)),
    global("negate_double", "-_", ["double"], (a: number) => -a),
    global("logical_not", "!_", ["bool"], (a: boolean) => !a),
  ];
}

const NUM = ["int", "uint", "double"] as const;
const ID_NAME: Record<string, string> = { int: "int64", uint: "uint64", double: "double" };

/** Direct implementations for same-type int/double comparisons (no NaN/mixed handling needed). */
// biome-ignore lint/suspicious/noExplicitAny: implementations take narrowed argument types
const FAST_COMPARE: Record<string, (a: any, b: any) => CelValue> = {
  "_<_:int:int": (a: bigint, b: bigint) => a < b,
  "_<=_:int:int": (a: bigint, b: bigint) => a <= b,
  "_>_:int:int": (a: bigint, b: bigint) => a > b,
  "_>=_:int:int": (a: bigint, b: bigint) => a >= b,
};

function comparisons(): OverloadImpl[] {
  const out: OverloadImpl[] = [];
  const ops: [string, string, (c: number) => boolean][] = [
    ["_<_", "less", (c) => c < 0],
    ["_<=_", "less_equals", (c) => c <= 0],
    ["_>_", "greater", (c) => c > 0],
    ["_>=_", "greater_equals", (c) => c >= 0],
  ];
  for (const [fn, name, test] of ops) {
    const impl = (a: CelValue, b: CelValue): CelValue => {
      const c = celCompare(a, b);
      if (c === undefined) return err("no such overload");
      if (c instanceof CelError) return c;
      return test(c);
    };
    for (const t of ["bool", "string", "bytes", "timestamp", "duration"]) out.push(global(`${name}_${t}`, fn, [t, t], impl));
    for (const a of NUM)
      for (const b of NUM) {
        const id = a === b ? `${name}_${ID_NAME[a]}` : `${name}_${ID_NAME[a]}_${ID_NAME[b]}`;
        out.push(global(id, fn, [a, b], FAST_COMPARE[`${fn}:${a}:${b}`] ?? impl));
      }
  }
  return out;
}

function sizeOf(v: CelValue): CelValue {
  if (typeof v === "string") return BigInt(codePointLength(v));
  if (Array.isArray(v)) return BigInt(v.length);
  if (v instanceof Uint8Array) return BigInt(v.length);
  if (v instanceof CelMap) return BigInt(v.size);
  return err("no such overload");
}

function inList(a: CelValue, l: readonly CelValue[]): CelValue {
  // indexed: a for-of allocates an iterator (and a result per step) in V8's lower tiers
  for (let i = 0; i < l.length; i++) if (celEquals(a, l[i] as CelValue) === true) return true;
  return false;
}

function core(): OverloadImpl[] {
  return [
    global("equals", "_==_", ["dyn", "dyn"], (a: CelValue, b: CelValue) => celEquals(a, b)),
    global("not_equals", "_!=_", ["dyn", "dyn"], (a: CelValue, b: CelValue) => {
      const r = celEquals(a, b);
      return typeof r === "boolean" ? !r : r;
    }),
    global("in_list", "@in", ["dyn", "list"], inList),
    global("in_map", "@in", ["dyn", "map"], (a: CelValue, m: CelMap) => m.contains(a)),
    global("size_string", "size", ["string"], sizeOf),
    global("size_bytes", "size", ["bytes"], sizeOf),
    global("size_list", "size", ["list"], sizeOf),
    global("size_map", "size", ["map"], sizeOf),
    member("string_size", "size", ["string"], sizeOf),
    member("bytes_size", "size", ["bytes"], sizeOf),
    member("list_size", "size", ["list"], sizeOf),
    member("map_size", "size", ["map"], sizeOf),
    global("type", "type", ["dyn"], (a: CelValue) => typeOf(a)),
    global("to_dyn", "dyn", ["dyn"], (a: CelValue) => a),
    member("contains_string", "contains", ["string", "string"], (a: string, b: string) => a.includes(b)),
    member("starts_with_string", "startsWith", ["string", "string"], (a: string, b: string) => a.startsWith(b)),
    member("ends_with_string", "endsWith", ["string", "string"], (a: string, b: string) => a.endsWith(b)),
    member("matches_string", "matches", ["string", "string"], matches),
    global("matches", "matches", ["string", "string"], matches),
  ];
}

const conv = (from: string, to: string): CelError => err(`type conversion error from '${from}' to '${to}'`);

function doubleToInt(d: number): CelValue {
  // cel-go doubleToInt64Checked: v <= float64(MinInt64) || v >= float64(MaxInt64) (both are ±2^63)
  if (!Number.isFinite(d) || d <= -TWO_63 || d >= TWO_63) return err("integer overflow");
  return BigInt(Math.trunc(d));
}

function conversions(): OverloadImpl[] {
  return [
    global("int64_to_int64", "int", ["int"], (a: bigint) => a),
    global("uint64_to_int64", "int", ["uint"], (a: CelUint) => (a.value > INT64_MAX ? err("integer overflow") : a.value)),
    global("double_to_int64", "int", ["double"], doubleToInt),
    // strconv.ParseInt(s, 10, 64) / ParseUint: out of range is a parse error, reported as a conversion error
    global("string_to_int64", "int", ["string"], (s: string) => {
      const v = /^[+-]?\d+$/.test(s) ? BigInt(s) : undefined;
      return v !== undefined && v >= -(2n ** 63n) && v < 2n ** 63n ? v : conv("string", "int");
    }),
    global("timestamp_to_int64", "int", ["timestamp"], (t: CelTimestamp) => {
      const q = t.nanos / NS;
      return t.nanos < 0n && t.nanos % NS !== 0n ? q - 1n : q;
    }),
    global("duration_to_int64", "int", ["duration"], (d: CelDuration) => d.nanos),
    global("uint64_to_uint64", "uint", ["uint"], (a: CelUint) => a),
    global("int64_to_uint64", "uint", ["int"], (a: bigint) => U(a)),
    global("double_to_uint64", "uint", ["double"], (d: number) => {
      if (!Number.isFinite(d) || d < 0 || d >= TWO_64) return err("unsigned integer overflow");
      return new CelUint(BigInt(Math.trunc(d)));
    }),
    global("string_to_uint64", "uint", ["string"], (s: string) => {
      const v = /^\d+$/.test(s) ? BigInt(s) : undefined;
      return v !== undefined && v < 2n ** 64n ? U(v) : conv("string", "uint");
    }),
    global("double_to_double", "double", ["double"], (d: number) => d),
    global("int64_to_double", "double", ["int"], (a: bigint) => Number(a)),
    global("uint64_to_double", "double", ["uint"], (a: CelUint) => Number(a.value)),
    global("string_to_double", "double", ["string"], (s: string) => parseGoFloat(s) ?? conv("string", "double")),
    global("bool_to_bool", "bool", ["bool"], (b: boolean) => b),
    global("string_to_bool", "bool", ["string"], (s: string) => {
      const b = parseGoBool(s);
      return b === undefined ? conv("string", "bool") : b;
    }),
    global("string_to_string", "string", ["string"], (s: string) => s),
    global("int64_to_string", "string", ["int"], (a: bigint) => String(a)),
    global("uint64_to_string", "string", ["uint"], (a: CelUint) => String(a.value)),
    global("double_to_string", "string", ["double"], (d: number) => formatGoFloat(d)),
    global("bool_to_string", "string", ["bool"], (b: boolean) => String(b)),
    global("bytes_to_string", "string", ["bytes"], (b: Uint8Array) => {
      try {
        return new TextDecoder("utf-8", { fatal: true }).decode(b);
      } catch {
        return err("invalid UTF-8 in bytes, cannot convert to string");
      }
    }),
    global("timestamp_to_string", "string", ["timestamp"], (t: CelTimestamp) => formatTimestamp(t)),
    global("duration_to_string", "string", ["duration"], (d: CelDuration) => formatDuration(d)),
    global("bytes_to_bytes", "bytes", ["bytes"], (b: Uint8Array) => b),
    global("string_to_bytes", "bytes", ["string"], (s: string) => new TextEncoder().encode(s)),
    global("duration_to_duration", "duration", ["duration"], (d: CelDuration) => d),
    global("string_to_duration", "duration", ["string"], (s: string) => parseDuration(s)),
    global("timestamp_to_timestamp", "timestamp", ["timestamp"], (t: CelTimestamp) => t),
    global("string_to_timestamp", "timestamp", ["string"], (s: string) => parseTimestamp(s)),
    global("int64_to_timestamp", "timestamp", ["int"], (a: bigint) => makeTimestamp(a * NS)),
    global("int64_to_duration", "duration", ["int"], (a: bigint) => makeDuration(a)),
  ];
}

/** Go `strconv.ParseFloat(s, 64)` (decimal, hex floats omitted, inf/nan accepted). */
function parseGoFloat(s: string): number | undefined {
  const t = s.toLowerCase();
  if (["inf", "+inf", "infinity", "+infinity"].includes(t)) return Number.POSITIVE_INFINITY;
  if (["-inf", "-infinity"].includes(t)) return Number.NEGATIVE_INFINITY;
  if (t === "nan") return Number.NaN;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(s)) return undefined;
  const v = Number(s);
  return Number.isFinite(v) ? v : undefined;
}

type Field = "year" | "month" | "doy" | "dom0" | "dom1" | "dow" | "hours" | "minutes" | "seconds" | "ms";

function timeAccessors(): OverloadImpl[] {
  const defs: [string, string, Field][] = [
    ["getFullYear", "timestamp_to_year", "year"],
    ["getMonth", "timestamp_to_month", "month"],
    ["getDayOfYear", "timestamp_to_day_of_year", "doy"],
    ["getDayOfMonth", "timestamp_to_day_of_month", "dom0"],
    ["getDate", "timestamp_to_day_of_month_1_based", "dom1"],
    ["getDayOfWeek", "timestamp_to_day_of_week", "dow"],
    ["getHours", "timestamp_to_hours", "hours"],
    ["getMinutes", "timestamp_to_minutes", "minutes"],
    ["getSeconds", "timestamp_to_seconds", "seconds"],
    ["getMilliseconds", "timestamp_to_milliseconds", "ms"],
  ];
  const pick = (t: CelTimestamp, f: Field, tz?: string): CelValue => {
    const x = timeFields(t, tz);
    if (x instanceof CelError) return x;
    switch (f) {
      case "year":
        return BigInt(x.year);
      case "month":
        return BigInt(x.month - 1);
      case "doy":
        return BigInt(x.yearDay - 1);
      case "dom0":
        return BigInt(x.day - 1);
      case "dom1":
        return BigInt(x.day);
      case "dow":
        return BigInt(x.weekday);
      case "hours":
        return BigInt(x.hour);
      case "minutes":
        return BigInt(x.minute);
      case "seconds":
        return BigInt(x.second);
      case "ms":
        return BigInt(Math.floor(x.nanos / 1e6));
    }
  };
  const out: OverloadImpl[] = [];
  for (const [fn, id, f] of defs) {
    out.push(member(id, fn, ["timestamp"], (t: CelTimestamp) => pick(t, f)));
    out.push(member(`${id}_with_tz`, fn, ["timestamp", "string"], (t: CelTimestamp, tz: string) => pick(t, f, tz)));
  }
  // cel-go's duration accessors return totals (Go `d.Milliseconds()`), also for getMilliseconds
  // (the spec's conformance test expects the millisecond component; cel-go skips it)
  const dur: [string, string, bigint][] = [
    ["getHours", "duration_to_hours", 3600n * NS],
    ["getMinutes", "duration_to_minutes", 60n * NS],
    ["getSeconds", "duration_to_seconds", NS],
    ["getMilliseconds", "duration_to_milliseconds", 1000000n],
  ];
  for (const [fn, id, div] of dur) {
    out.push(
      member(id, fn, ["duration"], (d: CelDuration) => d.nanos / div),
    );
  }
  return out;
}

function typeConversions(): OverloadImpl[] {
  return [
    global("type_to_type", "type", ["type"], (_t: CelType) => TYPES.type),
    global("optional_type", "type", ["optional"], (_o: CelOptional) => TYPES.optional),
  ];
}

/** All standard-library overloads (cel-go `stdlib`). */
export function standardOverloads(): OverloadImpl[] {
  return [...arithmetic(), ...comparisons(), ...core(), ...conversions(), ...timeAccessors(), ...typeConversions()];
}
