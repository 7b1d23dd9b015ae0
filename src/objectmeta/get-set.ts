/**
 * Reading and writing `metadata` through the ObjectMeta shape (apiextensions `schema/objectmeta/coerce.go`
 * `GetObjectMetaWithOptions` / `SetObjectMeta`, apimachinery `ToUnstructured`).
 */
import type { FieldPath } from "../errors/field-path.js";
import { type JsonObject, type JsonValue, deepClone, getKey, isObject, setKey } from "../value/json-value.js";
import { emptyObjectMeta, unmarshalObjectMeta } from "./go-decode.js";
import { formatRFC3339, isZeroTime } from "../go/time.js";
import type { ObjectMeta } from "./types.js";

export interface GetObjectMetaOptions {
  /** Drop fields whose value cannot be decoded instead of failing (storage reads). */
  dropMalformedFields?: boolean;
  /** Decode strictly and report unknown metadata fields as `<parent>.metadata.<field>` paths. */
  returnUnknownFieldPaths?: boolean;
  /** Path of the object holding `metadata` (null: the resource root). */
  parentPath?: FieldPath | null;
}

export interface GetObjectMetaResult {
  /** The decoded metadata (null when absent or on error). */
  meta: ObjectMeta | null;
  /** Whether `metadata` was present (Go's `found`). */
  found: boolean;
  /** Unknown field paths, e.g. `metadata.foo`, `spec.template.metadata.ownerReferences[0].x`. */
  unknownPaths: string[];
  /** Go's error text (`json: cannot unmarshal ...`, `parsing time ...`, `invalid metadata: ...`). */
  error?: string;
}

/** Go `%T` of an unstructured value. */
export function goTypeName(v: JsonValue | undefined): string {
  if (v === null || v === undefined) return "<nil>";
  if (typeof v === "string") return "string";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "number" && Number.isInteger(v)) return "int64";
  if (typeof v === "bigint") return "int64";
  if (Array.isArray(v)) return "[]interface {}";
  if (isObject(v)) return "map[string]interface {}";
  return "float64";
}

/** `objectmeta.GetObjectMetaWithOptions(obj, opts)`. */
export function getObjectMeta(obj: JsonObject, opts: GetObjectMetaOptions = {}): GetObjectMetaResult {
  if (!Object.hasOwn(obj, "metadata")) return { meta: null, found: false, unknownPaths: [] };
  const metadata = obj.metadata!;
  const strict = opts.returnUnknownFieldPaths === true;
  const prefix = () => (opts.parentPath ? `${opts.parentPath.toString()}.metadata` : "metadata");
  const r = unmarshalObjectMeta(metadata, strict);
  if (r.error === undefined) {
    const p = r.unknown.length > 0 ? prefix() : "";
    return { meta: r.meta, found: true, unknownPaths: r.unknown.map((u) => `${p}.${u}`) };
  }
  if (!opts.dropMalformedFields) return { meta: null, found: true, unknownPaths: [], error: r.error };
  if (!isObject(metadata)) {
    return {
      meta: null,
      found: false,
      unknownPaths: [],
      error: `invalid metadata: expected object, got ${goTypeName(metadata)}`,
    };
  }
  // field by field: a field is kept only when decoding it alone succeeds
  const acc = emptyObjectMeta();
  const unknownPaths: string[] = [];
  for (const k of Object.keys(metadata)) {
    const single: JsonObject = {};
    setKey(single, k, metadata[k]!);
    if (unmarshalObjectMeta(single, false).error !== undefined) continue;
    const r2 = unmarshalObjectMeta(single, strict, acc);
    for (const u of r2.unknown) unknownPaths.push(`${prefix()}.${u}`);
  }
  return { meta: acc, found: true, unknownPaths };
}

/**
 * `runtime.DefaultUnstructuredConverter.ToUnstructured(&meta)`: Go field order, `omitempty` fields dropped
 * when empty, zero `creationTimestamp` omitted (`omitzero`), times as RFC 3339 UTC seconds.
 */
export function objectMetaToUnstructured(m: ObjectMeta): JsonObject {
  const out: JsonObject = {};
  if (m.name !== "") out.name = m.name;
  if (m.generateName !== "") out.generateName = m.generateName;
  if (m.namespace !== "") out.namespace = m.namespace;
  if (m.selfLink !== "") out.selfLink = m.selfLink;
  if (m.uid !== "") out.uid = m.uid;
  if (m.resourceVersion !== "") out.resourceVersion = m.resourceVersion;
  if (m.generation !== 0 && m.generation !== 0n) out.generation = m.generation;
  if (!isZeroTime(m.creationTimestamp)) out.creationTimestamp = formatRFC3339(m.creationTimestamp);
  if (m.deletionTimestamp !== undefined) {
    out.deletionTimestamp = isZeroTime(m.deletionTimestamp) ? null : formatRFC3339(m.deletionTimestamp);
  }
  if (m.deletionGracePeriodSeconds !== undefined) out.deletionGracePeriodSeconds = m.deletionGracePeriodSeconds;
  if (m.labels && m.labels.size > 0) out.labels = mapToObject(m.labels);
  if (m.annotations && m.annotations.size > 0) out.annotations = mapToObject(m.annotations);
  if (m.ownerReferences && m.ownerReferences.length > 0) {
    out.ownerReferences = m.ownerReferences.map((r) => {
      const o: JsonObject = { apiVersion: r.apiVersion, kind: r.kind, name: r.name, uid: r.uid };
      if (r.controller !== undefined) o.controller = r.controller;
      if (r.blockOwnerDeletion !== undefined) o.blockOwnerDeletion = r.blockOwnerDeletion;
      return o;
    });
  }
  if (m.finalizers && m.finalizers.length > 0) out.finalizers = [...m.finalizers];
  if (m.managedFields && m.managedFields.length > 0) {
    out.managedFields = m.managedFields.map((e) => {
      const o: JsonObject = {};
      if (e.manager !== "") o.manager = e.manager;
      if (e.operation !== "") o.operation = e.operation;
      if (e.apiVersion !== "") o.apiVersion = e.apiVersion;
      if (e.time !== undefined) o.time = isZeroTime(e.time) ? null : formatRFC3339(e.time);
      if (e.fieldsType !== "") o.fieldsType = e.fieldsType;
      if (e.fieldsV1 !== undefined) o.fieldsV1 = deepClone(e.fieldsV1);
      if (e.subresource !== "") o.subresource = e.subresource;
      return o;
    });
  }
  return out;
}

function mapToObject(m: Map<string, string>): JsonObject {
  const o: JsonObject = {};
  for (const [k, v] of m) setKey(o, k, v);
  return o;
}

/** `objectmeta.SetObjectMeta(obj, meta)`: writes the normalised metadata back (null removes it). */
export function setObjectMeta(obj: JsonObject, meta: ObjectMeta | null): void {
  if (meta === null) {
    delete obj.metadata;
    return;
  }
  setKey(obj, "metadata", objectMetaToUnstructured(meta));
}

/** Reads `obj.metadata` without decoding (own property only). */
export function rawMetadata(obj: JsonObject): JsonValue | undefined {
  return getKey(obj, "metadata");
}
