/**
 * ObjectMeta validation with Kubernetes' messages and order (apimachinery `api/validation/objectmeta.go`,
 * `apis/meta/v1/validation`): `ValidateObjectMetaAccessor` (create) and `ValidateObjectMetaAccessorUpdate`.
 * Declarative validation of ObjectMeta is alpha-only at HEAD and never surfaces, so only the handwritten
 * rules apply.
 */
import { type FieldError, RawJson, fieldError } from "../errors/field-error.js";
import type { FieldPath } from "../errors/field-path.js";
import { goQuote } from "../go/fmt.js";
import { goJsonString } from "../go/json.js";
import { type GoTime, formatRFC3339, isZeroTime, timeEqual } from "../go/time.js";
import { type NameValidator, byteLength, isDNS1123Label, isQualifiedName, isValidLabelValue } from "./names.js";
import type { ManagedFieldsEntry, ObjectMeta, OwnerReference } from "./types.js";

/** `TotalAnnotationSizeLimitB` (256 KiB). */
export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;
const FIELD_MANAGER_MAX_LENGTH = 128;
const MAX_SUBRESOURCE_NAME_LENGTH = 256;

/** `ValidateLabels`: keys are qualified names, values label values (errors on `metadata.labels`). */
export function validateLabels(labels: Map<string, string> | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!labels) return errs;
  // forEach and indexed loops: a for-of allocates an iterator (and a result per step) in V8's lower tiers
  labels.forEach((v, k) => {
    const km = isQualifiedName(k);
    for (let i = 0; i < km.length; i++) errs.push(fieldError.invalid(path, k, km[i]!));
    const vm = isValidLabelValue(v);
    for (let i = 0; i < vm.length; i++) errs.push(fieldError.invalid(path, v, vm[i]!));
  });
  return errs;
}

/** `ValidateAnnotations`: keys checked lower-cased; total size (keys + values, bytes) ≤ 256 KiB. */
export function validateAnnotations(annotations: Map<string, string> | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!annotations) return errs;
  let total = 0;
  annotations.forEach((v, k) => {
    const km = isQualifiedName(k.toLowerCase());
    for (let i = 0; i < km.length; i++) errs.push(fieldError.invalid(path, k, km[i]!));
    total += byteLength(k) + byteLength(v);
  });
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT) errs.push(fieldError.tooLong(path, TOTAL_ANNOTATION_SIZE_LIMIT));
  return errs;
}

/** `json.Marshal(metav1.OwnerReference)` (Go struct field order). */
export function ownerReferenceJson(r: OwnerReference): string {
  let s = `{"apiVersion":${goJsonString(r.apiVersion)},"kind":${goJsonString(r.kind)},"name":${goJsonString(r.name)},"uid":${goJsonString(r.uid)}`;
  if (r.controller !== undefined) s += `,"controller":${r.controller}`;
  if (r.blockOwnerDeletion !== undefined) s += `,"blockOwnerDeletion":${r.blockOwnerDeletion}`;
  return s + "}";
}

/** `schema.ParseGroupVersion`: `[group, version]` or null for more than one `/`. */
export function parseGroupVersion(gv: string): [string, string] | null {
  if (gv === "" || gv === "/") return ["", ""];
  const i = gv.indexOf("/");
  if (i < 0) return ["", gv];
  if (gv.indexOf("/", i + 1) >= 0) return null;
  return [gv.slice(0, i), gv.slice(i + 1)];
}

function validateOwnerReference(r: OwnerReference, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const gv = parseGroupVersion(r.apiVersion);
  if (r.apiVersion.length === 0) errs.push(fieldError.required(path.child("apiVersion"), "must not be empty"));
  else if (gv === null || gv[1].length === 0) {
    errs.push(fieldError.invalid(path.child("apiVersion"), r.apiVersion, "must be <group>/<version> or <version>"));
  }
  if (r.kind.length === 0) errs.push(fieldError.required(path.child("kind"), "must not be empty"));
  if (r.name.length === 0) errs.push(fieldError.required(path.child("name"), "must not be empty"));
  if (r.uid.length === 0) errs.push(fieldError.required(path.child("uid"), "must not be empty"));
  const [group, version] = gv ?? ["", ""];
  if (group === "" && version === "v1" && r.kind === "Event") {
    errs.push(
      fieldError.invalid(path, new RawJson(ownerReferenceJson(r)), `${group}/${version}, Kind=${r.kind} is disallowed from being an owner`),
    );
  }
  return errs;
}

/** `ValidateOwnerReferences`: each reference, plus at most one controller. */
export function validateOwnerReferences(refs: OwnerReference[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!refs) return errs;
  let firstController = "";
  refs.forEach((r, i) => {
    errs.push(...validateOwnerReference(r, path.index(i)));
    if (r.controller === true) {
      const cur = `${r.kind}/${r.name}`;
      if (firstController !== "") {
        errs.push(
          fieldError.invalid(
            path,
            new RawJson(`[${refs.map(ownerReferenceJson).join(",")}]`),
            `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${cur}`,
          ),
        );
      } else firstController = cur;
    }
  });
  return errs;
}

/** `ValidateFinalizers`: qualified names; `orphan` and `foregroundDeletion` are exclusive. */
export function validateFinalizers(finalizers: string[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!finalizers) return errs;
  let orphan = false;
  let foreground = false;
  for (const f of finalizers) {
    for (const m of isQualifiedName(f)) errs.push(fieldError.invalid(path, f, m));
    if (f === "orphan") orphan = true;
    if (f === "foregroundDeletion") foreground = true;
  }
  if (orphan && foreground) {
    errs.push(fieldError.invalid(path, [...finalizers], "finalizer orphan and foregroundDeletion cannot be both set"));
  }
  return errs;
}

function isPrint(cp: number): boolean {
  if (cp === 0x20) return true;
  return /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(String.fromCodePoint(cp));
}

/** `ValidateFieldManager`: ≤ 128 bytes, printable characters only. */
export function validateFieldManager(manager: string, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (byteLength(manager) > FIELD_MANAGER_MAX_LENGTH) errs.push(fieldError.tooLong(path, FIELD_MANAGER_MAX_LENGTH));
  let pos = 0;
  for (const ch of manager) {
    let cp = ch.codePointAt(0)!;
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd; // lone surrogate: Go sees U+FFFD (printable)
    if (!isPrint(cp)) {
      const hex = cp.toString(16).toUpperCase().padStart(4, "0");
      errs.push(fieldError.invalid(path, manager, `invalid character U+${hex} (at position ${pos})`));
    }
    pos += byteLength(ch);
  }
  return errs;
}

/** `ValidateManagedFields`. */
export function validateManagedFields(entries: ManagedFieldsEntry[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!entries) return errs;
  entries.forEach((e, i) => {
    const p = path.index(i);
    if (e.operation === "") errs.push(fieldError.required(p.child("operation"), "must not be empty"));
    else if (e.operation !== "Apply" && e.operation !== "Update") {
      errs.push(fieldError.notSupported(p.child("operation"), new RawJson(goJsonString(e.operation)), ["Apply", "Update"]));
    }
    if (e.fieldsType.length > 0 && e.fieldsType !== "FieldsV1") {
      errs.push(fieldError.invalid(p.child("fieldsType"), e.fieldsType, "must be `FieldsV1`"));
    }
    errs.push(...validateFieldManager(e.manager, p.child("manager")));
    if (byteLength(e.subresource) > MAX_SUBRESOURCE_NAME_LENGTH) {
      errs.push(fieldError.tooLong(p.child("subresource"), MAX_SUBRESOURCE_NAME_LENGTH));
    }
  });
  return errs;
}

function nonNegative(v: number | bigint, path: FieldPath): FieldError[] {
  return v < 0 ? [fieldError.invalid(path, v, "must be greater than or equal to 0")] : [];
}

/**
 * `ValidateObjectMetaAccessor(meta, requiresNamespace, nameFn, fldPath)` (create): generateName, name,
 * namespace by scope, generation, labels, annotations, ownerReferences, finalizers, managedFields.
 */
export function validateObjectMeta(
  meta: ObjectMeta,
  requiresNamespace: boolean,
  nameFn: NameValidator,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  if (meta.generateName.length !== 0) {
    for (const m of nameFn(meta.generateName, true)) {
      errs.push(fieldError.invalid(path.child("generateName"), meta.generateName, m));
    }
  }
  if (meta.name.length === 0) errs.push(fieldError.required(path.child("name"), "name or generateName is required"));
  else for (const m of nameFn(meta.name, false)) errs.push(fieldError.invalid(path.child("name"), meta.name, m));
  if (requiresNamespace) {
    if (meta.namespace.length === 0) errs.push(fieldError.required(path.child("namespace"), ""));
    else {
      for (const m of isDNS1123Label(meta.namespace)) {
        errs.push(fieldError.invalid(path.child("namespace"), meta.namespace, m));
      }
    }
  } else if (meta.namespace.length !== 0) {
    errs.push(fieldError.forbidden(path.child("namespace"), "not allowed on this type"));
  }
  errs.push(...nonNegative(meta.generation, path.child("generation")));
  errs.push(...validateLabels(meta.labels, path.child("labels")));
  errs.push(...validateAnnotations(meta.annotations, path.child("annotations")));
  errs.push(...validateOwnerReferences(meta.ownerReferences, path.child("ownerReferences")));
  errs.push(...validateFinalizers(meta.finalizers, path.child("finalizers")));
  errs.push(...validateManagedFields(meta.managedFields, path.child("managedFields")));
  return errs;
}

/** Go `%#v` of a `[]string`: `[]string{"a", "b"}`. */
function goSliceLiteral(items: string[]): string {
  return `[]string{${items.map((s) => goQuote(s)).join(", ")}}`;
}

function timeJson(t: GoTime | undefined): RawJson {
  return new RawJson(t === undefined || isZeroTime(t) ? "null" : `"${formatRFC3339(t)}"`);
}

function optTimeEqual(a: GoTime | undefined, b: GoTime | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return timeEqual(a, b);
}

/**
 * `ValidateObjectMetaAccessorUpdate(newMeta, oldMeta, fldPath)`: no new finalizers while deleting,
 * resourceVersion required, generation not negative nor decremented, immutable name / namespace / uid /
 * creationTimestamp / deletionTimestamp / deletionGracePeriodSeconds, then labels, annotations,
 * ownerReferences and managedFields.
 */
export function validateObjectMetaUpdate(newMeta: ObjectMeta, oldMeta: ObjectMeta, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (oldMeta.deletionTimestamp !== undefined) {
    const old = new Set(oldMeta.finalizers ?? []);
    const extra = [...new Set((newMeta.finalizers ?? []).filter((f) => !old.has(f)))].sort();
    if (extra.length > 0) {
      errs.push(
        fieldError.forbidden(
          path.child("finalizers"),
          `no new finalizers can be added if the object is being deleted, found new finalizers ${goSliceLiteral(extra)}`,
        ),
      );
    }
  }
  if (newMeta.resourceVersion.length === 0) {
    errs.push(fieldError.invalid(path.child("resourceVersion"), newMeta.resourceVersion, "must be specified for an update"));
  }
  errs.push(...nonNegative(newMeta.generation, path.child("generation")));
  if (newMeta.generation < oldMeta.generation) {
    errs.push(fieldError.invalid(path.child("generation"), newMeta.generation, "must not be decremented"));
  }
  const immutable = "field is immutable";
  if (newMeta.name !== oldMeta.name) errs.push(fieldError.invalid(path.child("name"), newMeta.name, immutable));
  if (newMeta.namespace !== oldMeta.namespace) {
    errs.push(fieldError.invalid(path.child("namespace"), newMeta.namespace, immutable));
  }
  if (newMeta.uid !== oldMeta.uid) {
    errs.push(fieldError.invalid(path.child("uid"), new RawJson(goJsonString(newMeta.uid)), immutable));
  }
  if (!timeEqual(newMeta.creationTimestamp, oldMeta.creationTimestamp)) {
    errs.push(fieldError.invalid(path.child("creationTimestamp"), timeJson(newMeta.creationTimestamp), immutable));
  }
  if (!optTimeEqual(newMeta.deletionTimestamp, oldMeta.deletionTimestamp)) {
    errs.push(fieldError.invalid(path.child("deletionTimestamp"), timeJson(newMeta.deletionTimestamp), immutable));
  }
  const ng = newMeta.deletionGracePeriodSeconds;
  const og = oldMeta.deletionGracePeriodSeconds;
  if (ng === undefined || og === undefined ? ng !== og : BigInt(ng) !== BigInt(og)) {
    errs.push(
      fieldError.invalid(path.child("deletionGracePeriodSeconds"), new RawJson(ng === undefined ? "null" : String(ng)), immutable),
    );
  }
  errs.push(...validateLabels(newMeta.labels, path.child("labels")));
  errs.push(...validateAnnotations(newMeta.annotations, path.child("annotations")));
  errs.push(...validateOwnerReferences(newMeta.ownerReferences, path.child("ownerReferences")));
  errs.push(...validateManagedFields(newMeta.managedFields, path.child("managedFields")));
  return errs;
}
