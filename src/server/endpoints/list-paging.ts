/**
 * Chunked lists as the API server serves them from etcd (apiserver `storage/etcd3` `GetList`,
 * `storage.ValidateListOptions`, `storage/continue.go`, apimachinery `ListOptions` validation):
 * `limit` + opaque `continue` tokens (`{"v":"meta.k8s.io/v1","rv":REV,"start":KEY}` in unpadded
 * base64url) that resume at a key of the snapshot at the list's revision, `remainingItemCount`, and the
 * `resourceVersion` / `resourceVersionMatch` rules (Exact, NotOlderThan, legacy).
 */
import { decodeJsonStream } from "../../io/json-decode.js";
import { trailingDataError } from "../../pipeline/request-body.js";
import { fieldError, FieldPath, type FieldError } from "../../errors/index.js";
import { FutureRevisionError, RevisionCompactedError, type StoredValue } from "../../storage/types.js";
import { goQuote } from "../../go/fmt.js";
import type { JsonObject } from "../../value/json-value.js";
import { type ApiError, apiErrors } from "./errors.js";
import { CorruptObjectError, storageReadError } from "./corrupt-object.js";
import { collectionPrefix, decodeStored, type Filters, objectKey, type RestRequest } from "./rest-common.js";
import { isDNS1123Label, isPathSegmentName } from "../../objectmeta/names.js";
import { queryBool, parseGoInt64 } from "./query-params.js";
import type { QueryParams } from "./request-url.js";

/** etcd3 `maxLimit`: the largest chunk read when a selector thins out a page. */
const MAX_CHUNK = 10_000;

const CONTINUE_VERSION = "meta.k8s.io/v1";

/** `resourceVersionTooHighRetrySeconds`: the retry time of the watch cache's 504 for a future resourceVersion. */
const CACHE_RETRY_SECONDS = 1;

/** `expired` of apiserver `storage/etcd3/errors.go`. */
export const LIST_EXPIRED_MESSAGE = "The resourceVersion for the provided list is too old.";
/** `inconsistentContinue` of apiserver `storage/etcd3/errors.go`. */
export const INCONSISTENT_CONTINUE_MESSAGE =
  "The provided continue parameter is too old to display a consistent list result. You can start a new list without " +
  "the continue parameter, or use the continue token in this response to retrieve the remainder of the results. " +
  "Continuing with the provided token results in an inconsistent list - objects that were created, modified, or " +
  "deleted between the time the first chunk was returned and now may show up in the list.";

/** `storage.EncodeContinue`: the token for resuming at `key` (which starts with `prefix`). */
export function encodeContinue(key: string, prefix: string, revision: number): string {
  const start = key.startsWith(prefix) ? key.slice(prefix.length) : key;
  return Buffer.from(JSON.stringify({ v: CONTINUE_VERSION, rv: revision, start })).toString("base64url");
}

/** A continue token that cannot be used (`storage.DecodeContinue` error text). */
export class ContinueTokenError extends Error {}

/** Go `base64.RawURLEncoding` decoding with its `illegal base64 data at input byte N` errors. */
function decodeRawUrlBase64(s: string): Buffer {
  const bad = /[^A-Za-z0-9_-]/.exec(s);
  if (bad) throw new ContinueTokenError(`continue key is not valid: illegal base64 data at input byte ${bad.index}`);
  if (s.length % 4 === 1) throw new ContinueTokenError(`continue key is not valid: illegal base64 data at input byte ${s.length - 1}`);
  return Buffer.from(s, "base64url");
}

/** `storage.DecodeContinue`: the key to resume at and the revision of the list. */
export function decodeContinue(token: string, prefix: string): { key: string; revision: number } {
  const data = decodeRawUrlBase64(token);
  const parsed = decodeJsonStream(data.toString("utf8"));
  if (parsed.problem || parsed.documents.length > 1) {
    // json.Unmarshal checks the bytes first: anything after the first value is named byte by byte.
    const bytes = data.toString("latin1");
    const p = decodeJsonStream(bytes);
    const doc = p.documents[0];
    const msg = doc && (p.problem || p.documents.length > 1) ? trailingDataError(bytes, doc.offset) : (p.problem?.message ?? parsed.problem?.message);
    throw new ContinueTokenError(`continue key is not valid: ${msg}`);
  }
  const c: unknown = parsed.documents[0]?.value;
  if (typeof c !== "object" || c === null || Array.isArray(c)) {
    throw new ContinueTokenError("continue key is not valid: json: cannot unmarshal the token into Go value of type storage.continueToken");
  }
  const t = c as { v?: unknown; rv?: unknown; start?: unknown };
  const version = typeof t.v === "string" ? t.v : "";
  if (version !== CONTINUE_VERSION) {
    throw new ContinueTokenError(`continue key is not valid: server does not recognize this encoded version ${version}`);
  }
  const rv = typeof t.rv === "number" && Number.isInteger(t.rv) ? t.rv : 0;
  if (rv === 0) {
    throw new ContinueTokenError("continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)");
  }
  const start = typeof t.start === "string" ? t.start : "";
  if (start === "") throw new ContinueTokenError("continue key is not valid: encoded start key empty (version meta.k8s.io/v1)");
  const key = start.startsWith("/") ? start : `/${start}`;
  // `path.Clean(key) != key`: empty, `.` or `..` segments (or a trailing slash) would escape the prefix.
  const segments = key.slice(1).split("/");
  if (segments.some((s) => s === "" || s === "." || s === "..")) throw new ContinueTokenError(`continue key is not valid: ${start}`);
  return { key: prefix + key.slice(1), revision: rv };
}

/** The list options of a request, validated (`ValidateListOptions` → 422 `ListOptions.meta.k8s.io`). */
export interface ListParams {
  limit: number;
  continueToken: string;
  resourceVersion: string;
  match: string;
}

/** `NewInvalid(ListOptions.meta.k8s.io, "", errs)` (name and group present only when non-empty, as Go's omitempty). */
function invalidListOptions(errs: FieldError[]): ApiError {
  return apiErrors.invalid("ListOptions", "meta.k8s.io", "", errs);
}

/** Reads and validates `limit`, `continue`, `resourceVersion`, `resourceVersionMatch` of a list. */
/**
 * The list options' numbers as the parameter codec decodes them (before the selectors: their parse errors come
 * first): `limit` (negative is 0) and `timeoutSeconds` (decoded even though a list does not use it).
 */
export function parseListNumbers(query: QueryParams): number {
  const rawLimit = query.get("limit") ?? "";
  let limit = 0;
  if (rawLimit !== "") {
    if (!/^[+-]?\d+$/.test(rawLimit)) {
      throw apiErrors.badRequest(`strconv.ParseInt: parsing ${goQuote(rawLimit)}: invalid syntax`);
    }
    limit = Math.max(0, Number(rawLimit));
  }
  const timeout = query.get("timeoutSeconds");
  if (timeout !== null) parseGoInt64(timeout);
  return limit;
}

export function listParams(query: QueryParams): ListParams {
  const limit = parseListNumbers(query);
  const p: ListParams = {
    limit,
    continueToken: query.get("continue") ?? "",
    resourceVersion: query.get("resourceVersion") ?? "",
    match: query.get("resourceVersionMatch") ?? "",
  };
  const errs: FieldError[] = [];
  const path = FieldPath.of("resourceVersionMatch");
  if (p.match !== "") {
    if (p.resourceVersion === "") errs.push(fieldError.forbidden(path, "resourceVersionMatch is forbidden unless resourceVersion is provided"));
    if (p.continueToken !== "") errs.push(fieldError.forbidden(path, "resourceVersionMatch is forbidden when continue is provided"));
    if (p.match !== "Exact" && p.match !== "NotOlderThan") errs.push(fieldError.notSupported(path, p.match, ["Exact", "NotOlderThan", ""]));
    if (p.match === "Exact" && p.resourceVersion === "0") {
      errs.push(fieldError.forbidden(path, 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
    }
  }
  if (query.has("sendInitialEvents")) errs.push(fieldError.forbidden(FieldPath.of("sendInitialEvents"), "sendInitialEvents is forbidden for list"));
  if (errs.length > 0) throw invalidListOptions(errs);
  // A list at resourceVersion "0" is served whole from the watch cache, which does not paginate it: limit ignored.
  if (p.resourceVersion === "0") p.limit = 0;
  return p;
}

/** The options of a watch, decoded, defaulted and validated. */
export interface WatchParams {
  /** `sendInitialEvents` after defaulting: undefined only for a watch from a resourceVersion other than "" and "0". */
  sendInitialEvents: boolean | undefined;
  allowWatchBookmarks: boolean;
  /** 0: no timeout. */
  timeoutSeconds: number;
}

/**
 * The options of a watch as the API server reads them with the WatchList feature (on by default):
 * decoded (400 for a malformed `timeoutSeconds`), defaulted by `SetListOptionsDefaults` (a watch from ""
 * or "0" without `sendInitialEvents` and `resourceVersionMatch` is one with `sendInitialEvents=true`,
 * `resourceVersionMatch=NotOlderThan`), then checked by `validateWatchOptions`: 422
 * `ListOptions.meta.k8s.io "" is invalid: …`.
 */
export function watchParams(query: QueryParams): WatchParams {
  // Decoded with the other list options, though a watch does not use it.
  const limit = query.get("limit");
  if (limit !== null && limit !== "") parseGoInt64(limit);
  const timeout = query.get("timeoutSeconds");
  const timeoutSeconds = timeout === null ? 0 : parseGoInt64(timeout);
  let initial = query.has("sendInitialEvents") ? queryBool(query.get("sendInitialEvents")) : undefined;
  let match = query.get("resourceVersionMatch") ?? "";
  const rv = query.get("resourceVersion") ?? "";
  if (initial === undefined && match === "" && (rv === "" || rv === "0")) {
    initial = true;
    match = "NotOlderThan";
  }
  const errs: FieldError[] = [];
  const path = FieldPath.of("resourceVersionMatch");
  if (initial !== undefined && match !== "NotOlderThan") {
    errs.push(fieldError.forbidden(path, "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"));
  }
  if (match !== "") {
    if (initial === undefined) errs.push(fieldError.forbidden(path, "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"));
    if (match !== "NotOlderThan") errs.push(fieldError.notSupported(path, match, ["NotOlderThan"]));
    if ((query.get("continue") ?? "") !== "") errs.push(fieldError.forbidden(path, "resourceVersionMatch is forbidden when continue is provided"));
  }
  if (errs.length > 0) throw invalidListOptions(errs);
  return { sendInitialEvents: initial, allowWatchBookmarks: query.has("allowWatchBookmarks") && queryBool(query.get("allowWatchBookmarks")), timeoutSeconds };
}

/** `APIObjectVersioner.ParseResourceVersion` ("" and "0" are 0), with the store's 400 text. */
export function parseResourceVersion(rv: string): number {
  if (rv === "" || rv === "0") return 0;
  if (!/^\d+$/.test(rv) || !Number.isSafeInteger(Number(rv))) {
    const reason = /^\d+$/.test(rv) ? "value out of range" : "invalid syntax";
    throw apiErrors.badRequest(
      `invalid resource version: resourceVersion: Invalid value: ${goQuote(rv)}: strconv.ParseUint: parsing ${goQuote(rv)}: ${reason}`,
    );
  }
  return Number(rv);
}

/** `storage.NewTooLargeResourceVersionError(minimum, current, retrySeconds)`: 504 Timeout. */
export function tooLargeResourceVersion(minimum: number, current: number, retrySeconds = 0): ApiError {
  const e = apiErrors.timeout(`Too large resource version: ${minimum}, current: ${current}`);
  e.status.details = { causes: [{ reason: "ResourceVersionTooLarge", message: "Too large resource version" }] };
  if (retrySeconds > 0) e.status.details.retryAfterSeconds = retrySeconds;
  return e;
}

/** 410 Expired for a continue token whose snapshot was compacted, carrying a token to go on at the latest revision. */
function inconsistentContinue(continueKey: string, prefix: string): ApiError {
  const e = apiErrors.expired(INCONSISTENT_CONTINUE_MESSAGE);
  (e.status as unknown as { metadata: JsonObject }).metadata = { continue: encodeContinue(continueKey, prefix, -1) };
  return e;
}

/** One page of a list. */
export interface ListPage {
  items: JsonObject[];
  revision: number;
  continueToken: string;
  remainingItemCount?: number;
}

/**
 * The namespace a list reads (`Store.ListPredicate`): the request's, or for a list across all namespaces of a
 * namespaced resource without a continue token, the one valid namespace its field selector requires (the continue
 * tokens of that list are relative to the namespace; a token followed without the selector's narrowing resumes
 * across all namespaces, as Kubernetes does).
 */
function listNamespace(r: RestRequest, filters: Filters, p: ListParams): string {
  if (r.namespace !== "" || !r.rt.namespaced || p.continueToken !== "") return r.namespace;
  const ns = filters.fields.exactMatch("metadata.namespace");
  return ns !== undefined && isDNS1123Label(ns).length === 0 ? ns : r.namespace;
}

/**
 * The key a list without a continue token reads alone (`Store.ListPredicate`'s `MatchesSingle`): the field selector
 * requires one name that the store's key function takes (a path segment; a namespaced resource's namespace known).
 */
function singleKey(r: RestRequest, filters: Filters, p: ListParams, namespace: string): string | undefined {
  if (p.continueToken !== "") return undefined;
  const name = filters.fields.exactMatch("metadata.name");
  if (name === undefined || name === "" || isPathSegmentName(name).length > 0) return undefined;
  if (r.rt.namespaced && namespace === "") return undefined;
  return objectKey(r.rt, namespace, name);
}

/**
 * A list of one key (`GetList` with `Recursive: false`): at most that object, never a continue token. As the cacher
 * delegates it: an Exact resourceVersion, or a legacy one with a limit, is read from etcd (Exact at that revision,
 * the legacy one as a minimum; a future one is etcd's 504 without a retry time); any other from the watch cache (a
 * future minimum is the cache's 504 with `retryAfterSeconds: 1`).
 */
async function singleObjectPage(r: RestRequest, filters: Filters, p: ListParams, key: string): Promise<ListPage> {
  const fromEtcd = p.match === "Exact" || (p.match === "" && p.limit > 0 && p.resourceVersion !== "" && p.resourceVersion !== "0");
  const exact = p.match === "Exact" ? parseResourceVersion(p.resourceVersion) : 0;
  const minimum = exact > 0 ? 0 : parseResourceVersion(p.resourceVersion);
  let read: { items: StoredValue[]; revision: number };
  try {
    read = await r.store.listRange(key, { ...(exact > 0 ? { revision: exact } : {}), startKey: key, limit: 1 });
  } catch (e) {
    if (e instanceof FutureRevisionError) throw tooLargeResourceVersion(e.requested, e.current);
    if (e instanceof RevisionCompactedError) throw apiErrors.expired(LIST_EXPIRED_MESSAGE);
    throw e;
  }
  if (minimum > read.revision) throw tooLargeResourceVersion(minimum, read.revision, fromEtcd ? 0 : CACHE_RETRY_SECONDS);
  const items: JsonObject[] = [];
  const sv = read.items[0];
  if (sv !== undefined && sv.key === key) {
    let obj: JsonObject;
    try {
      obj = await decodeStored(r.rt, sv, p.resourceVersion === "0");
    } catch (e) {
      if (e instanceof CorruptObjectError) throw storageReadError(r.rt.plural, r.rt.group, [e]);
      throw e;
    }
    if (filters.matches(obj)) items.push(obj);
  }
  return { items, revision: read.revision, continueToken: "" };
}

/**
 * Lists a collection as etcd3 `GetList` does: reads chunks of the snapshot at the list's revision,
 * filters them with the selectors until `limit` objects matched, and returns a continue token when
 * keys remain (`remainingItemCount` only without selectors). A future resourceVersion is the watch cache's 504 (the
 * cacher serves every list of many keys at a revision it has not reached yet).
 */
export async function listPage(r: RestRequest, filters: Filters, p: ListParams): Promise<ListPage> {
  const namespace = listNamespace(r, filters, p);
  const single = singleKey(r, filters, p, namespace);
  if (single !== undefined) return singleObjectPage(r, filters, p, single);
  const prefix = collectionPrefix(r.rt, namespace);
  const paging = p.limit > 0;
  let withRev = 0;
  let continueKey: string | undefined;
  if (p.continueToken !== "") {
    let decoded: { key: string; revision: number };
    try {
      decoded = decodeContinue(p.continueToken, prefix);
    } catch (e) {
      if (e instanceof ContinueTokenError) throw apiErrors.badRequest(`invalid continue token: ${e.message}`);
      throw e;
    }
    if (p.resourceVersion !== "" && p.resourceVersion !== "0") {
      throw apiErrors.badRequest("specifying resource version is not allowed when using continue");
    }
    continueKey = decoded.key;
    if (decoded.revision > 0) withRev = decoded.revision;
  } else if (p.resourceVersion !== "") {
    const parsed = parseResourceVersion(p.resourceVersion);
    if (p.match === "Exact" || (p.match === "" && paging && parsed > 0)) withRev = parsed;
  }
  const minimum = withRev === 0 ? parseResourceVersion(p.resourceVersion) : 0;
  const items: JsonObject[] = [];
  const corrupt: CorruptObjectError[] = [];
  let chunkLimit = p.limit;
  let startKey = continueKey;
  let lastKey: string | undefined;
  let hasMore = false;
  let count = 0;
  for (;;) {
    let chunk: { items: StoredValue[]; revision: number; count: number };
    try {
      chunk = await r.store.listRange(prefix, {
        ...(withRev > 0 ? { revision: withRev } : {}),
        ...(startKey !== undefined ? { startKey } : {}),
        ...(paging ? { limit: chunkLimit } : {}),
      });
    } catch (e) {
      if (e instanceof FutureRevisionError) throw tooLargeResourceVersion(e.requested, e.current, CACHE_RETRY_SECONDS);
      if (e instanceof RevisionCompactedError) {
        throw continueKey !== undefined ? inconsistentContinue(continueKey, prefix) : apiErrors.expired(LIST_EXPIRED_MESSAGE);
      }
      throw e;
    }
    if (withRev === 0) {
      if (minimum > chunk.revision) throw tooLargeResourceVersion(minimum, chunk.revision, CACHE_RETRY_SECONDS);
      withRev = chunk.revision;
    }
    count = chunk.count;
    const chunkHasMore = chunk.items.length < chunk.count;
    let limitReached = false;
    for (const sv of chunk.items) {
      if (paging && items.length >= p.limit) {
        limitReached = true;
        break;
      }
      lastKey = sv.key;
      let obj: JsonObject;
      try {
        // resourceVersion=0 is served from the watch cache (objects converted when their change arrived).
        obj = await decodeStored(r.rt, sv, p.resourceVersion === "0");
      } catch (e) {
        // The API server reads on past objects it cannot decode and names them all in one error.
        if (!(e instanceof CorruptObjectError)) throw e;
        corrupt.push(e);
        continue;
      }
      if (filters.matches(obj)) items.push(obj);
    }
    hasMore = chunkHasMore || limitReached;
    if (limitReached || !chunkHasMore || (paging && items.length >= p.limit) || lastKey === undefined) break;
    startKey = `${lastKey}\u0000`;
    chunkLimit = Math.min(chunkLimit * 2, MAX_CHUNK);
  }
  if (corrupt.length > 0) throw storageReadError(r.rt.plural, r.rt.group, corrupt);
  const page: ListPage = { items, revision: withRev, continueToken: "" };
  if (hasMore && lastKey !== undefined) {
    page.continueToken = encodeContinue(`${lastKey}\u0000`, prefix, withRev);
    if (filters.labels.empty && filters.fields.empty) page.remainingItemCount = count - p.limit;
  }
  return page;
}
