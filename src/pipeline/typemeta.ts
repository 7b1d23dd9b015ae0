/** `customResourceValidator.ValidateTypeMeta`: kind and apiVersion must name the CRD's kind and version. */
import { type FieldError, fieldError } from "../errors/field-error.js";
import { FieldPath } from "../errors/field-path.js";
import { type JsonObject, getKey } from "../value/json-value.js";

export function validateTypeMeta(obj: JsonObject, kind: string, group: string, version: string): FieldError[] {
  const errs: FieldError[] = [];
  const k = getKey(obj, "kind");
  const av = getKey(obj, "apiVersion");
  const ks = typeof k === "string" ? k : "";
  const avs = typeof av === "string" ? av : "";
  if (ks !== kind) errs.push(fieldError.invalid(FieldPath.of("kind"), ks, `must be ${kind}`));
  if (avs !== `${group}/${version}`) errs.push(fieldError.invalid(FieldPath.of("apiVersion"), avs, `must be ${group}/${version}`));
  return errs;
}
