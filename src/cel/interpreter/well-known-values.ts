/**
 * Constructing a protobuf well-known message in an expression (`google.protobuf.Duration{seconds: 1}`), as cel-go's
 * default registry does (`Registry.NewValue`, then the message back to a CEL value): a duration or timestamp, the
 * wrapped value of a wrapper (its zero value when unset; a FloatValue holds a float32), JSON values for `Value`,
 * `Struct` and `ListValue` (numbers become doubles), and an `Any`, which no value holds.
 * @module
 */
import { CelDuration, CelError, CelMap, CelTimestamp, CelUint, type CelValue, HashCelMap, isList } from "../values/values.js";

const NANOS_PER_SECOND = 1_000_000_000n;
const INT32_MIN = -(2n ** 31n);
const INT32_MAX = 2n ** 31n - 1n;
const UINT32_MAX = 2n ** 32n - 1n;

/** A CEL value as a `google.protobuf.Value` holds it: numbers as doubles, lists and maps element by element. */
function jsonValue(v: CelValue): CelValue {
  if (typeof v === "bigint") return Number(v);
  if (v instanceof CelUint) return Number(v.value);
  if (isList(v)) return v.map(jsonValue);
  if (v instanceof CelMap) {
    const m = new HashCelMap();
    for (const [k, x] of v.entries()) m.set(k, jsonValue(x));
    return m;
  }
  return v;
}

/** The error of setting a field to a value its protobuf type cannot hold (cel-go `msgSetField`). */
function conversionError(message: string, field: string, why: string): CelError {
  return new CelError(`field type conversion error for ${message}.${field} value type: ${why}`);
}

/** An int32 field's value (0 when unset). */
function int32(v: CelValue | undefined, message: string, field: string): bigint | CelError {
  const n = typeof v === "bigint" ? v : 0n;
  return n < INT32_MIN || n > INT32_MAX ? conversionError(message, field, "integer overflow") : n;
}

/**
 * The value of the well-known message `name` built from `fields` (already evaluated, of the types the checker
 * allowed); undefined when `name` is no well-known message.
 */
export function wellKnownValue(name: string, fields: ReadonlyMap<string, CelValue>): CelValue | undefined {
  switch (name) {
    case "google.protobuf.Duration":
    case "google.protobuf.Timestamp": {
      const seconds = fields.get("seconds");
      const nanos = int32(fields.get("nanos"), name, "nanos");
      if (nanos instanceof CelError) return nanos;
      const total = (typeof seconds === "bigint" ? seconds : 0n) * NANOS_PER_SECOND + nanos;
      return name === "google.protobuf.Duration" ? new CelDuration(total) : new CelTimestamp(total);
    }
    case "google.protobuf.Int64Value":
      return fields.get("value") ?? 0n;
    case "google.protobuf.Int32Value":
      return int32(fields.get("value"), name, "value");
    case "google.protobuf.UInt64Value":
      return fields.get("value") ?? new CelUint(0n);
    case "google.protobuf.UInt32Value": {
      const v = fields.get("value");
      if (!(v instanceof CelUint)) return new CelUint(0n);
      return v.value > UINT32_MAX ? conversionError(name, "value", "unsigned integer overflow") : v;
    }
    case "google.protobuf.DoubleValue":
      return fields.get("value") ?? 0;
    case "google.protobuf.FloatValue": {
      const v = fields.get("value");
      return typeof v === "number" ? Math.fround(v) : 0;
    }
    case "google.protobuf.BoolValue":
      return fields.get("value") ?? false;
    case "google.protobuf.StringValue":
      return fields.get("value") ?? "";
    case "google.protobuf.BytesValue":
      return fields.get("value") ?? new Uint8Array(0);
    case "google.protobuf.Struct": {
      const f = fields.get("fields");
      return f === undefined ? new HashCelMap() : jsonValue(f);
    }
    case "google.protobuf.ListValue": {
      const f = fields.get("values");
      return f === undefined ? [] : jsonValue(f);
    }
    case "google.protobuf.Value": {
      // (a oneof: the value of the kind that is set; none set is null)
      let out: CelValue = null;
      for (const [k, v] of fields) out = k === "null_value" ? null : jsonValue(v);
      return out;
    }
    case "google.protobuf.Any":
      return new CelError("unsupported conversion to ref.Val: (*dynamicpb.Message)");
    default:
      return undefined;
  }
}
