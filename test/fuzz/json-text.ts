/**
 * JSON text of a crdkit value that keeps Go's int64 / float64 distinction on the wire: integral
 * float64 values are written `1.0` (Kubernetes then decodes them as float64, as crdkit does).
 */
import { Float64, type JsonValue, isObject } from "../../src/value/json-value.js";

export function jsonText(v: JsonValue): string {
  if (v === null) return "null";
  if (typeof v === "boolean") return v ? "true" : "false";
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : floatText(v);
  if (v instanceof Float64) return floatText(v.value);
  if (typeof v === "string") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(jsonText).join(",")}]`;
  if (isObject(v)) return `{${Object.keys(v).map((k) => `${JSON.stringify(k)}:${jsonText(v[k]!)}`).join(",")}}`;
  return "null";
}

function floatText(n: number): string {
  const s = String(n);
  return /[.eE]/.test(s) ? s : `${s}.0`;
}
