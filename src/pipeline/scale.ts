/**
 * Scale-subresource checks of the custom-resource validator (`ValidateScaleSpec`, `ValidateScaleStatus`):
 * the replicas fields must be int64 values in [0, MaxInt32]; the label selector must be a string. The
 * field path is the raw JSON path of the CRD (leading dot included), as Kubernetes prints it.
 */
import type { CustomResourceSubresourceScale } from "../crd/types.js";
import { type FieldError, fieldError } from "../errors/field-error.js";
import { FieldPath } from "../errors/field-path.js";
import { type JsonObject, type JsonValue, getKey, isInt, isObject, kindOf } from "../value/json-value.js";
import { goSprint } from "../go/fmt.js";

/** Go `%T` of an unstructured value. */
function goTypeName(v: JsonValue | undefined): string {
  switch (kindOf(v)) {
    case "null":
      return "<nil>";
    case "string":
      return "string";
    case "boolean":
      return "bool";
    case "integer":
      return "int64";
    case "number":
      return "float64";
    case "array":
      return "[]interface {}";
    default:
      return "map[string]interface {}";
  }
}

type Nested = { found: false; error?: string } | { found: true; value: JsonValue };

/** `unstructured.NestedFieldNoCopy`. */
function nestedField(obj: JsonObject, fields: string[]): Nested {
  let val: JsonValue = obj;
  for (let i = 0; i < fields.length; i++) {
    if (val === null) return { found: false };
    if (isObject(val)) {
      const next = getKey(val, fields[i]!);
      if (next === undefined) return { found: false };
      val = next;
    } else {
      return {
        found: false,
        error: `.${fields.slice(0, i + 1).join(".")} accessor error: ${goSprint(val)} is of the type ${goTypeName(val)}, expected map[string]interface{}`,
      };
    }
  }
  return { found: true, value: val };
}

function checkReplicas(obj: JsonObject, rawPath: string): FieldError[] {
  const fields = (rawPath.startsWith(".") ? rawPath.slice(1) : rawPath).split(".");
  const path = FieldPath.of(rawPath);
  const n = nestedField(obj, fields);
  if (!n.found) return n.error ? [fieldError.invalid(path, 0, n.error)] : [];
  const v = n.value;
  if (!isInt(v)) {
    return [
      fieldError.invalid(
        path,
        0,
        `.${fields.join(".")} accessor error: ${goSprint(v)} is of the type ${goTypeName(v)}, expected int64`,
      ),
    ];
  }
  if (v < 0) return [fieldError.invalid(path, v, "should be a non-negative integer")];
  if (v > 2147483647) return [fieldError.invalid(path, v, "should be less than or equal to 2147483647")];
  return [];
}

/** `ValidateScaleSpec`. */
export function validateScaleSpec(obj: JsonObject, scale: CustomResourceSubresourceScale | undefined): FieldError[] {
  if (!scale) return [];
  return checkReplicas(obj, scale.specReplicasPath);
}

/** `ValidateScaleStatus`. */
export function validateScaleStatus(obj: JsonObject, scale: CustomResourceSubresourceScale | undefined): FieldError[] {
  if (!scale) return [];
  const errs = checkReplicas(obj, scale.statusReplicasPath);
  if (scale.labelSelectorPath !== undefined) {
    const raw = scale.labelSelectorPath;
    const fields = (raw.startsWith(".") ? raw.slice(1) : raw).split(".");
    const n = nestedField(obj, fields);
    const err = !n.found
      ? n.error
      : typeof n.value !== "string"
        ? `.${fields.join(".")} accessor error: ${goSprint(n.value)} is of the type ${goTypeName(n.value)}, expected string`
        : undefined;
    if (err) errs.push(fieldError.invalid(FieldPath.of(raw), "", err));
  }
  return errs;
}
