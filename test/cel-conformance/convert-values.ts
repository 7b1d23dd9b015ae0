/**
 * Converts the JSON-encoded `cel.expr.Value`s of conformance tests (bindings and expected
 * results) to crdkit CEL values, and compares results with expected values.
 * @module
 */
import { celEquals } from "../../src/cel/values/ops.js";
import {
  type CelValue,
  CelDuration,
  CelMap,
  CelOptional,
  CelTimestamp,
  CelType,
  CelUint,
  HashCelMap,
} from "../../src/cel/values/values.js";
import type { Json } from "./suite.js";

/** Thrown for value encodings the runner does not support (e.g. protobuf messages). */
export class UnsupportedValue extends Error {}

function obj(j: Json | undefined): Record<string, Json> {
  return j !== null && typeof j === "object" && !Array.isArray(j) ? j : {};
}

function base64ToBytes(s: string): Uint8Array {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

const TYPE_NAMES: Readonly<Record<string, string>> = {
  "google.protobuf.Duration": "google.protobuf.Duration",
  "google.protobuf.Timestamp": "google.protobuf.Timestamp",
};

/** JSON `cel.expr.Value` → CEL value. */
export function jsonToValue(j: Json | undefined): CelValue {
  const o = obj(j);
  if ("nullValue" in o) return null;
  if ("boolValue" in o) return o.boolValue === true;
  if ("int64Value" in o) return BigInt(String(o.int64Value));
  if ("uint64Value" in o) return new CelUint(BigInt(String(o.uint64Value)));
  if ("doubleValue" in o) {
    const d = o.doubleValue;
    if (d === "NaN") return Number.NaN;
    if (d === "Infinity") return Number.POSITIVE_INFINITY;
    if (d === "-Infinity") return Number.NEGATIVE_INFINITY;
    return Number(d);
  }
  if ("stringValue" in o) return String(o.stringValue);
  if ("bytesValue" in o) return base64ToBytes(String(o.bytesValue));
  if ("listValue" in o) {
    const vs = obj(o.listValue).values;
    return (Array.isArray(vs) ? vs : []).map(jsonToValue);
  }
  if ("mapValue" in o) {
    const m = new HashCelMap();
    const es = obj(o.mapValue).entries;
    for (const e of Array.isArray(es) ? es : []) {
      const eo = obj(e);
      m.set(jsonToValue(eo.key), jsonToValue(eo.value));
    }
    return m;
  }
  if ("typeValue" in o) {
    const n = String(o.typeValue);
    return new CelType(TYPE_NAMES[n] ?? n);
  }
  if ("objectValue" in o) {
    const ov = obj(o.objectValue);
    const t = String(ov["@type"] ?? "");
    if (t.endsWith("google.protobuf.Duration")) return new CelDuration(parseDurationNanos(String(ov.value)));
    if (t.endsWith("google.protobuf.Timestamp")) return new CelTimestamp(BigInt(Date.parse(String(ov.value))) * 1_000_000n + subMillisNanos(String(ov.value)));
    throw new UnsupportedValue(`object value ${t}`);
  }
  throw new UnsupportedValue(`value ${JSON.stringify(j)}`);
}

function parseDurationNanos(s: string): bigint {
  const m = /^(-)?(\d+)(?:\.(\d{1,9}))?s$/.exec(s);
  if (m === null) throw new UnsupportedValue(`duration ${s}`);
  const nanos = BigInt(m[2] as string) * 1_000_000_000n + BigInt((m[3] ?? "").padEnd(9, "0"));
  return m[1] === "-" ? -nanos : nanos;
}

function subMillisNanos(s: string): bigint {
  const m = /\.(\d+)Z$/.exec(s);
  if (m === null) return 0n;
  return BigInt((m[1] as string).padEnd(9, "0").slice(3, 9));
}

/** Deep equality of a result with an expected value (NaN equals NaN; types by name). */
export function valuesEqual(actual: CelValue, expected: CelValue): boolean {
  if (typeof expected === "number" && typeof actual === "number") {
    if (Number.isNaN(expected)) return Number.isNaN(actual);
    return Object.is(actual, expected) || actual === expected;
  }
  if (typeof expected !== typeof actual) return false;
  if (expected instanceof CelType) return actual instanceof CelType && typeName(actual) === typeName(expected);
  if (expected instanceof CelUint) return actual instanceof CelUint && actual.value === expected.value;
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return false;
    return expected.every((e, i) => valuesEqual(actual[i] as CelValue, e));
  }
  if (expected instanceof CelMap) {
    if (!(actual instanceof CelMap) || actual.size !== expected.size) return false;
    for (const [k, v] of expected.entries()) {
      const av = actual.get(k);
      if (av === undefined || !valuesEqual(av, v)) return false;
      // keys must also have the same CEL type
      const ak = actual.keys().find((x) => celEquals(x, k) === true);
      if (ak === undefined || typeof ak !== typeof k || ak instanceof CelUint !== k instanceof CelUint) return false;
    }
    return true;
  }
  if (expected instanceof CelOptional) {
    if (!(actual instanceof CelOptional) || actual.hasValue() !== expected.hasValue()) return false;
    return !expected.hasValue() || valuesEqual(actual.value as CelValue, expected.value as CelValue);
  }
  return celEquals(actual, expected) === true;
}

function typeName(t: CelType): string {
  return t.params.length === 0 ? t.name : `${t.name}(${t.params.map(typeName).join(", ")})`;
}
