/**
 * CRD create and update validation as the API server runs it (`ValidateCustomResourceDefinition`,
 * `ValidateCustomResourceDefinitionUpdate`, strategy `PrepareForCreate/Update` and warnings), from a
 * parsed YAML/JSON value.
 */
import { type CrdDecodeFailure, type DecodedCrd, decodeCrd } from "../crd/decode-crd.js";
import { type InternalCrd, isConditionTrue, schemaForVersion } from "../crd/internal.js";
import { semanticEqual } from "../crd/semantic-equal.js";
import { errorString, type FieldError, fieldError } from "../errors/field-error.js";
import { FieldPath } from "../errors/field-path.js";
import { newStructural, StructuralError } from "../structural/new-structural.js";
import { validateStructural } from "../structural/validate-structural.js";
import type { JsonValue } from "../value/json-value.js";
import type { CelCompiler } from "./cel-hook.js";
import { type DefaultsHooks, validateDefaults } from "./defaults-validation.js";
import { validateCrdGenericUpdate, validateCrdMetadataCreate, validateCrdMetadataUpdate } from "./metadata.js";
import { validateMapListKeysMapSet } from "./openapi-schema.js";
import { schemaHas } from "./schema-walk.js";
import { MAX_SELECTABLE_FIELDS, type SpecOptions, specSchemas, validateNames, validateSpec } from "./spec.js";
import { warningsOnCreate, warningsOnUpdate } from "./warnings.js";
import { validateCABundle } from "./webhook.js";
import type { JSONSchemaProps } from "../crd/types.js";
import type { InternalSpec } from "../crd/internal.js";

export interface CrdValidationOptions {
  /** CEL rule compiler (x-kubernetes-validations); without it rules are not compiled. */
  celCompiler?: CelCompiler;
  /** Steps of default-value validation (ObjectMeta, OpenAPI value validation, CEL); missing steps are skipped. */
  defaultsHooks?: DefaultsHooks;
}

export interface CrdValidationResult {
  /** Field errors in Kubernetes' order (HTTP 422 when non-empty). */
  errors: FieldError[];
  /** Warning texts (only when the CRD is accepted, as the API server sends them). */
  warnings: string[];
  /** A decode failure (not a CRD, unsupported apiVersion, wrong JSON type): HTTP 400 text; `errors` is empty. */
  decodeError?: string;
  decodeReason?: CrdDecodeFailure["reason"];
  /** Strict-decoding unknown field paths (kubectl's default field validation rejects them). */
  unknownFields: string[];
  /** The decoded CRD (when decoding succeeded), as it would be stored (status prepared). */
  crd?: DecodedCrd;
}

function decode(input: JsonValue | DecodedCrd): DecodedCrd | CrdDecodeFailure {
  if (typeof input === "object" && input !== null && "ok" in input && (input as { ok: unknown }).ok === true && "internal" in input) {
    return input as DecodedCrd;
  }
  return decodeCrd(input as JsonValue);
}

function failure(d: CrdDecodeFailure): CrdValidationResult {
  return { errors: [], warnings: [], decodeError: d.message, decodeReason: d.reason, unknownFields: [] };
}

function isProtectedGroup(g: string): boolean {
  return g === "k8s.io" || g.endsWith(".k8s.io") || g === "kubernetes.io" || g.endsWith(".kubernetes.io");
}

const APPROVAL = "api-approved.kubernetes.io";

function approvalState(ann: Record<string, string> | undefined): { state: "missing" | "bypassed" | "approved" | "invalid"; reason: string } {
  const a = ann && Object.hasOwn(ann, APPROVAL) ? ann[APPROVAL]! : "";
  if (a.length === 0) return { state: "missing", reason: `protected groups must have approval annotation "${APPROVAL}", see https://github.com/kubernetes/enhancements/pull/1111` };
  if (a.startsWith("unapproved")) return { state: "bypassed", reason: "" };
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)/.exec(a);
  if (m && m[2]!.replace(/^[^@]*@/, "").length > 0 && !/[\s\x00-\x1f]/.test(a)) return { state: "approved", reason: "" };
  return {
    state: "invalid",
    reason: `protected groups must have approval annotation "${APPROVAL}" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`,
  };
}

function validateAPIApproval(crd: InternalCrd, old: InternalCrd | undefined): FieldError[] {
  if (!isProtectedGroup(crd.spec.group)) return [];
  const next = approvalState(crd.metadata.annotations);
  if (old && approvalState(old.metadata.annotations).state === next.state) return [];
  const p = FieldPath.of("metadata", "annotations").key(APPROVAL);
  const value = crd.metadata.annotations?.[APPROVAL] ?? "";
  if (next.state === "missing") return [fieldError.required(p, next.reason)];
  if (next.state === "invalid") return [fieldError.invalid(p, value, next.reason)];
  return [];
}

function validatePreserveUnknownFields(crd: InternalCrd, old: InternalCrd | undefined): FieldError[] {
  if (old?.spec.preserveUnknownFields === true) return [];
  if (crd.spec.preserveUnknownFields === true) {
    return [fieldError.invalid(FieldPath.of("spec").child("preserveUnknownFields"), true, "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead")];
  }
  return [];
}

/** `ValidateCustomResourceDefinitionStoredVersions` (the map of leftovers is visited in index order). */
function validateStoredVersions(stored: string[], crd: InternalCrd): FieldError[] {
  const p = FieldPath.of("status").child("storedVersions");
  // An empty list is Go's nil slice here (PrepareForCreate resets the status): json.Marshal gives null.
  if (stored.length === 0) return [fieldError.invalid(p, null, "must have at least one stored version")];
  const errs: FieldError[] = [];
  const map = new Map<string, number>();
  stored.forEach((v, i) => {
    map.set(v, i);
  });
  for (const v of crd.spec.versions) {
    const ok = map.has(v.name);
    if (v.storage && !ok) errs.push(fieldError.invalid(p, stored, "must have the storage version " + v.name));
    if (ok) map.delete(v.name);
  }
  for (const [v, i] of [...map.entries()].sort((a, b) => a[1] - b[1])) {
    errs.push(fieldError.invalid(p.index(i), v, `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`));
  }
  return errs;
}

function baseOptions(opts: CrdValidationOptions): SpecOptions {
  return {
    allowDefaults: true,
    requireRecognizedConversionReviewVersion: true,
    requireImmutableNames: false,
    requireOpenAPISchema: true,
    requireValidPropertyType: true,
    requireStructuralSchema: true,
    requirePrunedDefaults: true,
    requireAtomicSetType: true,
    requireMapListKeysMapSetValidation: true,
    allowInvalidCABundle: true,
    suppressPerExpressionCost: false,
    preexistingRules: new Set(),
    preexistingMessageExpressions: new Set(),
    versionsWithUnchangedSchemas: new Set(),
    allowTooManySelectableFields: new Set(),
    celCompiler: opts.celCompiler,
    defaultsHooks: opts.defaultsHooks ?? {},
  };
}

function firstStorage(crd: InternalCrd): string | undefined {
  return crd.spec.versions.find((v) => v.storage)?.name;
}

/** Validates a CRD creation (POST). */
export function validateCrdCreate(input: JsonValue | DecodedCrd, opts: CrdValidationOptions = {}): CrdValidationResult {
  let d: DecodedCrd | CrdDecodeFailure;
  try {
    d = decode(input);
    if (!d.ok) return failure(d);
    return runCreate(d, opts);
  } catch (e) {
    return overflow(e);
  }
}

function overflow(e: unknown): CrdValidationResult {
  if (e instanceof RangeError) {
    return { errors: [], warnings: [], decodeError: "the CustomResourceDefinition is too deeply nested to be validated", decodeReason: "decode", unknownFields: [] };
  }
  throw e;
}

function runCreate(d: DecodedCrd, opts: CrdValidationOptions): CrdValidationResult {
  const crd = d.internal;
  // PrepareForCreate: status reset, storage version recorded.
  const storage = firstStorage(crd);
  crd.status = { conditions: [], acceptedNames: { plural: "", kind: "" }, storedVersions: storage !== undefined ? [storage] : [] };
  const errors = validateInternalCreate(crd, opts);
  return { errors, warnings: errors.length === 0 ? warningsOnCreate(crd.spec) : [], unknownFields: d.unknownFields, crd: d };
}

/**
 * `ValidateCustomResourceDefinition(ctx, crd)` on an internal object as given (no strategy preparation:
 * the status is validated as it is).
 */
export function validateInternalCreate(crd: InternalCrd, opts: CrdValidationOptions = {}): FieldError[] {
  const o = baseOptions(opts);
  const required = `${crd.spec.names.plural}.${crd.spec.group}`;
  return [
    ...validateCrdMetadataCreate(crd.metadata, required),
    ...validateSpec(crd.spec, o, FieldPath.of("spec")),
    ...validateNames(crd.status.acceptedNames, FieldPath.of("status").child("acceptedNames")),
    ...validateStoredVersions(crd.status.storedVersions, crd),
    ...validateAPIApproval(crd, undefined),
    ...validatePreserveUnknownFields(crd, undefined),
  ];
}

function schemaIsNonStructural(s: JSONSchemaProps): boolean {
  const ss = newStructural(s);
  if (ss instanceof StructuralError) return true;
  return validateStructural(null, ss).length > 0;
}

function schemaHasUnprunedDefaults(s: JSONSchemaProps): boolean {
  if (!schemaHas(s, (n) => n.default !== undefined)) return false;
  const ss = newStructural(s);
  if (ss instanceof StructuralError || validateStructural(null, ss).length > 0) return false;
  return validateDefaults(FieldPath.of(""), ss, true, true, {}, errorString).some((e) => e.detail === "must not have unknown fields");
}

function hasNonAtomicSetType(s: JSONSchemaProps): boolean {
  return schemaHas(s, (n) => {
    const items = n.items;
    if (n["x-kubernetes-list-type"] !== "set" || items === undefined || Array.isArray(items)) return false;
    if (items.type === "array") return items["x-kubernetes-list-type"] !== undefined && items["x-kubernetes-list-type"] !== "atomic";
    if (items.type === "object") return items["x-kubernetes-map-type"] !== "atomic";
    return false;
  });
}

const OPENAPI_V3_TYPES = new Set(["string", "number", "integer", "boolean", "array", "object"]);

function collectExpressions(spec: InternalSpec): { rules: Set<string>; messageExpressions: Set<string> } {
  const rules = new Set<string>();
  const messageExpressions = new Set<string>();
  for (const s of specSchemas(spec)) {
    schemaHas(s, (n) => {
      for (const r of n["x-kubernetes-validations"] ?? []) {
        rules.add(r.rule);
        if (r.messageExpression) messageExpressions.add(r.messageExpression);
      }
      return false;
    });
  }
  return { rules, messageExpressions };
}

function caBundleInvalid(old: InternalCrd): boolean {
  const ca = old.spec.conversion?.webhookClientConfig?.caBundle;
  if (!ca) return false;
  return validateCABundle(FieldPath.of("caBundle"), ca).length > 0;
}

/** Options derived from the old CRD (ratcheting of CRD rules). */
function updateOptions(crd: InternalCrd, old: InternalCrd, opts: CrdValidationOptions): SpecOptions {
  const o = baseOptions(opts);
  const oldSchemas = specSchemas(old.spec);
  const oldReview = old.spec.conversion?.conversionReviewVersions ?? [];
  o.requireRecognizedConversionReviewVersion = !old.spec.conversion || oldReview.length === 0 || oldReview.some((v) => v === "v1" || v === "v1beta1");
  o.requireImmutableNames = isConditionTrue(old, "Established");
  o.requireOpenAPISchema = !!old.spec.validation?.openAPIV3Schema || old.spec.versions.every((v) => !!v.schema?.openAPIV3Schema);
  o.requireValidPropertyType = !oldSchemas.some((s) => schemaHas(s, (n) => !!n.type && !OPENAPI_V3_TYPES.has(n.type)));
  o.requireStructuralSchema = !oldSchemas.some(schemaIsNonStructural);
  o.requirePrunedDefaults = !oldSchemas.some(schemaHasUnprunedDefaults);
  o.requireAtomicSetType = !oldSchemas.some(hasNonAtomicSetType);
  o.requireMapListKeysMapSetValidation = !oldSchemas.some((s) =>
    schemaHas(s, (n) => {
      const out: FieldError[] = [];
      validateMapListKeysMapSet(n, null, out);
      return out.length > 0;
    }),
  );
  const pre = collectExpressions(old.spec);
  o.preexistingRules = pre.rules;
  o.preexistingMessageExpressions = pre.messageExpressions;
  const unchanged = new Set<string>();
  for (const v of crd.spec.versions) {
    const ns = schemaForVersion(crd, v.name);
    const os = schemaForVersion(old, v.name);
    if (semanticEqual(ns as JsonValue | undefined, os as JsonValue | undefined)) unchanged.add(v.name);
  }
  o.versionsWithUnchangedSchemas = unchanged;
  o.allowInvalidCABundle = !isConditionTrue(old, "Established") || caBundleInvalid(old);
  const tooMany = new Set<string>();
  if ((old.spec.selectableFields ?? []).length > MAX_SELECTABLE_FIELDS && semanticEqual(crd.spec.selectableFields as JsonValue | undefined, old.spec.selectableFields as JsonValue | undefined)) {
    tooMany.add("");
  }
  for (const v of crd.spec.versions) {
    const ov = old.spec.versions.find((x) => x.name === v.name);
    if (ov && (ov.selectableFields ?? []).length > MAX_SELECTABLE_FIELDS && semanticEqual(v.selectableFields as JsonValue | undefined, ov.selectableFields as JsonValue | undefined)) {
      tooMany.add(v.name);
    }
  }
  o.allowTooManySelectableFields = tooMany;
  return o;
}

function immutable(p: FieldPath, next: string, prev: string): FieldError[] {
  return next === prev ? [] : [fieldError.invalid(p, next, "field is immutable")];
}

/** Validates a CRD update (PUT) of `oldInput` (the stored CRD) to `newInput`. */
export function validateCrdUpdate(newInput: JsonValue | DecodedCrd, oldInput: JsonValue | DecodedCrd, opts: CrdValidationOptions = {}): CrdValidationResult {
  try {
    const d = decode(newInput);
    if (!d.ok) return failure(d);
    const od = decode(oldInput);
    if (!od.ok) return failure({ ...od, message: `old object: ${od.message}` });
    return runUpdate(d, od, opts);
  } catch (e) {
    return overflow(e);
  }
}

function runUpdate(d: DecodedCrd, od: DecodedCrd, opts: CrdValidationOptions): CrdValidationResult {
  const crd = d.internal;
  const old = od.internal;
  // PrepareForUpdate: status from the old object, new storage version recorded.
  const stored = [...old.status.storedVersions];
  const storage = firstStorage(crd);
  if (storage !== undefined && !stored.includes(storage)) stored.push(storage);
  crd.status = { conditions: old.status.conditions, acceptedNames: old.status.acceptedNames, storedVersions: stored };
  const errors = [...validateCrdGenericUpdate(crd.metadata, old.metadata), ...validateInternalUpdate(crd, old, opts)];
  return { errors, warnings: errors.length === 0 ? warningsOnUpdate(crd.spec, old.spec) : [], unknownFields: d.unknownFields, crd: d };
}

/** `ValidateCustomResourceDefinitionUpdate(ctx, crd, old)` on internal objects as given. */
export function validateInternalUpdate(crd: InternalCrd, old: InternalCrd, opts: CrdValidationOptions = {}): FieldError[] {
  const o = updateOptions(crd, old, opts);
  const sp = FieldPath.of("spec");
  const specErrs = validateSpec(crd.spec, o, sp);
  if (o.requireImmutableNames) {
    specErrs.push(...immutable(sp.child("scope"), crd.spec.scope, old.spec.scope));
    specErrs.push(...immutable(sp.child("names", "kind"), crd.spec.names.kind, old.spec.names.kind));
  }
  specErrs.push(...immutable(sp.child("group"), crd.spec.group, old.spec.group));
  specErrs.push(...immutable(sp.child("names", "plural"), crd.spec.names.plural, old.spec.names.plural));
  return [
    ...validateCrdMetadataUpdate(crd.metadata, old.metadata),
    ...specErrs,
    ...validateNames(crd.status.acceptedNames, FieldPath.of("status").child("acceptedNames")),
    ...validateStoredVersions(crd.status.storedVersions, crd),
    ...validateAPIApproval(crd, old),
    ...validatePreserveUnknownFields(crd, old),
  ];
}
