/**
 * Core value operations: runtime type, CEL equality (heterogeneous, numeric
 * cross-type), ordering, and runtime type tags used for dynamic dispatch.
 *
 * @module
 */

import type { CelValue } from "./values.js";
import {
  CelDuration,
  CelError,
  CelMap,
  CelOpaque,
  CelOptional,
  CelSpecial,
  CelTimestamp,
  CelType,
  CelUint,
  CelUnknown,
  TYPES,
} from "./values.js";

/** Runtime type tag of a value (`int`, `uint`, ..., or an opaque type name). */
export function tagOf(v: CelValue): string {
  switch (typeof v) {
    case "bigint":
      return "int";
    case "number":
      return "double";
    case "string":
      return "string";
    case "boolean":
      return "bool";
    case "object":
      if (v === null) return "null";
      if (Array.isArray(v)) return "list";
      if (v instanceof CelMap) return "map";
      if (v instanceof CelUint) return "uint";
      if (v instanceof Uint8Array) return "bytes";
      if (v instanceof CelTimestamp) return "timestamp";
      if (v instanceof CelDuration) return "duration";
      if (v instanceof CelType) return "type";
      if (v instanceof CelOptional) return "optional";
      if (v instanceof CelOpaque) return v.celType.name;
      if (v instanceof CelError) return "error";
      if (v instanceof CelUnknown) return "unknown";
      return "unknown";
    default:
      return "unknown";
  }
}

/** The CEL type value of `v` (what `type(v)` returns). */
export function typeOf(v: CelValue): CelType {
  const t = tagOf(v);
  switch (t) {
    case "int":
      return TYPES.int;
    case "uint":
      return TYPES.uint;
    case "double":
      return TYPES.double;
    case "string":
      return TYPES.string;
    case "bool":
      return TYPES.bool;
    case "null":
      return TYPES.null;
    case "list":
      return TYPES.list;
    case "map":
      return TYPES.map;
    case "bytes":
      return TYPES.bytes;
    case "timestamp":
      return TYPES.timestamp;
    case "duration":
      return TYPES.duration;
    case "type":
      return TYPES.type;
    case "optional":
      return TYPES.optional;
    case "error":
      return TYPES.error;
    default:
      return v instanceof CelOpaque ? v.celType : TYPES.unknown;
  }
}

/** Numeric view for cross-type comparison: bigint (int/uint) or number (double); undefined if not numeric. */
function numeric(v: CelValue): bigint | number | undefined {
  if (typeof v === "bigint" || typeof v === "number") return v;
  if (v instanceof CelUint) return v.value;
  return undefined;
}

/** Compares two numerics of possibly different kinds; NaN → undefined. */
export function compareNumeric(a: bigint | number, b: bigint | number): -1 | 0 | 1 | undefined {
  if (typeof a === "bigint" && typeof b === "bigint") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "number" && typeof b === "number") {
    if (Number.isNaN(a) || Number.isNaN(b)) return undefined;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  // mixed int/uint vs double: cel-go compares as doubles (lossy), NaN unordered
  const x = typeof a === "number" ? a : Number(a);
  const y = typeof b === "number" ? b : Number(b);
  if (Number.isNaN(x) || Number.isNaN(y)) return undefined;
  return x < y ? -1 : x > y ? 1 : 0;
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * CEL `==` (heterogeneous equality): values of different types are unequal except
 * numbers, which compare by value; NaN is unequal to everything. Returns an error
 * or unknown value when an operand is one.
 */
export function celEquals(a: CelValue, b: CelValue): boolean | CelSpecial {
  if (a instanceof CelSpecial) return a;
  if (b instanceof CelSpecial) return b;
  return eq(a, b);
}

function eq(a: CelValue, b: CelValue): boolean {
  if (a === b) return typeof a !== "number" || !Number.isNaN(a);
  const ta = typeof a;
  if (ta === "string" || ta === "boolean" || typeof b === "string" || typeof b === "boolean") return false;
  const na = numeric(a);
  if (na !== undefined) {
    const nb = numeric(b);
    return nb !== undefined && compareNumeric(na, nb) === 0;
  }
  if (a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!eq(a[i] as CelValue, b[i] as CelValue)) return false;
    return true;
  }
  if (a instanceof CelMap) {
    if (!(b instanceof CelMap) || a.size !== b.size) return false;
    for (const k of a.keys()) {
      const bv = b.get(k);
      if (bv === undefined || !eq(a.get(k) as CelValue, bv)) return false;
    }
    return true;
  }
  if (a instanceof Uint8Array) return b instanceof Uint8Array && bytesEqual(a, b);
  if (a instanceof CelDuration) return b instanceof CelDuration && a.nanos === b.nanos;
  if (a instanceof CelTimestamp) return b instanceof CelTimestamp && a.nanos === b.nanos;
  if (a instanceof CelType) return b instanceof CelType && a.name === b.name;
  if (a instanceof CelOptional) {
    if (!(b instanceof CelOptional)) return false;
    if (a.value === undefined || b.value === undefined) return a.value === b.value;
    return eq(a.value, b.value);
  }
  if (a instanceof CelOpaque) return a.equals(b);
  return false;
}

function compareBytes(a: Uint8Array, b: Uint8Array): -1 | 0 | 1 {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

/** Code-point order of two strings (Go compares UTF-8 bytes, which is code-point order). */
export function compareStrings(a: string, b: string): -1 | 0 | 1 {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      // surrogates (>= 0xD800 < 0xE000) sort above BMP chars >= 0xE000 in code-point order
      const xs = x >= 0xd800 && x <= 0xdfff;
      const ys = y >= 0xd800 && y <= 0xdfff;
      if (xs !== ys) return xs ? (y >= 0xe000 ? 1 : 1) : x >= 0xe000 ? -1 : -1;
      return x < y ? -1 : 1;
    }
  }
  return a.length < b.length ? -1 : 1;
}

/**
 * Ordering for `<`, `<=`, `>`, `>=`. Returns -1/0/1, `undefined` for "no such
 * overload" (incomparable types), or a CelError (NaN).
 */
export function celCompare(a: CelValue, b: CelValue): -1 | 0 | 1 | undefined | CelError {
  const na = numeric(a);
  if (na !== undefined) {
    const nb = numeric(b);
    if (nb === undefined) return undefined;
    const r = compareNumeric(na, nb);
    return r === undefined ? new CelError("NaN values cannot be ordered") : r;
  }
  if (typeof a === "string") return typeof b === "string" ? compareStrings(a, b) : undefined;
  if (typeof a === "boolean") return typeof b === "boolean" ? (a === b ? 0 : a ? 1 : -1) : undefined;
  if (a instanceof Uint8Array) return b instanceof Uint8Array ? compareBytes(a, b) : undefined;
  if (a instanceof CelDuration)
    return b instanceof CelDuration ? (a.nanos < b.nanos ? -1 : a.nanos > b.nanos ? 1 : 0) : undefined;
  if (a instanceof CelTimestamp)
    return b instanceof CelTimestamp ? (a.nanos < b.nanos ? -1 : a.nanos > b.nanos ? 1 : 0) : undefined;
  return undefined;
}

/** Number of Unicode code points in `s` (CEL's `size` of a string: Go's rune count). */
export { goRuneCount as codePointLength } from "../../go/utf8.js";
