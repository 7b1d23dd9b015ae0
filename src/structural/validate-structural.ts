/**
 * `ValidateStructural` (`pkg/apiserver/schema/validation.go` + `complete.go`): the structural-schema
 * invariants, the metadata restrictions and the completeness check, all errors sorted by their text.
 * CRDs use the strict options (no nested additionalProperties / x-kubernetes-validations).
 */
import { type FieldError, fieldError } from "../errors/field-error.js";
import type { FieldPath } from "../errors/field-path.js";
import { childOf, pathString } from "../errors/field-path.js";
import { compareGoStrings } from "../go/fmt.js";
import { errorString } from "../errors/field-error.js";
import { compileGoRegexp } from "../go/regexp.js";
import { sortedMapKeys } from "./new-structural.js";
import type { NestedValueValidation, Structural, ValueValidation } from "./structural.js";

type Level = "root" | "item" | "field";

/** Options of `ValidateStructuralWithOptions` (all false for CRDs). */
export interface StructuralValidationOptions {
  allowNestedAdditionalProperties?: boolean;
  allowNestedXValidations?: boolean;
  allowValidationPropertiesWithAdditionalProperties?: boolean;
}


const NO_KEYS: string[] = [];

function sortedPropKeys(m: Map<string, unknown> | undefined): string[] {
  return m ? sortedMapKeys(m) : NO_KEYS;
}

function isTypeOnly(n: NestedValueValidation, type: string): boolean {
  const vv = n.valueValidation;
  const g = n.forbiddenGenerics;
  const x = n.forbiddenExtensions;
  return (
    g.type === type && !g.description && !g.title && !g.nullable && !g.hasDefault && Object.keys(vv).length === 0 &&
    Object.keys(x).length === 0 && n.items === undefined && n.properties === undefined && n.additionalProperties === undefined &&
    n.xValidations === undefined && n.raw.externalDocs === undefined && n.raw.example === undefined
  );
}

/** anyOf is exactly `[{type: integer}, {type: string}]`. */
export function isIntOrStringAnyOf(anyOf: NestedValueValidation[] | undefined): boolean {
  return anyOf !== undefined && anyOf.length === 2 && isTypeOnly(anyOf[0]!, "integer") && isTypeOnly(anyOf[1]!, "string");
}

/** `isIntOrStringAnyOfPattern`. */
export function isIntOrStringAnyOfPattern(s: Structural): boolean {
  return isIntOrStringAnyOf(s.valueValidation?.anyOf);
}

/** `isIntOrStringAllOfPattern`. */
export function isIntOrStringAllOfPattern(s: Structural): boolean {
  const allOf = s.valueValidation?.allOf;
  return allOf !== undefined && allOf.length >= 1 && isIntOrStringAnyOf(allOf[0]!.valueValidation.anyOf);
}

function validateInvariants(s: Structural, lvl: Level, p: FieldPath | null, o: StructuralValidationOptions, out: FieldError[]): void {
  if (s.type === "array" && !s.items) out.push(fieldError.required(childOf(p, "items"), "must be specified"));
  if (s.items) validateInvariants(s.items, "item", childOf(p, "items"), o, out);
  if (s.properties && s.properties.size > 0) {
    const pp = childOf(p, "properties");
    for (const k of sortedPropKeys(s.properties)) validateInvariants(s.properties.get(k)!, "field", pp.key(k), o, out);
  }
  if (s.additionalProperties) {
    if (lvl === "root") out.push(fieldError.forbidden(childOf(p, "additionalProperties"), "must not be used at the root"));
    if (s.additionalProperties.schema) validateInvariants(s.additionalProperties.schema, "field", childOf(p, "additionalProperties"), o, out);
  }
  if (s.xIntOrString && s.xPreserveUnknownFields) {
    out.push(fieldError.invalid(childOf(p, "x-kubernetes-preserve-unknown-fields"), true, "must be false if x-kubernetes-int-or-string is true"));
  }
  if (s.xIntOrString && s.xEmbeddedResource) {
    out.push(fieldError.invalid(childOf(p, "x-kubernetes-embedded-resource"), true, "must be false if x-kubernetes-int-or-string is true"));
  }
  validateValueValidation(s.valueValidation, isIntOrStringAnyOfPattern(s), isIntOrStringAllOfPattern(s), lvl, p, o, out);
  const checkMetadata = lvl === "root" || s.xEmbeddedResource;
  if (s.xEmbeddedResource && s.type !== "object") {
    if (s.type === "") out.push(fieldError.required(childOf(p, "type"), "must be object if x-kubernetes-embedded-resource is true"));
    else out.push(fieldError.invalid(childOf(p, "type"), s.type, "must be object if x-kubernetes-embedded-resource is true"));
  } else if (s.type === "" && !s.xIntOrString && !s.xPreserveUnknownFields) {
    const detail = lvl === "root" ? "must not be empty at the root" : lvl === "item" ? "must not be empty for specified array items" : "must not be empty for specified object fields";
    out.push(fieldError.required(childOf(p, "type"), detail));
  }
  if (s.xEmbeddedResource && s.additionalProperties) {
    out.push(fieldError.forbidden(childOf(p, "additionalProperties"), "must not be used if x-kubernetes-embedded-resource is set"));
  }
  if (lvl === "root" && s.type !== "" && s.type !== "object") out.push(fieldError.invalid(childOf(p, "type"), s.type, "must be object at the root"));
  const kind = s.properties?.get("kind");
  if (kind && checkMetadata && kind.type !== "string") out.push(fieldError.invalid(childOf(p, "properties").key("kind").child("type"), kind.type, "must be string"));
  const apiVersion = s.properties?.get("apiVersion");
  if (apiVersion && checkMetadata && apiVersion.type !== "string") {
    out.push(fieldError.invalid(childOf(p, "properties").key("apiVersion").child("type"), apiVersion.type, "must be string"));
  }
  const metadata = s.properties?.get("metadata");
  if (metadata) validateMetadata(metadata, checkMetadata, lvl, childOf(p, "properties").key("metadata"), out);
  if (s.xEmbeddedResource && !s.xPreserveUnknownFields && (!s.properties || s.properties.size === 0)) {
    out.push(fieldError.required(childOf(p, "properties"), "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"));
  }
}

/** True when a value validation is the zero `ValueValidation{}` (nil slices, nil pointers). */
function isZeroValueValidation(v: ValueValidation | undefined): boolean {
  return v === undefined || Object.keys(v).length === 0;
}

function validateMetadata(s: Structural, checkMetadata: boolean, lvl: Level, p: FieldPath, out: FieldError[]): void {
  if (checkMetadata && s.type !== "object") out.push(fieldError.invalid(p.child("type"), s.type, "must be object"));
  if (lvl !== "root") return;
  let props = s.properties;
  const hasName = props?.has("name") ?? false;
  const hasGenerateName = props?.has("generateName") ?? false;
  if ((hasName && hasGenerateName && props!.size === 2) || ((hasName || hasGenerateName) && props!.size === 1)) props = undefined;
  const clean =
    props === undefined && s.items === undefined && s.additionalProperties === undefined && !s.description && !s.title && !s.nullable &&
    s.externalDocs === undefined && s.example === undefined && !s.xPreserveUnknownFields && !s.xEmbeddedResource && !s.xIntOrString &&
    s.xListMapKeys === undefined && s.xListType === undefined && s.xMapType === undefined && s.xValidations === undefined &&
    isZeroValueValidation(s.valueValidation);
  if (!clean) {
    out.push(fieldError.forbidden(p, "must not specify anything other than name and generateName, but metadata is implicitly specified"));
  }
}

function validateValueValidation(
  v: ValueValidation | undefined, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, lvl: Level, p: FieldPath | null,
  o: StructuralValidationOptions, out: FieldError[],
): void {
  if (!v) return;
  if (v.anyOf === undefined && v.allOf === undefined && v.oneOf === undefined && v.not === undefined && v.pattern === undefined) return;
  const noCel = { ...o, allowNestedXValidations: false };
  if (!skipAnyOf) v.anyOf?.forEach((n, i) => {
    validateNested(n, false, lvl, childOf(p, "anyOf").index(i), noCel, out);
  });
  v.allOf?.forEach((n, i) => {
    validateNested(n, skipFirstAllOfAnyOf && i === 0, lvl, childOf(p, "allOf").index(i), o, out);
  });
  v.oneOf?.forEach((n, i) => {
    validateNested(n, false, lvl, childOf(p, "oneOf").index(i), noCel, out);
  });
  if (v.not) validateNested(v.not, false, lvl, childOf(p, "not"), noCel, out);
  if (v.pattern !== undefined && v.pattern.length > 0) {
    const err = compileGoRegexp(v.pattern).error;
    if (err !== undefined) out.push(fieldError.invalid(childOf(p, "pattern"), v.pattern, `must be a valid regular expression, but isn't: ${err}`));
  }
}

function validateNested(v: NestedValueValidation, skipAnyOf: boolean, lvl: Level, p: FieldPath, o: StructuralValidationOptions, out: FieldError[]): void {
  validateValueValidation(v.valueValidation, skipAnyOf, false, lvl, p, o, out);
  if (v.items) validateNested(v.items, false, lvl, p.child("items"), o, out);
  for (const k of sortedPropKeys(v.properties)) validateNested(v.properties!.get(k)!, false, "field", p.child("properties").key(k), o, out);
  const g = v.forbiddenGenerics;
  const x = v.forbiddenExtensions;
  if (g.type) out.push(fieldError.forbidden(p.child("type"), "must be empty to be structural"));
  if (v.additionalProperties && !o.allowNestedAdditionalProperties) {
    out.push(fieldError.forbidden(p.child("additionalProperties"), "must be undefined to be structural"));
  } else if (v.additionalProperties) {
    validateNested(v.additionalProperties, false, lvl, p.child("additionalProperties"), o, out);
  }
  if (g.hasDefault) out.push(fieldError.forbidden(p.child("default"), "must be undefined to be structural"));
  if (g.title) out.push(fieldError.forbidden(p.child("title"), "must be empty to be structural"));
  if (g.description) out.push(fieldError.forbidden(p.child("description"), "must be empty to be structural"));
  if (g.nullable) out.push(fieldError.forbidden(p.child("nullable"), "must be false to be structural"));
  if (x.xPreserveUnknownFields) out.push(fieldError.forbidden(p.child("x-kubernetes-preserve-unknown-fields"), "must be false to be structural"));
  if (x.xEmbeddedResource) out.push(fieldError.forbidden(p.child("x-kubernetes-embedded-resource"), "must be false to be structural"));
  if (x.xIntOrString) out.push(fieldError.forbidden(p.child("x-kubernetes-int-or-string"), "must be false to be structural"));
  if (x.xListMapKeys && x.xListMapKeys.length > 0) out.push(fieldError.forbidden(p.child("x-kubernetes-list-map-keys"), "must be empty to be structural"));
  if (x.xListType !== undefined) out.push(fieldError.forbidden(p.child("x-kubernetes-list-type"), "must be undefined to be structural"));
  if (x.xMapType !== undefined) out.push(fieldError.forbidden(p.child("x-kubernetes-map-type"), "must be undefined to be structural"));
  if (v.xValidations && v.xValidations.length > 0 && !o.allowNestedXValidations) {
    out.push(fieldError.forbidden(p.child("x-kubernetes-validations"), "must be empty to be structural"));
  }
  if (v.properties?.has("metadata")) out.push(fieldError.forbidden(p.child("properties").key("metadata"), "must not be specified in a nested context"));
}

// ---- completeness (complete.go) ----

function requiredBecause(sPath: FieldPath | null, vPath: FieldPath | null): FieldError {
  return fieldError.required(sPath, `because it is defined in ${pathString(vPath)}`);
}

function completeValue(v: ValueValidation | undefined, s: Structural | undefined, sPath: FieldPath | null, vPath: FieldPath | null, o: StructuralValidationOptions, out: FieldError[]): void {
  if (!v) return;
  if (!s) {
    out.push(requiredBecause(sPath, vPath));
    return;
  }
  if (v.not) completeNested(v.not, s, sPath, childOf(vPath, "not"), o, out);
  v.allOf?.forEach((n, i) => {
    completeNested(n, s, sPath, childOf(vPath, "allOf").index(i), o, out);
  });
  v.anyOf?.forEach((n, i) => {
    completeNested(n, s, sPath, childOf(vPath, "anyOf").index(i), o, out);
  });
  v.oneOf?.forEach((n, i) => {
    completeNested(n, s, sPath, childOf(vPath, "oneOf").index(i), o, out);
  });
}

function completeNested(v: NestedValueValidation | undefined, s: Structural | undefined, sPath: FieldPath | null, vPath: FieldPath | null, o: StructuralValidationOptions, out: FieldError[]): void {
  if (!v) return;
  if (!s) {
    out.push(requiredBecause(sPath, vPath));
    return;
  }
  completeValue(v.valueValidation, s, sPath, vPath, o, out);
  completeNested(v.items, s.items, childOf(sPath, "items"), childOf(vPath, "items"), o, out);
  const apSchema = s.additionalProperties?.schema;
  for (const k of sortedPropKeys(v.properties)) {
    const vf = v.properties!.get(k)!;
    const sf = s.properties?.get(k);
    if (!sf) {
      if (!apSchema || !o.allowValidationPropertiesWithAdditionalProperties) {
        out.push(requiredBecause(childOf(sPath, "properties").key(k), childOf(vPath, "properties").key(k)));
      } else {
        completeNested(vf, apSchema, childOf(sPath, "additionalProperties"), childOf(vPath, "properties").key(k), o, out);
      }
    } else {
      completeNested(vf, sf, childOf(sPath, "properties").key(k), childOf(vPath, "properties").key(k), o, out);
    }
  }
  if (v.additionalProperties && o.allowNestedAdditionalProperties) {
    completeNested(v.additionalProperties, apSchema, childOf(sPath, "additionalProperties"), childOf(vPath, "additionalProperties"), o, out);
  }
}

/**
 * `ValidateStructural(fldPath, s)` / `ValidateStructuralWithOptions`: invariants + completeness, sorted by
 * error text (Go `sort.Slice` on `Error()`).
 */
export function validateStructural(path: FieldPath | null, s: Structural, opts: StructuralValidationOptions = {}): FieldError[] {
  const out: FieldError[] = [];
  validateInvariants(s, "root", path, opts, out);
  completeValue(s.valueValidation, s, path, path, opts, out);
  const keyed = out.map((e) => ({ e, t: errorString(e) }));
  keyed.sort((a, b) => compareGoStrings(a.t, b.t));
  return keyed.map((k) => k.e);
}
