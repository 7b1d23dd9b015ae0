/** Shared pieces of the REST handlers: request context, storage encoding, selectors. */
import type { IncomingMessage, ServerResponse } from "node:http";
import { decodeJsonStream } from "../../io/json-decode.js";
import type { Store, StoredValue } from "../../storage/types.js";
import type { RequestContext } from "../auth/request-context.js";
import { EncodedObjects } from "./encoded-objects.js";
import { wantsYaml } from "./yaml-response.js";
import { goJsonMarshal } from "../../go/json.js";
import { goQuote } from "../../go/fmt.js";
import { deepClone, isObject, type JsonObject, type JsonValue } from "../../value/json-value.js";
import { apiErrors } from "./errors.js";
import { CorruptObjectError } from "./corrupt-object.js";
import { ConversionFailure, StoredVersionError } from "../conversion/conversion.js";
import { evalJsonPath } from "../tableconvertor/jsonpath.js";
import { labelsOf, metaString, withoutResourceVersion } from "../registry/object-meta.js";
import { groupVersion, type ResourceType } from "../registry/resource-type.js";
import { parseFieldSelector, parseLabelSelector, type Selector } from "./selectors.js";
import type { IncludeObject } from "../tableconvertor/table.js";
import { negotiatedOutput, type OutputConversion } from "./accept.js";
import type { QueryParams } from "./request-url.js";

/** One request to a resource endpoint. */
export interface RestRequest {
  store: Store;
  rt: ResourceType;
  /** The namespace in the path ("" for cluster-scoped resources and all-namespaces lists). */
  namespace: string;
  name: string;
  subresource: string;
  query: QueryParams;
  req: IncomingMessage;
  res: ServerResponse;
  /** Admission plugins after decoding (NamespaceLifecycle): throws the ApiError that refuses the write. */
  admit?: (operation: "create" | "update", obj: JsonObject) => Promise<void>;
  /** Strict-decoding errors of the body (duplicate fields), set when the body is read. */
  strictErrors?: string[];
  /** A typed kind's decoded JSON text (see `RequestOptions.strictOrderText`), set when the body is read or patched. */
  strictOrderText?: string;
  /** A server-side apply: its result is pruned without unknown-field warnings (the apply path decodes nothing strictly). */
  apply?: boolean;
  /** The user and attributes of the request, for admission that needs them (RBAC escalation checks). */
  context?: RequestContext;
  /** The server's cache of encoded answers (see encoded-objects.ts). */
  encoded?: EncodedObjects;
  /**
   * The garbage collector runs (`--enable-garbage-collector`): DELETEs add the `orphan` / `foregroundDeletion`
   * finalizers their propagation asks for, as a registry store with `EnableGarbageCollection`.
   */
  garbageCollection?: boolean;
}

/** A non-streaming result. */
export interface RestResponse {
  code: number;
  body: JsonValue;
  warnings?: string[];
  contentType?: string;
  /** `Cache-Control` (default `no-cache, private`). */
  cacheControl?: string;
  /**
   * The answer's JSON text, already encoded as Go's json.Encoder writes it (ending with its newline): sent
   * instead of encoding `body` (which is then null when the text came from the cache). Set only when the
   * client asked for JSON.
   */
  json?: string;
}

/** Storage key of one object. */
export function objectKey(rt: ResourceType, namespace: string, name: string): string {
  return rt.storagePrefix + (rt.namespaced ? `${namespace}/` : "") + name;
}

/** Storage prefix of a collection (a namespace, or every namespace when `namespace` is ""). */
export function collectionPrefix(rt: ResourceType, namespace: string): string {
  return rt.storagePrefix + (rt.namespaced && namespace !== "" ? `${namespace}/` : "");
}

/** The stored JSON of an object (without resourceVersion). */
export function encodeObject(obj: JsonObject): string {
  return goJsonMarshal(withoutResourceVersion(obj));
}

/**
 * The JSON text to store for an object admitted in `rt`'s version: converted to the storage version
 * (without resourceVersion, as the storage prepares it). A failed conversion webhook is the API server's
 * plain 500 with the converter's text.
 */
export async function encodeForStorage(rt: ResourceType, obj: JsonObject): Promise<string> {
  // An object already in the storage version is stored as it is (the converter would return it unchanged).
  if (!rt.converter || obj["apiVersion"] === groupVersion(rt.group, rt.converter().storageVersion)) return encodeObject(obj);
  try {
    return encodeObject(await rt.converter().toStorage(withoutResourceVersion(deepClone(obj))));
  } catch (e) {
    if (e instanceof ConversionFailure) throw apiErrors.internalPlain(e.message);
    throw e;
  }
}

/**
 * Parses stored JSON. `JSON.parse` is exact unless an integer has more than 15 digits; those texts go
 * through the int64-preserving decoder (as the API server decodes storage: int64 stays int64).
 */
export function parseStored(text: string): JsonObject {
  if (!/\d{16}/.test(text)) return JSON.parse(text) as JsonObject;
  const doc = decodeJsonStream(text).documents[0];
  return (doc && isObject(doc.value) ? doc.value : JSON.parse(text)) as JsonObject;
}

/** Where a decode may use the watch cache's view (see conversion/converted-cache.ts). */
export interface DecodeFrom {
  /** The object's storage key (conversions are remembered under it). */
  key: string;
  /** Served from the watch cache in Kubernetes: an earlier conversion of the same state is reused. */
  cached: boolean;
}

/** An object read from the store, in the request's version, with its resourceVersion. */
export async function decodeObject(rt: ResourceType, text: string, revision: number, from?: DecodeFrom): Promise<JsonObject> {
  const converted = rt.converter?.().converted;
  const recalled = from?.cached && converted ? converted.recall(from.key, rt.version, text) : undefined;
  let obj = recalled ?? parseStored(text);
  if (recalled) {
    // converted earlier (the watch cache's object)
  } else if (rt.converter) {
    const storedVersion = obj["apiVersion"];
    try {
      obj = await rt.converter().fromStorage(obj, rt.version);
    } catch (e) {
      if (!(e instanceof StoredVersionError) && !(e instanceof ConversionFailure)) throw e;
      const m = isObject(obj["metadata"]) ? obj["metadata"] : {};
      const rest = `${rt.namespaced ? `${String(m["namespace"] ?? "")}/` : ""}${String(m["name"] ?? "")}`;
      throw new CorruptObjectError(rt.storagePrefix + rest, revision, e.message, `/${rt.group}/${rt.plural}/${rest}`);
    }
    if (from && converted && storedVersion !== obj["apiVersion"]) converted.remember(from.key, rt.version, text, obj);
  } else obj["apiVersion"] = groupVersion(rt.group, rt.version);
  if (isObject(obj["metadata"])) obj["metadata"]["resourceVersion"] = String(revision);
  return obj;
}

/** A stored value decoded for the request's version; `cached`: a path Kubernetes serves from its watch cache. */
export function decodeStored(rt: ResourceType, sv: StoredValue, cached = false): Promise<JsonObject> {
  return decodeObject(rt, sv.value, sv.modRevision, { key: sv.key, cached });
}

/** The current object for an update or delete (Kubernetes starts from its watch cache's object). */
export function decodeCurrent(rt: ResourceType, sv: StoredValue): Promise<JsonObject> {
  return decodeStored(rt, sv, true);
}

/**
 * The answer of a write: the object just stored, decoded. When that fails (the conversion back to the
 * request version), the API server's storage answers the plain 500 `object not decodable revision=N: …`.
 */
export async function decodeWritten(rt: ResourceType, sv: StoredValue): Promise<JsonObject> {
  try {
    return await decodeStored(rt, sv);
  } catch (e) {
    if (!(e instanceof CorruptObjectError)) throw e;
    throw apiErrors.internalPlain(`object not decodable revision=${e.revision}: ${e.reason}`);
  }
}

/** The cache of encoded answers, when the request's answer is a plain JSON object of a cacheable resource. */
export function encodedAnswers(r: RestRequest): EncodedObjects | undefined {
  if (!r.encoded || r.subresource === "scale" || !EncodedObjects.cacheable(r.rt)) return undefined;
  const accept = r.req.headers.accept;
  return wantsYaml(accept) || wantsConversion(accept) ? undefined : r.encoded;
}

/** The answer of a write that stored `sv`: the object decoded, and its JSON remembered for later GETs. */
export async function writtenAnswer(r: RestRequest, sv: StoredValue, code: number, warnings?: string[]): Promise<RestResponse> {
  const obj = await decodeWritten(r.rt, sv);
  const enc = encodedAnswers(r);
  return { code, body: obj, ...(warnings ? { warnings } : {}), ...(enc ? { json: enc.put(r.rt, sv, obj) } : {}) };
}

/** The field set of an object for field selectors (`GetAttrs`). */
export function fieldSet(rt: ResourceType, obj: JsonObject): Record<string, string> {
  const out: Record<string, string> = { "metadata.name": metaString(obj, "name") };
  if (rt.namespaced) out["metadata.namespace"] = metaString(obj, "namespace");
  for (const [label, path] of rt.selectableFields) {
    const got = evalJsonPath(path, obj);
    const v = got[0];
    out[label] = v === undefined || v === null ? "" : typeof v === "string" ? v : goJsonMarshal(v);
  }
  return out;
}

/** Parsed list/watch filters. */
export interface Filters {
  labels: Selector;
  fields: Selector;
  matches(obj: JsonObject): boolean;
}

/**
 * The selectors' syntax, as the list options are decoded (before they are validated; the field labels are
 * checked after: {@link parseFilters}).
 */
export function checkSelectorSyntax(query: QueryParams): void {
  parseLabelSelector(query.get("labelSelector"));
  parseFieldSelector(query.get("fieldSelector"));
}

/** Parses `labelSelector` / `fieldSelector`, rejecting unsupported field labels with 400. */
export function parseFilters(rt: ResourceType, query: QueryParams): Filters {
  const labels = parseLabelSelector(query.get("labelSelector"));
  const fields = parseFieldSelector(query.get("fieldSelector"));
  for (const k of fields.keys()) {
    const ok = k === "metadata.name" || (k === "metadata.namespace" && rt.namespaced) || rt.selectableFields.has(k);
    if (!ok) throw apiErrors.badRequest(`field label not supported: ${k}`);
  }
  return {
    labels,
    fields,
    matches: (obj) =>
      (labels.empty || labels.matches(labelsOf(obj))) && (fields.empty || fields.matches(fieldSet(rt, obj))),
  };
}

/** How the client wants objects rendered. */
export interface OutputMode {
  table: boolean;
  include: IncludeObject;
  /** The conversion the Accept header asks for (Table, PartialObjectMetadata, PartialObjectMetadataList). */
  convert?: OutputConversion;
  /** The negotiated media type is YAML. */
  yaml: boolean;
}

/**
 * How a resource answer is converted and encoded (`transformResponseObject`): the negotiated clause of the Accept
 * header, and for a Table its `TableOptions` (`includeObject`, validated: 400 `Unable to convert to Table as
 * requested: …`).
 */
export function outputMode(req: IncomingMessage, query: QueryParams): OutputMode {
  const negotiated = negotiatedOutput(req.headers.accept);
  const convert = negotiated?.convert;
  const table = convert?.kind === "Table";
  const inc = query.get("includeObject");
  if (table && inc !== null && inc !== "" && inc !== "Metadata" && inc !== "None" && inc !== "Object") {
    throw apiErrors.badRequest(`Unable to convert to Table as requested: includeObject: Invalid value: ${goQuote(inc)}: must be 'Metadata', 'Object', 'None', or empty`);
  }
  const include: IncludeObject = inc === "None" || inc === "Object" ? inc : "Metadata";
  return { table, include, ...(convert ? { convert } : {}), yaml: negotiated?.subType === "yaml" };
}

/** Whether the Accept header asks for a conversion of the answer (no `as=`: none, without parsing it). */
export function wantsConversion(accept: string | undefined): boolean {
  return accept?.includes("as=") === true && negotiatedOutput(accept)?.convert !== undefined;
}

/** The `fieldValidation` query parameter (default Warn, as the API server). */
export function fieldValidationOf(query: QueryParams): "Strict" | "Warn" | "Ignore" {
  const v = query.get("fieldValidation");
  if (v === null || v === "" || v === "Warn") return "Warn";
  if (v === "Strict" || v === "Ignore") return v;
  throw apiErrors.badRequest(`fieldValidation parameter unsupported: ${v}`);
}

/** `dryRun=All`. */
export function isDryRun(query: QueryParams): boolean {
  const v = query.getAll("dryRun");
  for (const x of v) if (x !== "All") throw apiErrors.badRequest(`Invalid dry run value: ${x}`);
  return v.length > 0;
}
