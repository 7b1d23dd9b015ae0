/**
 * The accessor error of `unstructured.NestedString`, used when `kind`/`apiVersion` are not strings in a
 * request body.
 */
import { goSprint } from "../go/fmt.js";
import type { JsonValue } from "../value/json-value.js";
import { goTypeName } from "./get-set.js";

/**
 * `unstructured.NestedString(obj, fields...)` type error, e.g.
 * `.kind accessor error: 42 is of the type int64, expected string`.
 */
export function nestedStringError(fields: readonly string[], value: JsonValue): string {
  return `.${fields.join(".")} accessor error: ${goSprint(value)} is of the type ${goTypeName(value)}, expected string`;
}
