/**
 * The request/storage decoder step of custom resources (apiextensions `customresource_handler.go`
 * `unstructuredSchemaCoercer.apply`), assembled from the pipeline stages in their Kubernetes order:
 * read `kind`/`apiVersion`, parse `metadata` through ObjectMeta (before anything else), prune + drop
 * non-nullable nulls (unless `preserveUnknownFields`), coerce embedded ObjectMeta, then restore
 * `kind`/`apiVersion`/normalised `metadata`. Defaulting is a separate, later step ({@link applyDefaults}).
 */
import { errorString } from "../errors/field-error.js";
import { coerce } from "../objectmeta/coerce.js";
import { getObjectMeta, setObjectMeta } from "../objectmeta/get-set.js";
import { nestedStringError } from "../objectmeta/accessor-error.js";
import { parseGroupVersion } from "../objectmeta/validate-meta.js";
import { prune } from "../prune/prune.js";
import type { Structural } from "../structural/structural.js";
import type { JsonObject } from "../value/json-value.js";
import { pruneNonNullableNullsWithoutDefaults } from "./prune-nulls.js";

export interface SchemaCoercerOptions {
  /** The CRD's group and kind: only objects of that group/kind are pruned and coerced. */
  group: string;
  kind: string;
  /** Structural schema per version name (a missing version prunes everything, as Go's nil schema does). */
  schemaFor: (version: string) => Structural | undefined;
  /** `spec.preserveUnknownFields` (v1beta1 legacy): no pruning. */
  preserveUnknownFields?: boolean;
  /** Storage reads: drop malformed metadata fields instead of failing. */
  dropInvalidMetadata?: boolean;
  /** Storage reads: `metadata.generation` 0 becomes 1. */
  repairGeneration?: boolean;
  /** Strict/Warn field validation: collect unknown field paths. */
  returnUnknownFieldPaths?: boolean;
}

export interface SchemaCoercerResult {
  /** Unknown (pruned) field paths: metadata unknowns first, then pruned paths, then embedded metadata. */
  unknownFieldPaths: string[];
  /** Go's decode error text (the caller wraps it as `… cannot be handled as a …`). */
  error?: string;
}

/** `unstructuredSchemaCoercer.apply(u)`: mutates `obj`. */
export function applySchemaCoercion(obj: JsonObject, opts: SchemaCoercerOptions): SchemaCoercerResult {
  const hasKind = Object.hasOwn(obj, "kind");
  const kindVal = obj.kind;
  if (hasKind && typeof kindVal !== "string") {
    return { unknownFieldPaths: [], error: nestedStringError(["kind"], kindVal!) };
  }
  const hasApiVersion = Object.hasOwn(obj, "apiVersion");
  const apiVersionVal = obj.apiVersion;
  if (hasApiVersion && typeof apiVersionVal !== "string") {
    return { unknownFieldPaths: [], error: nestedStringError(["apiVersion"], apiVersionVal!) };
  }
  const kind = hasKind ? (kindVal as string) : "";
  const apiVersion = hasApiVersion ? (apiVersionVal as string) : "";

  const track = opts.returnUnknownFieldPaths === true;
  const m = getObjectMeta(obj, { dropMalformedFields: opts.dropInvalidMetadata === true, returnUnknownFieldPaths: track });
  if (m.error !== undefined) return { unknownFieldPaths: [], error: m.error };
  const unknownFieldPaths = [...m.unknownPaths];

  const gv = parseGroupVersion(apiVersion);
  if (gv === null) return { unknownFieldPaths: [], error: `unexpected GroupVersion string: ${apiVersion}` };
  const meta = m.meta;
  if (gv[0] === opts.group && kind === opts.kind) {
    const schema = opts.schemaFor(gv[1]);
    if (!opts.preserveUnknownFields) {
      unknownFieldPaths.push(...prune(obj, schema, true, { trackUnknownFieldPaths: track }));
      pruneNonNullableNullsWithoutDefaults(obj, schema);
    }
    const c = coerce(null, obj, schema, false, {
      dropInvalidFields: opts.dropInvalidMetadata === true,
      returnUnknownFieldPaths: track,
    });
    if (c.error) return { unknownFieldPaths: [], error: errorString(c.error) };
    unknownFieldPaths.push(...c.unknownPaths);
    if (opts.repairGeneration && meta && (meta.generation === 0 || meta.generation === 0n)) meta.generation = 1;
  }
  if (hasKind) obj.kind = kind;
  if (hasApiVersion) obj.apiVersion = apiVersion;
  if (m.found) setObjectMeta(obj, meta);
  return { unknownFieldPaths };
}
