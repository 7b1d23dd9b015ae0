/**
 * The {@link Store} on etcd v3, with kube-apiserver's etcd3 storage semantics: the resourceVersion is the
 * key's mod revision; creates are a Txn `If(mod_revision(key) == 0) Then(Put)`; updates and deletes a Txn
 * comparing the mod revision the request was based on, `Else(Get)` to tell a conflict from a missing key;
 * lists are ranges at a revision with etcd's `count`; watches are etcd watches from revision+1 with
 * `prev_kv` (PUT with create==mod revision is ADDED, other PUTs MODIFIED, DELETE carries the previous
 * value). Keys: the server's `/registry/…` keys live under `--etcd-prefix` (default `/registry`), values are
 * the objects' JSON as the API server writes it (`json.Marshal` plus the encoder's newline).
 */
import {
  FutureRevisionError,
  KeyExistsError,
  KeyNotFoundError,
  type ListRange,
  type ListRangeResult,
  RevisionCompactedError,
  RevisionConflictError,
  type Store,
  type StoredValue,
  type StoreEvent,
  type StoreWatch,
  StoreUnavailableError,
  type WatchOptions,
} from "../types.js";
import {
  DEADLINE_TEXT,
  EtcdClient,
  EtcdCompactedError,
  type EtcdConnection,
  EtcdFutureRevisionError,
  type EtcdKv,
  mapGrpcError,
  type WatchResponse,
} from "./etcd-client.js";
import type { Compare, RangeRequest } from "./etcd-codec.js";
import type { CachedChange } from "./etcd-cache-subscribers.js";
import { EtcdCompactor } from "./etcd-compactor.js";
import { EtcdReadBatcher } from "./etcd-read-batcher.js";
import { BEHIND, EtcdWatchCache, NOT_CACHED, type WatchCacheHooks } from "./etcd-watch-cache.js";

/** The root of the server's keys; `--etcd-prefix` replaces it in etcd. */
const ROOT = "/registry";

export interface EtcdStoreOptions extends EtcdConnection {
  /** kube-apiserver's `--etcd-prefix` (default `/registry`). */
  prefix?: string;
  /** kube-apiserver's `--etcd-compaction-interval` in ms (default 5 minutes; 0 disables). */
  compactionIntervalMs?: number;
  /** Receives compaction failures (default: ignored; the next interval tries again). */
  onCompactionError?: (e: unknown) => void;
  /**
   * Reads of the current state (single keys, lists without a revision) from a watch cache
   * (etcd-watch-cache.ts; default true, as kube-apiserver's `--watch-cache`): still linearizable, without
   * reading the keys from etcd.
   */
  watchCache?: boolean;
  /** Test hooks of the watch cache. */
  watchCacheHooks?: WatchCacheHooks;
}

/** How long a shared watch waits for the watch cache's first build before watching etcd itself. */
const CACHE_READY_TIMEOUT_MS = 3000;

/** etcd's range end for "every key with this prefix": the prefix with its last byte incremented. */
function prefixEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i]! < 0xff) {
      end[i]! += 1;
      return end.subarray(0, i + 1);
    }
  }
  return Buffer.from([0]);
}

/** Text whose UTF-8 bytes are its own characters. */
const ASCII = /^[\x00-\x7f]*$/;

/** A {@link Store} on an etcd v3 cluster. */
export class EtcdStore implements Store {
  readonly client: EtcdClient;
  private readonly prefix: string;
  private readonly watches = new Set<StoreWatch>();
  private readonly compactor: EtcdCompactor;
  private readonly reads: EtcdReadBatcher;
  /** The stored values of the watch cache's key-values, decoded on their first read (see cachedStored). */
  private readonly decodedKvs = new WeakMap<EtcdKv, StoredValue>();
  /** The watch cache (undefined when turned off); started by the first read. */
  readonly cache: EtcdWatchCache | undefined;

  constructor(opts: EtcdStoreOptions) {
    const p = opts.prefix ?? ROOT;
    this.prefix = p.endsWith("/") ? p.slice(0, -1) : p;
    this.client = new EtcdClient(opts);
    this.compactor = new EtcdCompactor(this.client, opts.compactionIntervalMs ?? 5 * 60_000, opts.onCompactionError);
    this.compactor.start();
    // The store's keys are all under ROOT + "/": keys of another prefix that merely starts with this one
    // (`/registry2/…` beside `/registry/…`) are not kept in the cache, and prefix `/` still has a non-empty key.
    const root = this.etcdKey(`${ROOT}/`);
    this.reads = new EtcdReadBatcher(
      (req, deadline) => this.client.txn(req, deadline, true),
      this.client.callTimeoutMs,
      root,
      (req, deadline) => this.client.range(req, deadline),
    );
    this.cache = opts.watchCache === false ? undefined : new EtcdWatchCache(this.client, root, prefixEnd(root), opts.watchCacheHooks);
  }

  /** Read calls sent to etcd (Txns and revision Ranges) and the reads they answered so far (diagnostics). */
  get readStats(): { batches: number; reads: number } {
    return { ...this.reads.stats };
  }

  /** The etcd key of a store key. */
  etcdKey(key: string): Buffer {
    return Buffer.from(this.prefix + (key.startsWith(ROOT) ? key.slice(ROOT.length) : key));
  }

  private storeKey(k: Buffer): string {
    return ROOT + k.toString("utf8").slice(this.prefix.length);
  }

  private stored(kv: EtcdKv): StoredValue {
    return { key: this.storeKey(kv.key), value: decodeValue(kv.value), createRevision: kv.create_revision, modRevision: kv.mod_revision };
  }

  /**
   * The stored value of a key-value the watch cache holds, decoded once per cached key-value (frozen: every
   * read of the unchanged key gets this one object, and its text is the same string, which the server's
   * remembered answers compare at no cost).
   */
  private cachedStored(kv: EtcdKv): StoredValue {
    let sv = this.decodedKvs.get(kv);
    if (sv === undefined) {
      sv = Object.freeze(this.stored(kv));
      this.decodedKvs.set(kv, sv);
    }
    return sv;
  }

  async currentRevision(): Promise<number> {
    return (await this.client.range({ key: this.etcdKey(ROOT), count_only: true })).header.revision;
  }

  /** The etcd server version (Maintenance Status). */
  async serverVersion(): Promise<string> {
    return (await this.client.status()).version;
  }

  /** The latin1 string of the etcd key's bytes (the watch cache's form of its keys): the key itself when ASCII. */
  private etcdKeyText(key: string): string {
    const text = this.prefix + (key.startsWith(ROOT) ? key.slice(ROOT.length) : key);
    return ASCII.test(text) ? text : Buffer.from(text).toString("latin1");
  }

  async get(key: string): Promise<StoredValue | undefined> {
    const cache = this.cache;
    if (cache?.isReady) {
      const revision = await this.reads.revision();
      const text = this.etcdKeyText(key);
      let kv = cache.lookupCurrentText(text, revision);
      if (kv === BEHIND) kv = await cache.lookup(Buffer.from(text, "latin1"), revision);
      if (kv !== NOT_CACHED) return kv ? this.cachedStored(kv) : undefined;
    } else cache?.start();
    const { kv } = await this.reads.get(this.etcdKey(key));
    return kv ? this.stored(kv) : undefined;
  }

  /** The key as this replica's watch cache has it, without asking etcd (see {@link Store.peek}). */
  peek(key: string): { value: StoredValue | undefined } | undefined {
    const cache = this.cache;
    if (!cache?.isReady) {
      cache?.start();
      return undefined;
    }
    const kv = cache.peek(this.etcdKey(key));
    if (kv === NOT_CACHED) return undefined;
    return { value: kv ? this.cachedStored(kv) : undefined };
  }

  async list(prefix: string): Promise<{ items: StoredValue[]; revision: number }> {
    const k = this.etcdKey(prefix);
    const cached = await this.cachedRange(k, prefixEnd(k), 0);
    if (cached) return { items: cached.items, revision: cached.revision };
    const r = await this.client.range({ key: k, range_end: prefixEnd(k) });
    return { items: r.kvs.map((kv) => this.stored(kv)), revision: r.header.revision };
  }

  /** A consistent range of the current keys from the watch cache, or undefined when it cannot answer. */
  private async cachedRange(start: Buffer, end: Buffer, limit: number): Promise<ListRangeResult | undefined> {
    const cache = this.cache;
    if (!cache?.isReady) {
      cache?.start();
      return undefined;
    }
    const r = await cache.range(start, end, limit, await this.reads.revision());
    if (r === NOT_CACHED) return undefined;
    return { items: r.kvs.map((kv) => this.stored(kv)), revision: r.revision, count: r.count };
  }

  async listRange(prefix: string, range: ListRange): Promise<ListRangeResult> {
    const k = this.etcdKey(prefix);
    const start = range.startKey !== undefined && range.startKey > prefix ? this.etcdKey(range.startKey) : k;
    if (range.revision === undefined || range.revision <= 0) {
      const cached = await this.cachedRange(start, prefixEnd(k), range.limit ?? 0);
      if (cached) return cached;
    }
    const req: RangeRequest = { key: start, range_end: prefixEnd(k) };
    if (range.limit !== undefined && range.limit > 0) req.limit = range.limit;
    if (range.revision !== undefined && range.revision > 0) req.revision = range.revision;
    try {
      const r = await this.client.range(req);
      // The header carries the store's current revision; a read at a revision is at that revision.
      const at = range.revision !== undefined && range.revision > 0 ? range.revision : r.header.revision;
      return { items: r.kvs.map((kv) => this.stored(kv)), revision: at, count: r.count };
    } catch (e) {
      if (e instanceof EtcdCompactedError) throw new RevisionCompactedError(range.revision ?? 0, await this.compactRevision(k));
      if (e instanceof EtcdFutureRevisionError) throw new FutureRevisionError(range.revision ?? 0, await this.currentRevision());
      throw e;
    }
  }

  async create(key: string, value: string): Promise<StoredValue> {
    const k = this.etcdKey(key);
    const r = await this.client.txn({
      compare: [{ result: "EQUAL", target: "MOD", key: k, mod_revision: 0 }],
      success: [{ request_put: { key: k, value: encodeValue(value) } }],
      failure: [],
    });
    if (!r.succeeded) throw new KeyExistsError(key);
    return { key, value, createRevision: r.header.revision, modRevision: r.header.revision };
  }

  /** The guard of a conditional write: the expected mod revision, or "exists" when unconditional. */
  private guard(k: Buffer, expectedRevision: number | undefined): Compare {
    return expectedRevision === undefined
      ? { result: "GREATER", target: "CREATE", key: k, create_revision: 0 }
      : { result: "EQUAL", target: "MOD", key: k, mod_revision: expectedRevision };
  }

  /** After a failed guard: the key is missing, or was changed since `expected`. */
  private guardFailure(key: string, expected: number | undefined, r: { responses: { response_range?: { kvs: EtcdKv[] } }[] }): Error {
    const cur = r.responses[0]?.response_range?.kvs[0];
    if (!cur) return new KeyNotFoundError(key);
    return new RevisionConflictError(key, expected ?? 0, cur.mod_revision);
  }

  async update(key: string, value: string, expectedRevision?: number): Promise<StoredValue> {
    const k = this.etcdKey(key);
    const r = await this.client.txn({
      compare: [this.guard(k, expectedRevision)],
      success: [{ request_put: { key: k, value: encodeValue(value), prev_kv: true } }],
      failure: [{ request_range: { key: k } }],
    });
    if (!r.succeeded) throw this.guardFailure(key, expectedRevision, r);
    const prev = r.responses[0]?.response_put?.prev_kv;
    return { key, value, createRevision: prev?.create_revision ?? r.header.revision, modRevision: r.header.revision };
  }

  async delete(key: string, expectedRevision?: number): Promise<{ last: StoredValue; revision: number }> {
    const k = this.etcdKey(key);
    const r = await this.client.txn({
      compare: [this.guard(k, expectedRevision)],
      success: [{ request_delete_range: { key: k, prev_kv: true } }],
      failure: [{ request_range: { key: k } }],
    });
    if (!r.succeeded) throw this.guardFailure(key, expectedRevision, r);
    const prev = r.responses[0]?.response_delete_range?.prev_kvs[0];
    if (!prev) throw new KeyNotFoundError(key);
    return { last: this.stored(prev), revision: r.header.revision };
  }

  /** Compacts etcd's history up to `revision` (watches and lists before it answer 410 afterwards). */
  async compact(revision: number): Promise<void> {
    await this.client.compact(revision);
  }

  async deletePrefix(prefix: string): Promise<number> {
    const k = this.etcdKey(prefix);
    return (await this.client.deleteRange({ key: k, range_end: prefixEnd(k) })).deleted;
  }

  /**
   * Hands one watched change to `onEvent`; the error that ends the watch when the change cannot be read (a
   * delete or update without its previous value) or the handler throws, else undefined.
   */
  private deliver(deleted: boolean, kv: EtcdKv, prev: EtcdKv | null | undefined, onEvent: (e: StoreEvent) => void): Error | undefined {
    const e = this.event(deleted, kv, prev);
    if (!e) return new StoreUnavailableError(`etcd event for ${this.storeKey(kv.key)} has no previous value`);
    try {
      onEvent(e);
      return undefined;
    } catch (err) {
      return err instanceof Error ? err : new Error(String(err));
    }
  }

  /**
   * The store event of an etcd change (`prev`: the key's previous value; undefined for a deletion without it,
   * which cannot be told).
   */
  private event(deleted: boolean, kv: EtcdKv, prev: EtcdKv | null | undefined): StoreEvent | undefined {
    const key = this.storeKey(kv.key);
    const prevValue = prev ? decodeValue(prev.value) : undefined;
    // The deleted object is the previous value (etcd3 watcher: prevKV of a delete).
    if (deleted) return prevValue === undefined ? undefined : { type: "DELETED", key, revision: kv.mod_revision, value: prevValue, prevValue };
    const value = decodeValue(kv.value);
    if (kv.create_revision === kv.mod_revision) return { type: "ADDED", key, revision: kv.mod_revision, value };
    const e: StoreEvent = { type: "MODIFIED", key, revision: kv.mod_revision, value };
    if (prevValue !== undefined) e.prevValue = prevValue;
    return e;
  }

  async watch(
    prefix: string,
    fromRevision: number,
    onEvent: (e: StoreEvent) => void,
    onError?: (e: Error) => void,
    options?: WatchOptions,
  ): Promise<StoreWatch> {
    const k = this.etcdKey(prefix);
    if (options?.shared && this.cache) {
      const w = await this.cacheWatch(this.cache, k, fromRevision, onEvent, onError);
      if (w) return w;
    }
    if (fromRevision > 0) {
      // A watch on compacted history is cancelled by etcd after creation; a range at the start revision
      // answers the same question up front, so the caller gets the error instead of an empty watch.
      try {
        await this.client.range({ key: k, range_end: prefixEnd(k), revision: fromRevision, count_only: true });
      } catch (e) {
        if (e instanceof EtcdCompactedError) throw new RevisionCompactedError(fromRevision, await this.compactRevision(k));
        if (!(e instanceof EtcdFutureRevisionError)) throw e;
      }
    }
    const call = this.client.watchStream();
    return new Promise<StoreWatch>((resolve, reject) => {
      let created = false;
      let ended = false;
      // Pending progress requests: etcd answers one with an event-less response whose header revision
      // is a point through which every event of the (synced) watcher has been sent.
      let progressWaiters: ((rev: number) => void)[] = [];
      const endProgress = () => {
        for (const w of progressWaiters) w(0);
        progressWaiters = [];
      };
      const handle: StoreWatch = {
        cancel: () => {
          if (ended) return;
          ended = true;
          endProgress();
          this.watches.delete(handle);
          call.cancel();
        },
        progress: () => {
          if (ended) return Promise.resolve(0);
          return new Promise<number>((resolve) => {
            const timer = setTimeout(() => {
              progressWaiters = progressWaiters.filter((w) => w !== done);
              resolve(0);
            }, Math.min(this.client.callTimeoutMs, 5000));
            timer.unref();
            const done = (rev: number) => {
              clearTimeout(timer);
              resolve(rev);
            };
            progressWaiters.push(done);
            call.write({ progress_request: {} });
          });
        },
      };
      const fail = (err: Error) => {
        if (ended) return;
        ended = true;
        endProgress();
        clearTimeout(timer);
        this.watches.delete(handle);
        call.cancel();
        if (!created) reject(err);
        else onError?.(err);
      };
      const timer = setTimeout(() => fail(new StoreUnavailableError(DEADLINE_TEXT, true)), this.client.callTimeoutMs);
      timer.unref();
      call.on("data", (r: WatchResponse) => {
        if (ended) return;
        if (r.created && !created) {
          created = true;
          clearTimeout(timer);
          this.watches.add(handle);
          resolve(handle);
        }
        if (r.compact_revision > 0) {
          fail(new RevisionCompactedError(fromRevision, r.compact_revision));
          return;
        }
        if (r.canceled) {
          fail(new StoreUnavailableError(`etcd cancelled the watch: ${r.cancel_reason}`));
          return;
        }
        if (r.events.length === 0 && !r.created && progressWaiters.length > 0) {
          const waiters = progressWaiters;
          progressWaiters = [];
          for (const w of waiters) w(r.header.revision);
          return;
        }
        for (const ev of r.events) {
          const err = this.deliver(ev.type === "DELETE", ev.kv, ev.prev_kv, onEvent);
          if (err) {
            fail(err);
            return;
          }
        }
      });
      call.on("error", (e) => fail(mapGrpcError(e as Parameters<typeof mapGrpcError>[0])));
      call.on("end", () => fail(new StoreUnavailableError("etcd closed the watch stream")));
      call.write({
        create_request: { key: k, range_end: prefixEnd(k), start_revision: fromRevision + 1, prev_kv: true, progress_notify: true },
      });
    });
  }

  /**
   * A watch of the etcd range of `k` fed by the watch cache's own etcd watch (see {@link WatchOptions.shared}),
   * or undefined when the cache cannot serve it (not ready in time, or it has already applied changes after
   * `fromRevision`): the caller then watches etcd. A cache that is dropped (its watch broke) breaks the watch.
   */
  private async cacheWatch(
    cache: EtcdWatchCache,
    k: Buffer,
    fromRevision: number,
    onEvent: (e: StoreEvent) => void,
    onError: ((e: Error) => void) | undefined,
  ): Promise<StoreWatch | undefined> {
    if (!(await cache.whenReady(Math.min(this.client.callTimeoutMs, CACHE_READY_TIMEOUT_MS)))) return undefined;
    let ended = false;
    const end = (err?: Error) => {
      if (ended) return;
      ended = true;
      unsubscribe?.();
      this.watches.delete(handle);
      if (err) onError?.(err);
    };
    const handle: StoreWatch = {
      cancel: () => end(),
      // Every change through the cache's revision has been delivered (changes are handed over as they are applied).
      progress: () => Promise.resolve(ended ? 0 : cache.currentRevision),
    };
    const unsubscribe = cache.subscribe(
      k,
      prefixEnd(k),
      fromRevision,
      (c: CachedChange) => {
        if (ended) return;
        const err = this.deliver(c.deleted, c.kv, c.prev, onEvent);
        if (err) end(err);
      },
      () => end(new StoreUnavailableError("the watch cache's etcd watch broke")),
    );
    if (!unsubscribe) return undefined;
    this.watches.add(handle);
    return handle;
  }

  /**
   * etcd's compaction revision, which only a watch reveals: one from revision 1 is cancelled with it
   * (0 when unknown in time).
   */
  private compactRevision(k: Buffer): Promise<number> {
    const call = this.client.watchStream();
    return new Promise<number>((resolve) => {
      const done = (rev: number) => {
        clearTimeout(timer);
        call.removeAllListeners("data");
        call.on("error", () => {});
        call.cancel();
        resolve(rev);
      };
      const timer = setTimeout(() => done(0), Math.min(this.client.callTimeoutMs, 5000));
      call.on("data", (r: WatchResponse) => {
        if (r.compact_revision > 0 || r.canceled || r.events.length > 0) done(r.compact_revision);
      });
      call.on("error", () => done(0));
      call.write({ create_request: { key: k, range_end: prefixEnd(k), start_revision: 1 } });
    });
  }

  async close(): Promise<void> {
    this.compactor.stop();
    this.cache?.stop();
    for (const w of [...this.watches]) w.cancel();
    this.client.close();
  }
}

/** The stored bytes: the JSON text and the newline Go's `json.Encoder` (the API server's serializer) ends with. */
function encodeValue(value: string): Buffer {
  return Buffer.from(value.endsWith("\n") ? value : `${value}\n`);
}

/** The JSON text of stored bytes (without the encoder's final newline). */
function decodeValue(b: Buffer): string {
  const s = b.toString("utf8");
  return s.endsWith("\n") ? s.slice(0, -1) : s;
}
