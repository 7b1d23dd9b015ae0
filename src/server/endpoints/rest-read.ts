/** GET of one object and of collections (JSON or Table). */
import { isObject, type JsonObject } from "../../value/json-value.js";
import { ApiError, apiErrors } from "./errors.js";
import { metaString } from "../registry/object-meta.js";
import { groupVersion } from "../registry/resource-type.js";
import {
  collectionPrefix,
  decodeCurrent,
  decodeStored,
  encodedAnswers,
  objectKey,
  outputMode,
  parseFilters,
  checkSelectorSyntax,
  wantsConversion,
  type RestRequest,
  type RestResponse,
} from "./rest-common.js";
import { listPage, listParams, parseListNumbers } from "./list-paging.js";
import { goUintProblem } from "./query-params.js";
import { goQuote } from "../../go/fmt.js";
import { toScale } from "../registry/scale.js";
import { scaleTableConvertor } from "../tableconvertor/scale-table.js";
import { partialObjectMetadata } from "../tableconvertor/table.js";
import { failureStatus } from "../../errors/index.js";
import type { ResourceType } from "../registry/resource-type.js";

/** Reads the current object or throws 404. */
export async function loadObject(r: RestRequest, forWrite = false): Promise<{ obj: JsonObject; revision: number }> {
  const sv = await r.store.get(objectKey(r.rt, r.namespace, r.name));
  if (!sv) throw apiErrors.notFound(r.rt.plural, r.rt.group, r.name);
  return { obj: await (forWrite ? decodeCurrent : decodeStored)(r.rt, sv), revision: sv.modRevision };
}

/** `GET …/NAME[/status|/scale]`. */
export async function getObject(r: RestRequest): Promise<RestResponse> {
  // The watch cache parses a GET's resourceVersion before it looks the object up: a malformed one is a plain 500.
  const rv = r.query.get("resourceVersion") ?? "";
  const rvProblem = rv === "" ? undefined : goUintProblem(rv);
  if (rvProblem !== undefined) {
    throw apiErrors.internalPlain(`resourceVersion: Invalid value: ${goQuote(rv)}: strconv.ParseUint: parsing ${goQuote(rv)}: ${rvProblem}`);
  }
  const enc = encodedAnswers(r);
  if (enc) {
    const sv = await r.store.get(objectKey(r.rt, r.namespace, r.name));
    if (!sv) throw apiErrors.notFound(r.rt.plural, r.rt.group, r.name);
    const json = enc.get(r.rt, sv);
    if (json !== undefined) return { code: 200, body: null, json };
    const obj = await decodeStored(r.rt, sv);
    return { code: 200, body: obj, json: enc.put(r.rt, sv, obj) };
  }
  const { obj } = await loadObject(r);
  const answer = r.subresource === "scale" ? toScale(r.rt.scale!, obj) : obj;
  return convertedAnswer(r, answer, 200) ?? { code: 200, body: answer };
}

/**
 * The answer of a GET, create, update or patch of one object in the form the Accept header asks for (Table,
 * PartialObjectMetadata; a list form is refused), or undefined for the object itself. The status subresource's
 * answers convert as the resource's; the scale subresource's Scale has its own table columns.
 */
export function convertedAnswer(r: RestRequest, obj: JsonObject, code: number, warnings?: string[]): RestResponse | undefined {
  if (!wantsConversion(r.req.headers.accept)) return undefined;
  const mode = outputMode(r.req, r.query);
  const c = mode.convert;
  if (c === undefined) return undefined;
  const contentType = mode.yaml ? "application/yaml" : TABLE_CONTENT_TYPE;
  const w = warnings ? { warnings } : {};
  const scale = r.subresource === "scale";
  if (c.kind === "Table") {
    // the status subresource prints as its resource; a Scale by the scale's own columns
    const table = scale ? scaleTableConvertor() : r.rt.table;
    return { code, body: table.table([obj], metaString(obj, "resourceVersion") || undefined, mode.include, false, c.apiVersion), contentType, ...w };
  }
  if (c.kind === "PartialObjectMetadata") return { code, body: partialObjectMetadata(obj, c.apiVersion), contentType, ...w };
  // A list form of one object: a typed object is refused (406); an unstructured one fails to convert (500).
  const type = scale ? "*v1.Scale" : goTypeName(r.rt, false);
  const e = type.startsWith("*unstructured.")
    ? apiErrors.internalPlain("content is not a list")
    : notAcceptable(`you requested PartialObjectMetadataList, but the requested object is not a list (${type})`);
  if (warnings) e.warnings = warnings;
  throw e;
}

/**
 * A write's answer (create, update, patch, a delete that leaves the object) converted as {@link convertedAnswer}
 * converts a GET's; a Status (an object deleted) is sent as it is.
 */
export function converted(r: RestRequest, res: RestResponse): RestResponse {
  if (res.code >= 300 || !isObject(res.body)) return res;
  if (res.body["kind"] === "Status" && res.body["apiVersion"] === "v1") return res;
  return convertedAnswer(r, res.body, res.code, res.warnings) ?? res;
}

/** A conversion the answer cannot take: 406 (`newNotAcceptableError`). */
function notAcceptable(message: string): ApiError {
  return new ApiError(failureStatus(406, "NotAcceptable", message));
}

/** Go's `%T` of the object a resource's handler holds (converted answers' errors name it). */
function goTypeName(rt: ResourceType, list: boolean): string {
  const suffix = list ? "List" : "";
  if (rt.group === "apiextensions.k8s.io") return `*apiextensions.${rt.kind}${suffix}`;
  if (rt.group === "") return `*core.${rt.kind}${suffix}`;
  if (rt.group === "rbac.authorization.k8s.io") return `*rbac.${rt.kind}${suffix}`;
  return list ? "*unstructured.UnstructuredList" : "*unstructured.Unstructured";
}

/** The media type the API server answers Table requests with: plain JSON (kubectl decodes by `kind`). */
export const TABLE_CONTENT_TYPE = "application/json";

/** The matching objects of a collection and the revision they were read at. */
export async function listObjects(r: RestRequest): Promise<{ items: JsonObject[]; revision: number }> {
  const filters = parseFilters(r.rt, r.query);
  const { items, revision } = await r.store.list(collectionPrefix(r.rt, r.namespace));
  const out: JsonObject[] = [];
  for (const sv of items) {
    // The watch cache's state (watches start from it).
    const obj = await decodeStored(r.rt, sv, true);
    if (filters.matches(obj)) out.push(obj);
  }
  return { items: out, revision };
}

/** `GET` of a collection: one page (`limit`/`continue`) at the requested resourceVersion. */
export async function listCollection(r: RestRequest): Promise<RestResponse> {
  // The options are decoded (numbers, then the selectors' syntax), validated, then the field labels checked.
  parseListNumbers(r.query);
  checkSelectorSyntax(r.query);
  const params = listParams(r.query);
  const filters = parseFilters(r.rt, r.query);
  const page = await listPage(r, filters, params);
  const meta: JsonObject = { resourceVersion: String(page.revision) };
  // ListMeta.Continue has no omitempty in the unstructured list the custom resource store answers.
  meta["continue"] = page.continueToken;
  if (page.remainingItemCount !== undefined) meta["remainingItemCount"] = page.remainingItemCount;
  return listAnswer(r, page.items, meta);
}

/**
 * A list answer (of a GET or a deletecollection) in the form the Accept header asks for: Table,
 * PartialObjectMetadataList, the resource's list (PartialObjectMetadata is refused). `meta` has `continue`.
 */
export function listAnswer(r: RestRequest, listed: JsonObject[], meta: JsonObject): RestResponse {
  const page = { items: listed };
  const mode = outputMode(r.req, r.query);
  const c = mode.convert;
  const contentType = mode.yaml ? "application/yaml" : TABLE_CONTENT_TYPE;
  if (c?.kind === "Table") {
    const table = r.rt.table.table(page.items, undefined, mode.include, false, c.apiVersion);
    // The Table's ListMeta omits an empty continue.
    if (meta["continue"] === "") delete meta["continue"];
    table["metadata"] = meta;
    return { code: 200, body: table, contentType };
  }
  if (c?.kind === "PartialObjectMetadata") throw notAcceptable(`you requested PartialObjectMetadata, but the requested object is a list (${goTypeName(r.rt, true)})`);
  if (c?.kind === "PartialObjectMetadataList") {
    if (meta["continue"] === "") delete meta["continue"];
    // Items are appended to a nil slice: an empty list's are `null`.
    const items = page.items.length === 0 ? null : page.items.map((o) => partialObjectMetadata(o, c.apiVersion));
    return { code: 200, body: { kind: "PartialObjectMetadataList", apiVersion: c.apiVersion, metadata: meta, items }, contentType };
  }
  // Typed lists (CRDs) encode ListMeta with omitempty and their items without TypeMeta.
  if (r.rt.typedList && meta["continue"] === "") delete meta["continue"];
  const items = r.rt.typedList ? page.items.map(withoutTypeMeta) : page.items;
  return {
    code: 200,
    body: { apiVersion: groupVersion(r.rt.group, r.rt.version), items, kind: r.rt.listKind, metadata: meta },
  };
}

/** A typed list's item: the object without apiVersion and kind. */
export function withoutTypeMeta(o: JsonObject): JsonObject {
  const { apiVersion: _a, kind: _k, ...rest } = o;
  return rest;
}
