/**
 * `?watch=true` on collections: newline-delimited JSON events, headers flushed at once, Kubernetes'
 * resourceVersion semantics (absent or "0": synthetic ADDED for the current state, then changes; N:
 * changes after N, replayed from the store's history; 410 Expired when N was compacted away).
 */
import { RevisionCompactedError, type StoreEvent, type StoreWatch } from "../../storage/types.js";
import { toJson } from "./http-io.js";
import type { JsonObject, JsonValue } from "../../value/json-value.js";
import { ApiError, apiErrors } from "./errors.js";
import { warningHeaders } from "./warning-headers.js";
import { auditHeader } from "../filters/audit-id.js";
import { tooLargeResourceVersion, watchParams } from "./list-paging.js";
import { goUintProblem } from "./query-params.js";
import { groupVersion } from "../registry/resource-type.js";

/** How often a watch with `allowWatchBookmarks=true` gets a BOOKMARK event. */
const BOOKMARK_INTERVAL_MS = 60_000;
/** How long a watch-list request waits for the store to reach its resourceVersion (the watch cache's blockTimeout). */
const FRESH_WAIT_MS = 3000;
/** Events a watch client has not read yet, past which its watch is ended. */
export const MAX_UNREAD_WATCH_BYTES = 16 * 1024 * 1024;
import { collectionPrefix, decodeObject, outputMode, parseFilters, type RestRequest } from "./rest-common.js";
import { listObjects } from "./rest-read.js";
import { partialObjectMetadata } from "../tableconvertor/table.js";

/** Starts a watch; resolves when the stream ends. */
export async function serveWatch(r: RestRequest, onClose: (stop: () => void) => void): Promise<void> {
  const params = watchParams(r.query);
  const filters = parseFilters(r.rt, r.query);
  const mode = outputMode(r.req, r.query);
  const rvParam = r.query.get("resourceVersion") ?? "";
  const rvProblem = rvParam === "" ? undefined : goUintProblem(rvParam);
  if (rvProblem !== undefined) {
    // The watch cache parses it with strconv.ParseUint and reports a plain 500.
    throw apiErrors.internalPlain(`resourceVersion: Invalid value: ${JSON.stringify(rvParam)}: strconv.ParseUint: parsing ${JSON.stringify(rvParam)}: ${rvProblem}`);
  }
  const rvNumber = rvParam === "" ? 0 : Number(rvParam);
  const timeoutParam = params.timeoutSeconds;
  const bookmarks = params.allowWatchBookmarks;
  let lastSent = 0;
  const res = r.res;
  let first = true;
  const render = (obj: JsonObject): JsonValue => {
    if (mode.convert?.kind === "PartialObjectMetadata") return partialObjectMetadata(obj, mode.convert.apiVersion);
    if (!mode.table) return obj;
    const meta = obj["metadata"] as JsonObject | undefined;
    const rv = typeof meta?.["resourceVersion"] === "string" ? (meta["resourceVersion"] as string) : undefined;
    const t = r.rt.table.table([obj], rv, mode.include, !first, mode.convert?.apiVersion);
    first = false;
    return t;
  };
  const send = (type: string, obj: JsonValue) => {
    if (res.writableEnded) return;
    // metav1.WatchEvent's field order: type, then object.
    res.write(`{"type":${JSON.stringify(type)},"object":${toJson(obj)}}\n`);
    // A client that does not read would make the server buffer every event: end its watch, as the API
    // server closes unresponsive watchers (the client re-watches from its last resourceVersion).
    if (res.writableLength > MAX_UNREAD_WATCH_BYTES) stop();
  };
  const deliverNow = async (e: StoreEvent) => {
    lastSent = e.revision;
    const cur = await decodeObject(r.rt, e.value, e.revision, { key: e.key, cached: true });
    const curMatch = filters.matches(cur);
    if (e.type === "ADDED") {
      if (curMatch) send("ADDED", render(cur));
      return;
    }
    const prev = e.prevValue === undefined ? undefined : await decodeObject(r.rt, e.prevValue, e.revision, { key: e.key, cached: true });
    const prevMatch = prev !== undefined && filters.matches(prev);
    if (e.type === "DELETED") {
      if (curMatch) send("DELETED", render(cur));
    } else if (curMatch && prevMatch) send("MODIFIED", render(cur));
    else if (curMatch) send("ADDED", render(cur));
    // Out of the selection: the cacher sends the previous state (with the event's resourceVersion).
    else if (prevMatch) send("DELETED", render(prev));
  };
  // Events are decoded (converted, possibly by a webhook) one after another, in order. An event that
  // cannot be decoded ends the watch with an ERROR event, as the API server's watcher does.
  let chain: Promise<void> = Promise.resolve();
  const deliver = (e: StoreEvent) => {
    chain = chain.then(async () => {
      if (res.writableEnded) return;
      try {
        await deliverNow(e);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        send("ERROR", err.status as unknown as JsonValue);
        stop();
      }
    });
  };

  // The initial state and the store watch come before the headers, so that a store failure is an
  // ordinary error answer. Events arriving before the stream is open wait in `early`.
  let initial: JsonObject[] = [];
  let from: number;
  /** The BOOKMARK that ends the initial events of a watch-list request (`sendInitialEvents` with bookmarks). */
  let initialEnd: JsonObject | undefined;
  let tooLarge: ApiError | undefined;
  if (params.sendInitialEvents === true) {
    // The current state, once the store has reached the requested resourceVersion (NotOlderThan): the watch
    // cache waits up to 3 s for it, then the watch ends with a Too large resource version ERROR event.
    let l = await listObjects(r);
    for (let waited = 0; l.revision < rvNumber && waited < FRESH_WAIT_MS; waited += 100) {
      await new Promise((res) => setTimeout(res, 100));
      l = await listObjects(r);
    }
    if (l.revision < rvNumber) tooLarge = tooLargeResourceVersion(rvNumber, l.revision, 1);
    initial = l.items;
    from = l.revision;
    if (bookmarks) {
      // An empty object of the kind (a typed kind's Go zero value) carrying the annotation and revision.
      initialEnd = {
        ...(r.rt.createBase?.() ?? {}),
        apiVersion: groupVersion(r.rt.group, r.rt.version),
        kind: r.rt.kind,
        metadata: { annotations: { "k8s.io/initial-events-end": "true" }, resourceVersion: String(from) },
      };
    }
  } else if (params.sendInitialEvents === false && rvNumber === 0) {
    // No initial events, from now ("") or from any resourceVersion ("0"): the current one.
    from = (await listObjects(r)).revision;
  } else from = rvNumber;
  let early: StoreEvent[] | undefined = [];
  let broken: Error | undefined;
  let stop: () => void = () => {};
  const onEvent = (e: StoreEvent) => {
    if (early) early.push(e);
    else deliver(e);
  };
  const onError = (e: Error) => {
    broken = e;
    if (!early) endBroken();
  };
  const endBroken = () => {
    // A watch broken under us (history compacted, store restarted) ends the stream; clients re-list.
    if (broken instanceof RevisionCompactedError) send("ERROR", apiErrors.expired(broken.message).status as unknown as JsonValue);
    stop();
  };
  let watch: StoreWatch | undefined;
  let compacted: RevisionCompactedError | undefined;
  const cacheStart = r.rt.watchCacheStart;
  if (from > 0 && cacheStart !== undefined && from < cacheStart) {
    // Older than the watch cache: the API server answers an ERROR event, not a replay from etcd.
    compacted = new RevisionCompactedError(from, cacheStart);
  } else {
    try {
      watch = await r.store.watch(collectionPrefix(r.rt, r.namespace), from, onEvent, onError);
    } catch (e) {
      if (!(e instanceof RevisionCompactedError)) throw e;
      compacted = e;
    }
  }
  res.writeHead(200, {
    "Content-Type": "application/json",
    "Cache-Control": "no-cache, private",
    // HTTP/2 frames the body itself (connection-specific headers are not allowed there).
    ...(r.req.httpVersionMajor === 2 ? {} : { "Transfer-Encoding": "chunked" }),
    // A deprecated version warns on watches too (the custom resource handler warns on every verb).
    ...(r.rt.deprecationWarning ? { Warning: warningHeaders([r.rt.deprecationWarning]) } : {}),
    ...auditHeader(res),
  });
  res.flushHeaders();
  if (tooLarge) {
    send("ERROR", tooLarge.status as unknown as JsonValue);
    res.end();
    return;
  }
  if (compacted) {
    send("ERROR", apiErrors.expired(compacted.message).status as unknown as JsonValue);
    res.end();
    return;
  }
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    let bookmarkTimer: NodeJS.Timeout | undefined;
    let done = false;
    stop = () => {
      if (done) return;
      done = true;
      watch?.cancel();
      if (timer) clearTimeout(timer);
      if (bookmarkTimer) clearInterval(bookmarkTimer);
      if (!res.writableEnded) res.end();
      resolve();
    };
    r.req.on("close", stop);
    res.on("close", stop);
    onClose(stop);
    if (r.req.destroyed || res.destroyed) {
      stop();
      return;
    }
    for (const o of initial) send("ADDED", render(o));
    // As every event, a Table watch gets the bookmark as a Table (its row the empty object's cells).
    if (initialEnd) send("BOOKMARK", render(initialEnd));
    const queued = early ?? [];
    early = undefined;
    for (const e of queued) deliver(e);
    if (broken) {
      endBroken();
      return;
    }
    // The initial state alone may have been more than the client read.
    if (done) return;
    if (timeoutParam > 0) timer = setTimeout(stop, timeoutParam * 1000);
    if (bookmarks) {
      // Periodic BOOKMARK events carry a revision through which this watch has delivered every event
      // (the store's progress, e.g. etcd's progress notification), so clients can resume without a re-list.
      bookmarkTimer = setInterval(() => {
        void watch?.progress().then((progress) =>
          send("BOOKMARK", {
            kind: r.rt.kind,
            apiVersion: groupVersion(r.rt.group, r.rt.version),
            metadata: { resourceVersion: String(Math.max(lastSent, from, progress)) },
          }),
        );
      }, BOOKMARK_INTERVAL_MS);
      bookmarkTimer.unref();
    }
  });
}
