/**
 * Go's `%v` of unstructured values (`map[a:1 b:[x y]]`, `<nil>`, `1.5`) and the accessor error of
 * `unstructured.NestedString`, used when `kind`/`apiVersion` are not strings in a request body.
 */
import { compareGoStrings, formatGoNumber } from "../value/go-format.js";
import { type JsonValue, Float64, isObject } from "../value/json-value.js";
import { goTypeName } from "./get-set.js";

/** `fmt.Sprint(v)` of an unstructured value. */
export function goPrintValue(v: JsonValue | undefined): string {
  if (v === null || v === undefined) return "<nil>";
  if (typeof v === "string") return v;
  if (typeof v === "boolean") return v ? "true" : "false";
  if (typeof v === "number" || typeof v === "bigint" || v instanceof Float64) return formatGoNumber(v);
  if (Array.isArray(v)) return `[${v.map(goPrintValue).join(" ")}]`;
  if (isObject(v)) {
    const keys = Object.keys(v).sort(compareGoStrings);
    return `map[${keys.map((k) => `${k}:${goPrintValue(v[k])}`).join(" ")}]`;
  }
  return "<nil>";
}

/**
 * `unstructured.NestedString(obj, fields...)` type error, e.g.
 * `.kind accessor error: 42 is of the type int64, expected string`.
 */
export function nestedStringError(fields: readonly string[], value: JsonValue): string {
  return `.${fields.join(".")} accessor error: ${goPrintValue(value)} is of the type ${goTypeName(value)}, expected string`;
}
