/**
 * `objectmeta.CoerceWithOptions` (apiextensions `schema/objectmeta/algorithm.go`): walks an object by its
 * structural schema and, at every `x-kubernetes-embedded-resource` node, checks that `apiVersion`/`kind`
 * are strings and normalises `metadata` through ObjectMeta (unknown metadata fields dropped, zero
 * `creationTimestamp` removed). Returns the first error only, as Kubernetes does.
 */
import { type FieldError, fieldError } from "../errors/field-error.js";
import { FieldPath } from "../errors/field-path.js";
import { UnknownPathTracker } from "../prune/unknown-paths.js";
import { asResourceRoot } from "../prune/prune.js";
import type { Structural } from "../structural/structural.js";
import { compareGoStrings } from "../go/fmt.js";
import { type JsonObject, type JsonValue, isObject } from "../value/json-value.js";
import { hasEmbedded } from "./embedded-index.js";
import { getObjectMeta, setObjectMeta } from "./get-set.js";
import { isZeroTime } from "../go/time.js";

export interface CoerceOptions {
  /** Drop malformed apiVersion/kind/metadata fields instead of failing (storage reads, default pruning). */
  dropInvalidFields?: boolean;
  /** Report unknown metadata fields (`<path>.metadata.<field>`). */
  returnUnknownFieldPaths?: boolean;
}

export interface CoerceResult {
  /** The first problem, e.g. `spec.template.apiVersion: Invalid value: 42: must be a string`. */
  error: FieldError | null;
  /** Unknown metadata field paths, sorted (Go sort.Strings). */
  unknownPaths: string[];
}

/** Go `(*field.Path).Child` on a possibly-nil path. */
export function childOrRoot(p: FieldPath | null, name: string): FieldPath {
  return p ? p.child(name) : FieldPath.of(name);
}
/** Go `(*field.Path).Key` on a possibly-nil path (`[k]` at the root). */
export function keyOrRoot(p: FieldPath | null, k: string): FieldPath {
  return (p ?? FieldPath.of("")).key(k);
}
/** Go `(*field.Path).Index` on a possibly-nil path (`[i]` at the root). */
export function indexOrRoot(p: FieldPath | null, i: number): FieldPath {
  return (p ?? FieldPath.of("")).index(i);
}

/**
 * `objectmeta.CoerceWithOptions(pth, obj, s, isResourceRoot, opts)`; mutates `obj`. With
 * `isResourceRoot` the root itself is treated as an embedded resource.
 */
export function coerce(
  path: FieldPath | null,
  obj: JsonValue,
  s: Structural | undefined | null,
  isResourceRoot: boolean,
  opts: CoerceOptions = {},
): CoerceResult {
  const schema = isResourceRoot ? asResourceRoot(s) : (s ?? undefined);
  const tracker = new UnknownPathTracker(opts.returnUnknownFieldPaths === true);
  const error = schema ? coerceNode(path, obj, schema, opts, tracker) : null;
  if (tracker.paths.length > 1) tracker.paths.sort(compareGoStrings);
  return { error, unknownPaths: tracker.paths };
}

function coerceNode(
  path: FieldPath | null,
  x: JsonValue,
  s: Structural | undefined,
  opts: CoerceOptions,
  t: UnknownPathTracker,
): FieldError | null {
  if (!s || !hasEmbedded(s)) return null; // nothing to coerce below
  if (Array.isArray(x)) {
    const items = s.items;
    if (!items) return null;
    for (let i = 0; i < x.length; i++) {
      const v = x[i]!;
      if (typeof v !== "object" || v === null) continue;
      const err = coerceNode(indexOrRoot(path, i), v, items, opts, t);
      if (err) return err;
    }
    return null;
  }
  if (!isObject(x)) return null;
  for (const k of Object.keys(x)) {
    const v = x[k]!; // Go recurses with the value read before metadata was rewritten
    if (s.xEmbeddedResource) {
      const err = coerceMetaField(path, x, k, opts, t);
      if (err) return err;
    }
    if (typeof v !== "object" || v === null) continue;
    const prop = s.properties?.get(k);
    if (prop !== undefined) {
      const err = coerceNode(childOrRoot(path, k), v, prop, opts, t);
      if (err) return err;
    } else if (s.additionalProperties !== undefined) {
      const err = coerceNode(keyOrRoot(path, k), v, s.additionalProperties.schema, opts, t);
      if (err) return err;
    }
  }
  return null;
}

function coerceMetaField(
  path: FieldPath | null,
  x: JsonObject,
  k: string,
  opts: CoerceOptions,
  t: UnknownPathTracker,
): FieldError | null {
  if (k === "apiVersion" || k === "kind") {
    const v = x[k]!;
    if (typeof v === "string") return null;
    if (opts.dropInvalidFields) {
      delete x[k];
      return null;
    }
    return fieldError.invalid(childOrRoot(path, k), v, "must be a string");
  }
  if (k !== "metadata") return null;
  const v = x.metadata!;
  const r = getObjectMeta(x, {
    dropMalformedFields: opts.dropInvalidFields === true,
    returnUnknownFieldPaths: opts.returnUnknownFieldPaths === true,
    parentPath: path,
  });
  for (const p of r.unknownPaths) t.paths.push(p);
  if (r.error !== undefined) {
    if (!opts.dropInvalidFields) return fieldError.invalid(childOrRoot(path, "metadata"), v, r.error);
    return null;
  }
  if (r.found && r.meta) {
    setObjectMeta(x, r.meta);
    // zero creationTimestamp is already omitted by the converter (omitzero); kept explicit for clarity
    if (isZeroTime(r.meta.creationTimestamp)) delete (x.metadata as JsonObject).creationTimestamp;
  }
  return null;
}
