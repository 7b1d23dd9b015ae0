/**
 * ObjectMeta validation of the CRD object itself (apimachinery `ValidateObjectMetaAccessor`, cluster-scoped,
 * name function `NameIsDNSSubdomain` + `must be spec.names.plural+"."+spec.group`): generateName, name,
 * namespace, generation, labels, annotations, finalizers; on update the name is immutable.
 */
import type { ObjectMetaLike } from "../crd/types.js";
import { type FieldError, dedupeErrors, fieldError } from "../errors/field-error.js";
import { FieldPath } from "../errors/field-path.js";
import { validateGenericUpdate } from "../objectmeta/custom-resource.js";
import type { ObjectMeta } from "../objectmeta/types.js";
import { getObjectMeta } from "../objectmeta/get-set.js";
import { isDNS1123Subdomain, isQualifiedName, isValidLabelValue, nameIsDNSSubdomain } from "../objectmeta/names.js";
import { isZeroTime } from "../go/time.js";
import { validateObjectMeta, validateObjectMetaUpdate } from "../objectmeta/validate-meta.js";
import type { JsonObject } from "../value/json-value.js";

function labelsAndAnnotations(meta: ObjectMetaLike, p: FieldPath, out: FieldError[]): void {
  const labels = meta.labels ?? {};
  for (const k of Object.keys(labels)) {
    for (const m of isQualifiedName(k)) out.push(fieldError.invalid(p.child("labels"), k, m));
    for (const m of isValidLabelValue(labels[k]!)) out.push(fieldError.invalid(p.child("labels"), labels[k]!, m));
  }
  const ann = meta.annotations ?? {};
  let total = 0;
  for (const k of Object.keys(ann)) {
    for (const m of isQualifiedName(k.toLowerCase())) out.push(fieldError.invalid(p.child("annotations"), k, m));
    total += new TextEncoder().encode(k).length + new TextEncoder().encode(ann[k]!).length;
  }
  if (total > 256 * 1024) out.push(fieldError.tooLong(p.child("annotations"), 256 * 1024));
}

/**
 * Metadata checks on create: the full ObjectMeta validation of src/objectmeta (labels, annotations, owner
 * references, finalizers, managed fields), falling back to the local checks when the metadata cannot be
 * read as an ObjectMeta.
 */
export function validateCrdMetadataCreate(meta: ObjectMetaLike, requiredName: string): FieldError[] {
  const r = getObjectMeta({ metadata: meta as unknown as JsonObject });
  if (r.meta && r.error === undefined) {
    const m = r.meta;
    // The generic store generates a name (generateName + 5 random characters) before validation; crdkit
    // uses a fixed suffix so results are deterministic.
    if (m.name.length === 0 && m.generateName.length > 0) m.name = `${m.generateName}xxxxx`;
    const nameFn = (name: string, prefix: boolean): string[] => {
      const errs = nameIsDNSSubdomain(name, prefix);
      return name !== requiredName ? [...errs, 'must be spec.names.plural+"."+spec.group'] : errs;
    };
    // ValidateObjectMetaDeclaratively: the list passes through ErrorList.Filter, de-duplicated by text
    return dedupeErrors(validateObjectMeta(m, false, nameFn, FieldPath.of("metadata")));
  }
  return validateCrdMetadataCreateLocal(meta, requiredName);
}

function validateCrdMetadataCreateLocal(meta: ObjectMetaLike, requiredName: string): FieldError[] {
  const p = FieldPath.of("metadata");
  const out: FieldError[] = [];
  const nameFn = (name: string, prefix: boolean): string[] => {
    const n = prefix && name.endsWith("-") ? name.slice(0, -1) + "a" : name;
    const errs = isDNS1123Subdomain(n);
    if (name !== requiredName) errs.push('must be spec.names.plural+"."+spec.group');
    return errs;
  };
  const gen = meta.generateName ?? "";
  if (gen.length > 0) for (const m of nameFn(gen, true)) out.push(fieldError.invalid(p.child("generateName"), gen, m));
  // The generic store generates a name (generateName + 5 random characters) before validation; crdkit uses
  // a fixed suffix so results are deterministic.
  const name = meta.name || (gen.length > 0 ? `${gen}xxxxx` : "");
  if (name.length === 0) out.push(fieldError.required(p.child("name"), "name or generateName is required"));
  else for (const m of nameFn(name, false)) out.push(fieldError.invalid(p.child("name"), name, m));
  if (meta.namespace) out.push(fieldError.forbidden(p.child("namespace"), "not allowed on this type"));
  if (typeof meta.generation === "number" && meta.generation < 0) {
    out.push(fieldError.invalid(p.child("generation"), meta.generation, "must be greater than or equal to 0"));
  }
  labelsAndAnnotations(meta, p, out);
  return out;
}

/** Both ObjectMetas as the generic registry's `BeforeUpdate` leaves them, or undefined when unreadable. */
function preparedForUpdate(meta: ObjectMetaLike, old: ObjectMetaLike): { meta: ObjectMeta; old: ObjectMeta } | undefined {
  const n = getObjectMeta({ metadata: meta as unknown as JsonObject });
  const o = getObjectMeta({ metadata: old as unknown as JsonObject });
  if (!n.meta || !o.meta || n.error !== undefined || o.error !== undefined) return undefined;
  const m = n.meta;
  const om = o.meta;
  m.generation = om.generation;
  if (m.uid.length === 0) m.uid = om.uid;
  if (!isZeroTime(om.creationTimestamp)) m.creationTimestamp = om.creationTimestamp;
  if (om.deletionTimestamp !== undefined) m.deletionTimestamp = om.deletionTimestamp;
  if (om.deletionGracePeriodSeconds !== undefined) m.deletionGracePeriodSeconds = om.deletionGracePeriodSeconds;
  if (m.resourceVersion.length === 0) m.resourceVersion = om.resourceVersion.length > 0 ? om.resourceVersion : "1";
  return { meta: m, old: om };
}

/**
 * The generic registry's `rest.validateCommonFields` on a CRD update (before the strategy's checks):
 * `ValidateObjectMetaAccessor` (cluster-scoped, path-segment names) and `ValidateObjectMetaAccessorUpdate`.
 * Problems the strategy reports as well (e.g. `metadata.name` immutability) therefore appear twice.
 */
export function validateCrdGenericUpdate(meta: ObjectMetaLike, old: ObjectMetaLike): FieldError[] {
  const prepared = preparedForUpdate(meta, old);
  return prepared ? validateGenericUpdate(prepared.meta, prepared.old, false) : [];
}

/**
 * Metadata checks on update (`ValidateObjectMetaAccessorUpdate` of src/objectmeta) after the generic
 * registry's `BeforeUpdate`: generation, uid, creationTimestamp and deletion fields come from the stored
 * object, and the resourceVersion too when the request has none (CRDs allow unconditional updates).
 */
export function validateCrdMetadataUpdate(meta: ObjectMetaLike, old: ObjectMetaLike): FieldError[] {
  const prepared = preparedForUpdate(meta, old);
  if (prepared) return dedupeErrors(validateObjectMetaUpdate(prepared.meta, prepared.old, FieldPath.of("metadata")));
  const p = FieldPath.of("metadata");
  const out: FieldError[] = [];
  if (meta.namespace) out.push(fieldError.forbidden(p.child("namespace"), "not allowed on this type"));
  labelsAndAnnotations(meta, p, out);
  if ((meta.name ?? "") !== (old.name ?? "")) out.push(fieldError.invalid(p.child("name"), meta.name ?? "", "field is immutable"));
  return out;
}
