/**
 * `objectmeta.Validate(ctx, pth, obj, s, isResourceRoot)` (apiextensions `schema/objectmeta/validation.go`):
 * for every `x-kubernetes-embedded-resource` node, `apiVersion` and `kind` are required strings (a valid
 * group/version; a kind whose lower-case form is a DNS-1035 label) and `metadata` is validated as on create,
 * with `fakename` standing in for a missing name and a namespace required only when one is set; the metadata
 * errors of one embedded resource are de-duplicated by full text like the root's.
 */
import { type FieldError, dedupeErrors, fieldError } from "../errors/field-error.js";
import type { FieldPath } from "../errors/field-path.js";
import { asResourceRoot } from "../prune/prune.js";
import type { Structural } from "../structural/structural.js";
import { type JsonObject, type JsonValue, isObject } from "../value/json-value.js";
import { childOrRoot, indexOrRoot, keyOrRoot } from "./coerce.js";
import { hasEmbedded } from "./embedded-index.js";
import { getObjectMeta } from "./get-set.js";
import { isDNS1035Label, validatePathSegment } from "./names.js";
import { parseGroupVersion, validateObjectMeta } from "./validate-meta.js";

/** Validates embedded resources (and the root itself when `isResourceRoot`). */
export function validateEmbedded(
  path: FieldPath | null,
  obj: JsonValue,
  s: Structural | undefined | null,
  isResourceRoot: boolean,
): FieldError[] {
  const schema = isResourceRoot ? asResourceRoot(s) : (s ?? undefined);
  const errs: FieldError[] = [];
  if (schema && hasEmbedded(schema)) walk(path, obj, schema, errs);
  return errs;
}

function walk(path: FieldPath | null, x: JsonValue, s: Structural | undefined, errs: FieldError[]): void {
  if (!s || !hasEmbedded(s)) return;
  if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) walk(indexOrRoot(path, i), x[i]!, s.items, errs);
    return;
  }
  if (!isObject(x)) return;
  if (s.xEmbeddedResource) validateEmbeddedResource(path, x, errs);
  for (const k of Object.keys(x)) {
    const prop = s.properties?.get(k);
    if (prop !== undefined) walk(childOrRoot(path, k), x[k]!, prop, errs);
    else if (s.additionalProperties !== undefined) walk(keyOrRoot(path, k), x[k]!, s.additionalProperties.schema, errs);
  }
}

function validateEmbeddedResource(path: FieldPath | null, x: JsonObject, errs: FieldError[]): void {
  if (!Object.hasOwn(x, "apiVersion")) errs.push(fieldError.required(childOrRoot(path, "apiVersion"), ""));
  if (!Object.hasOwn(x, "kind")) errs.push(fieldError.required(childOrRoot(path, "kind"), ""));
  for (const k of Object.keys(x)) {
    const v = x[k]!;
    if (k === "apiVersion") {
      const p = childOrRoot(path, "apiVersion");
      if (typeof v !== "string") errs.push(fieldError.invalid(p, v, "must be a string"));
      else if (v.length === 0) errs.push(fieldError.invalid(p, v, "must not be empty"));
      else if (parseGroupVersion(v) === null) errs.push(fieldError.invalid(p, v, `unexpected GroupVersion string: ${v}`));
    } else if (k === "kind") {
      const p = childOrRoot(path, "kind");
      if (typeof v !== "string") errs.push(fieldError.invalid(p, v, "must be a string"));
      else if (v.length === 0) errs.push(fieldError.invalid(p, v, "must not be empty"));
      else {
        const msgs = isDNS1035Label(v.toLowerCase());
        if (msgs.length > 0) {
          errs.push(fieldError.invalid(p, v, "may have mixed case, but should otherwise match: " + msgs.join(",")));
        }
      }
    } else if (k === "metadata") {
      const r = getObjectMeta(x, {});
      if (r.error !== undefined || !r.meta) {
        errs.push(fieldError.invalid(childOrRoot(path, "metadata"), v, r.error ?? ""));
        continue;
      }
      const meta = r.meta;
      if (meta.name.length === 0) meta.name = "fakename";
      // `ValidateObjectMetaDeclaratively` filters the handwritten errors with `ErrorList.Filter`, which
      // drops an error whose full text repeats an earlier one (two labels with the same bad value: one error)
      const metaErrs = validateObjectMeta(meta, meta.namespace.length > 0, validatePathSegment, childOrRoot(path, "metadata"));
      errs.push(...(metaErrs.length > 1 ? dedupeErrors(metaErrs) : metaErrs));
    }
  }
}
