/**
 * `validateCustomResourceDefinitionValidation` (§1.3): one `CustomResourceValidation` (top-level
 * `spec.validation` or `spec.versions[i].schema`). Order: status-subresource root restrictions, root
 * nullable, structural schema (NewStructural → ValidateStructural → ValidateDefaults → CEL context), the
 * recursive OpenAPI checks, deferred NewStructural error, CRD-wide CEL cost.
 */
import type { CustomResourceValidation, JSONSchemaProps } from "../crd/types.js";
import { errorString, type FieldError, fieldError, RawJson } from "../errors/field-error.js";
import type { FieldPath } from "../errors/field-path.js";
import { cachedStructural, StructuralError } from "../structural/new-structural.js";
import type { Structural } from "../structural/structural.js";
import { validateStructural } from "../structural/validate-structural.js";
import { costErrorMessage, STATIC_ESTIMATED_CRD_COST_LIMIT, TotalCost } from "./cel-hook.js";
import { type DefaultsHooks, validateDefaults } from "./defaults-validation.js";
import { goSchema } from "./go-marshal.js";
import { type CelContext, type SchemaOptions, validateOpenAPISchema } from "./openapi-schema.js";

/** Go field names of the internal JSONSchemaProps in struct order, with their JSON keys. */
const ROOT_FIELDS: [string, keyof JSONSchemaProps][] = [
  ["ID", "id"], ["Schema", "$schema"], ["Ref", "$ref"], ["Description", "description"], ["Type", "type"], ["Nullable", "nullable"],
  ["Format", "format"], ["Title", "title"], ["Default", "default"], ["Maximum", "maximum"], ["ExclusiveMaximum", "exclusiveMaximum"],
  ["Minimum", "minimum"], ["ExclusiveMinimum", "exclusiveMinimum"], ["MaxLength", "maxLength"], ["MinLength", "minLength"],
  ["Pattern", "pattern"], ["MaxItems", "maxItems"], ["MinItems", "minItems"], ["UniqueItems", "uniqueItems"], ["MultipleOf", "multipleOf"],
  ["Enum", "enum"], ["MaxProperties", "maxProperties"], ["MinProperties", "minProperties"], ["Required", "required"], ["Items", "items"],
  ["AllOf", "allOf"], ["OneOf", "oneOf"], ["AnyOf", "anyOf"], ["Not", "not"], ["Properties", "properties"],
  ["AdditionalProperties", "additionalProperties"], ["PatternProperties", "patternProperties"], ["Dependencies", "dependencies"],
  ["AdditionalItems", "additionalItems"], ["Definitions", "definitions"], ["ExternalDocs", "externalDocs"], ["Example", "example"],
  ["XPreserveUnknownFields", "x-kubernetes-preserve-unknown-fields"], ["XEmbeddedResource", "x-kubernetes-embedded-resource"],
  ["XIntOrString", "x-kubernetes-int-or-string"], ["XListMapKeys", "x-kubernetes-list-map-keys"], ["XListType", "x-kubernetes-list-type"],
  ["XMapType", "x-kubernetes-map-type"], ["XValidations", "x-kubernetes-validations"],
];

const ALLOWED_AT_ROOT = [
  "Description", "Type", "Format", "Title", "Maximum", "ExclusiveMaximum", "Minimum", "ExclusiveMinimum", "MaxLength", "MinLength",
  "Pattern", "MaxItems", "MinItems", "UniqueItems", "MultipleOf", "Required", "Items", "Properties", "ExternalDocs", "Example",
  "XPreserveUnknownFields", "XValidations",
];

export interface CrdSchemaOptions extends SchemaOptions {
  requireStructuralSchema: boolean;
  requirePrunedDefaults: boolean;
  defaultsHooks: DefaultsHooks;
}

function statusRootErrors(schema: JSONSchemaProps, p: FieldPath, out: FieldError[]): void {
  for (const [goName, key] of ROOT_FIELDS) {
    const v = schema[key];
    if (v === undefined) continue; // decoded schemas hold zero values only for Go pointer fields
    if (goName === "Type") {
      if (schema.type !== "object") {
        out.push(fieldError.invalid(p.child("openAPIV3Schema.type"), schema.type ?? "", `only "object" is allowed as the type at the root of the schema if the status subresource is enabled`));
        return;
      }
      continue;
    }
    if (!ALLOWED_AT_ROOT.includes(goName)) {
      out.push(fieldError.invalid(p.child("openAPIV3Schema"), new RawJson(goSchema(schema)), `only [${ALLOWED_AT_ROOT.join(" ")}] fields are allowed at the root of the schema if the status subresource is enabled`));
      return;
    }
  }
}

/** Validates one CustomResourceValidation at `p` (`spec.validation` or `spec.versions[i].schema`). */
export function validateCustomResourceValidation(v: CustomResourceValidation | undefined, statusEnabled: boolean, opts: CrdSchemaOptions, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!v) return errs;
  const schema = v.openAPIV3Schema;
  if (schema) {
    const sp = p.child("openAPIV3Schema");
    if (statusEnabled) statusRootErrors(schema, p, errs);
    if (schema.nullable) errs.push(fieldError.forbidden(p.child("openAPIV3Schema.nullable"), "nullable cannot be true at the root"));
    let cel: CelContext | null = null;
    let structural: Structural | undefined;
    const deferred: FieldError[] = [];
    if (opts.requireStructuralSchema) {
      const ss = cachedStructural(schema);
      if (ss instanceof StructuralError) deferred.push(fieldError.invalid(sp, "", ss.message));
      else {
        structural = ss;
        const se = validateStructural(sp, ss);
        if (se.length > 0) errs.push(...se);
        else {
          const de = validateDefaults(sp, ss, true, opts.requirePrunedDefaults, opts.defaultsHooks, errorString);
          if (de.length > 0) errs.push(...de);
          else cel = { schema, maxCardinality: 1, total: new TotalCost(), isResourceRoot: true };
        }
      }
    }
    errs.push(...validateOpenAPISchema(schema, sp, opts, cel, structural));
    if (errs.length === 0 && deferred.length > 0) errs.push(...deferred);
    if (cel && cel.total.total > STATIC_ESTIMATED_CRD_COST_LIMIT) {
      for (const e of cel.total.mostExpensive) {
        errs.push(fieldError.forbidden(e.path, "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"));
      }
      errs.push(fieldError.forbidden(sp, costErrorMessage("x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema", cel.total.total, STATIC_ESTIMATED_CRD_COST_LIMIT)));
    }
  }
  return errs;
}
