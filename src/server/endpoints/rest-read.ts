/** GET of one object and of collections (JSON or Table). */
import type { JsonObject } from "../../value/json-value.js";
import { apiErrors } from "./errors.js";
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
  type RestRequest,
  type RestResponse,
} from "./rest-common.js";
import { listPage, listParams } from "./list-paging.js";
import { toScale } from "../registry/scale.js";

/** Reads the current object or throws 404. */
export async function loadObject(r: RestRequest, forWrite = false): Promise<{ obj: JsonObject; revision: number }> {
  const sv = await r.store.get(objectKey(r.rt, r.namespace, r.name));
  if (!sv) throw apiErrors.notFound(r.rt.plural, r.rt.group, r.name);
  return { obj: await (forWrite ? decodeCurrent : decodeStored)(r.rt, sv), revision: sv.modRevision };
}

/** `GET …/NAME[/status|/scale]`. */
export async function getObject(r: RestRequest): Promise<RestResponse> {
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
  if (r.subresource === "scale") return { code: 200, body: toScale(r.rt.scale!, obj) };
  const mode = outputMode(r.req, r.query);
  if (mode.table && r.subresource === "") {
    return { code: 200, body: r.rt.table.table([obj], metaString(obj, "resourceVersion") || undefined, mode.include), contentType: TABLE_CONTENT_TYPE };
  }
  return { code: 200, body: obj };
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
  const params = listParams(r.query);
  const filters = parseFilters(r.rt, r.query);
  const page = await listPage(r, filters, params);
  const meta: JsonObject = { resourceVersion: String(page.revision) };
  // ListMeta.Continue has no omitempty in the unstructured list the custom resource store answers.
  meta["continue"] = page.continueToken;
  if (page.remainingItemCount !== undefined) meta["remainingItemCount"] = page.remainingItemCount;
  const mode = outputMode(r.req, r.query);
  if (mode.table) {
    const table = r.rt.table.table(page.items, undefined, mode.include);
    // The Table's ListMeta omits an empty continue.
    if (meta["continue"] === "") delete meta["continue"];
    table["metadata"] = meta;
    return { code: 200, body: table, contentType: TABLE_CONTENT_TYPE };
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
