/**
 * The metadata checks the custom-resource REST layer runs (apiextensions `registry/customresource`
 * validator + strategy, apiserver `registry/rest` create.go / update.go), as separate steps so the
 * pipeline can order them as Kubernetes does:
 *
 * - create: strategy `Validate` step 1 → {@link validateCustomResourceMetadata}; step 2 embedded
 *   resources (`validateEmbedded`); … and, only when the strategy found nothing,
 *   {@link validateGenericCreate} (path-segment name rules);
 * - update: {@link validateGenericUpdate} first (always), then the strategy's
 *   {@link validateCustomResourceMetadataUpdate};
 * - warnings: {@link finalizerWarnings} for newly added finalizers.
 */
import { type FieldError, dedupeErrors, fieldError } from "../errors/field-error.js";
import { FieldPath } from "../errors/field-path.js";
import { compareGoStrings, goQuote } from "../go/fmt.js";
import { type JsonObject, isObject } from "../value/json-value.js";
import { emptyObjectMeta, unmarshalObjectMeta } from "./go-decode.js";
import { goTypeName } from "./get-set.js";
import { isQualifiedName, nameIsDNSSubdomain, validatePathSegment } from "./names.js";
import type { ObjectMeta } from "./types.js";
import { validateObjectMeta, validateObjectMetaUpdate } from "./validate-meta.js";

const METADATA = FieldPath.of("metadata");

/** Result of reading an object's metadata for validation (`getObjectMeta` of validator.go). */
export type MetaOrErrors = { meta: ObjectMeta; errors?: undefined } | { meta?: undefined; errors: FieldError[] };

/**
 * The validator's `getObjectMeta(obj)`: missing/null metadata reads as empty; a non-object is
 * `metadata: Invalid value: …: expected map[string]interface{}, got string`.
 */
export function objectMetaOf(obj: JsonObject): MetaOrErrors {
  const raw = Object.hasOwn(obj, "metadata") ? obj.metadata! : null;
  if (raw === null) return { meta: emptyObjectMeta() };
  if (!isObject(raw)) {
    return { errors: [fieldError.invalid(METADATA, raw, `expected map[string]interface{}, got ${goTypeName(raw)}`)] };
  }
  const r = unmarshalObjectMeta(raw, false);
  if (r.error !== undefined) return { errors: [fieldError.invalid(METADATA, raw, r.error)] };
  return { meta: r.meta };
}

/**
 * Strategy create check of metadata: `ValidateObjectMetaDeclaratively(Create, ...)`, i.e.
 * `ValidateObjectMeta(meta, namespaced, NameIsDNSSubdomain, "metadata")` whose result passes through
 * `ErrorList.Filter` — which de-duplicates by full text (a repeated invalid finalizer is reported once).
 */
export function validateCustomResourceMetadata(obj: JsonObject, namespaced: boolean): FieldError[] {
  return validateCustomResourceMetadataOf(objectMetaOf(obj), namespaced);
}

/** {@link validateCustomResourceMetadata} of metadata already read with {@link objectMetaOf} (read once, used twice). */
export function validateCustomResourceMetadataOf(m: MetaOrErrors, namespaced: boolean): FieldError[] {
  if (m.errors) return m.errors;
  return dedupeErrors(validateObjectMeta(m.meta, namespaced, nameIsDNSSubdomain, METADATA));
}

/** Strategy update check of metadata: `ValidateObjectMetaUpdate(new, old, "metadata")`, de-duplicated like create's. */
export function validateCustomResourceMetadataUpdate(newObj: JsonObject, oldObj: JsonObject): FieldError[] {
  const n = objectMetaOf(newObj);
  if (n.errors) return n.errors;
  return validateCustomResourceMetadataUpdateOf(n, objectMetaOf(oldObj));
}

/** {@link validateCustomResourceMetadataUpdate} of metadata already read with {@link objectMetaOf}. */
export function validateCustomResourceMetadataUpdateOf(n: MetaOrErrors, o: MetaOrErrors): FieldError[] {
  if (n.errors) return n.errors;
  if (o.errors) return o.errors;
  return dedupeErrors(validateObjectMetaUpdate(n.meta, o.meta, METADATA));
}

/** Generic create check (`rest.ValidateCreate`, run only when the strategy returned no error). */
export function validateGenericCreate(meta: ObjectMeta, namespaced: boolean): FieldError[] {
  return validateObjectMeta(meta, namespaced, validatePathSegment, METADATA);
}

/** Generic update checks (`rest.validateCommonFields`, first in the update error list). */
export function validateGenericUpdate(newMeta: ObjectMeta, oldMeta: ObjectMeta, namespaced: boolean): FieldError[] {
  return [
    ...validateObjectMeta(newMeta, namespaced, validatePathSegment, METADATA),
    ...validateObjectMetaUpdate(newMeta, oldMeta, METADATA),
  ];
}

const STANDARD_FINALIZERS = new Set(["orphan", "foregroundDeletion", "kubernetes"]);

/**
 * `WarningsOnCreate` / `WarningsOnUpdate` of the CR strategy: for each newly added finalizer (sorted), its
 * qualified-name problems and a hint to use a domain-qualified name with a path.
 */
export function finalizerWarnings(newFinalizers: readonly string[] | undefined, oldFinalizers?: readonly string[]): string[] {
  const old = new Set(oldFinalizers ?? []);
  const added = [...new Set(newFinalizers ?? [])].filter((f) => !old.has(f)).sort(compareGoStrings);
  const out: string[] = [];
  const p = "metadata.finalizers";
  for (const f of added) {
    const q = goQuote(f);
    for (const m of isQualifiedName(f)) out.push(`${p}: ${q}: ${m}`);
    if (!f.includes("/") && !STANDARD_FINALIZERS.has(f)) {
      out.push(
        f.includes(".")
          ? `${p}: ${q}: prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers`
          : `${p}: ${q}: prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers`,
      );
    }
  }
  return out;
}

/**
 * The generic store's check before an update without `metadata.resourceVersion` (registry/generic
 * store.go): `metadata.resourceVersion: Invalid value: 0: must be specified for an update` (the uint64 0
 * prints `0` since 1.34; older servers printed `0x0`). The Status uses group-kind `<plural>.<group>`.
 */
export function resourceVersionRequiredError(): FieldError {
  return fieldError.invalid(METADATA.child("resourceVersion"), 0, "must be specified for an update");
}
