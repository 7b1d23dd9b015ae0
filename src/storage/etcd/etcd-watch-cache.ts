/**
 * Consistent reads from a watch cache (kube-apiserver's KEP-2340, "consistent reads from cache"): every key
 * under the store's prefix (`<prefix>/`, so a neighbour prefix that starts with the same text is not kept;
 * reads of keys outside it go to etcd) is kept in memory, filled by one list and then kept current by one etcd watch. A
 * read first learns etcd's current revision with a linearizable request sent after the read arrived (the
 * read batcher shares one such request between concurrent reads), waits until the cache has applied every
 * change up to that revision, and then answers from memory: it sees every write acknowledged before it
 * arrived, also writes through other crdkit processes on the same etcd.
 *
 * The watch covers etcd's whole key space (only keys under the prefix are kept): every revision is a write
 * with at least one event, so the cache learns each revision in order even when the newest write was made
 * outside the prefix (another tenant of the etcd, the compactor's key), and never waits for a revision it
 * cannot see. Progress notifications would avoid that traffic, but etcd before 3.4.31/3.5.13 may send one
 * ahead of the events it covers (kube-apiserver refuses them there), so they are not used.
 *
 * While the cache is not ready — starting, or rebuilding after its watch broke (etcd restarted, the watch fell
 * behind a compaction) — or when it does not catch up within {@link CATCH_UP_TIMEOUT_MS}, reads go to etcd
 * as before (the caller's fallback), as kube-apiserver falls back to etcd.
 *
 * The cache's watch also serves the server's informers ({@link subscribe}, etcd-cache-subscribers.ts): their
 * changes come from the responses the cache applies, not from etcd watches of their own.
 */
import { type CachedChange, CacheSubscribers } from "./etcd-cache-subscribers.js";
import type { EtcdClient, EtcdKv, WatchResponse } from "./etcd-client.js";
import { SortedKeys } from "../sorted-keys.js";

/** How long a read waits for the cache to reach the revision it needs before reading etcd instead. */
export const CATCH_UP_TIMEOUT_MS = 3000;
/** First delay before rebuilding after a failure; doubled up to {@link MAX_RETRY_MS}. */
const RETRY_MS = 250;
const MAX_RETRY_MS = 5000;

/** What `lookup` answers when the cache cannot answer (not ready, reset, too slow): read etcd instead. */
export const NOT_CACHED = Symbol("not cached");
/** A read the cache can answer only once it has applied more changes ({@link EtcdWatchCache.lookupCurrent}). */
export const BEHIND = Symbol("behind");

/** Hooks for tests: run between the initial list and the watch, and before each watch response is applied. */
export interface WatchCacheHooks {
  afterList?: (revision: number) => Promise<void>;
  beforeApply?: () => Promise<void>;
}

interface Waiter {
  revision: number;
  generation: number;
  resolve: (ok: boolean) => void;
  timer: NodeJS.Timeout;
}

export class EtcdWatchCache {
  /** Keys (latin1 of the etcd key bytes) → their current value; only meaningful while `ready`. */
  private items = new Map<string, EtcdKv>();
  /** The keys of `items` in etcd's order (bytes, which latin1 strings compare as). */
  private sorted = new SortedKeys();
  /** Every change through this revision has been applied. */
  private revision = 0;
  private ready = false;
  /** Increases with every reset, so a read never mixes two builds. */
  private generation = 0;
  private started = false;
  private stopped = false;
  private call: ReturnType<EtcdClient["watchStream"]> | undefined;
  private retry: NodeJS.Timeout | undefined;
  private retryMs = RETRY_MS;
  private waiters: Waiter[] = [];
  /** Callers of {@link whenReady} waiting for the first build. */
  private readyWaiters: (() => void)[] = [];
  private readonly subscribers = new CacheSubscribers();
  /** `prefix` and `prefixEnd` as latin1 strings (which compare as the bytes do). */
  private readonly prefixText: string;
  private readonly prefixEndText: string;
  /** Watch responses applied one after another (a test hook may hold them). */
  private applying: Promise<void> = Promise.resolve();
  /** Rebuilds so far (tests, diagnostics). */
  resets = 0;
  /** Reads answered from the cache so far (tests, diagnostics). */
  served = 0;

  constructor(
    private readonly client: EtcdClient,
    /** The etcd key prefix whose keys are kept (bytes). */
    private readonly prefix: Buffer,
    /** The etcd range end of `prefix`. */
    private readonly prefixEnd: Buffer,
    private readonly hooks: WatchCacheHooks = {},
  ) {
    this.prefixText = prefix.toString("latin1");
    this.prefixEndText = prefixEnd.toString("latin1");
  }

  /** True while reads can be answered from the cache. */
  get isReady(): boolean {
    return this.ready;
  }

  /** The revision through which the cache has applied every change. */
  get currentRevision(): number {
    return this.revision;
  }

  /** Starts filling the cache (once; later calls do nothing). Reads are answered once it is ready. */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.build();
  }

  /** Resolves true once the cache is ready (starting it), false after `timeoutMs` or when it stops. */
  whenReady(timeoutMs: number): Promise<boolean> {
    this.start();
    if (this.ready || this.stopped) return Promise.resolve(this.ready);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        resolve(this.ready);
      };
      const timer = setTimeout(() => {
        this.readyWaiters = this.readyWaiters.filter((w) => w !== done);
        resolve(false);
      }, timeoutMs);
      timer.unref();
      this.readyWaiters.push(done);
    });
  }

  /**
   * Delivers every change of the keys in [`start`, `end`) after revision `from` as the cache applies it (in
   * revision order, with the key's previous value), until the function it returns is called; `onBreak` once if
   * the cache is dropped (its watch broke), after which nothing more is delivered. Undefined when the cache cannot
   * serve it: not ready, a range outside its prefix, or changes after `from` already applied (the caller watches
   * etcd instead).
   */
  subscribe(start: Buffer, end: Buffer, from: number, onChange: (c: CachedChange) => void, onBreak: () => void): (() => void) | undefined {
    if (!this.ready || !this.holdsRange(start, end) || from < this.revision) return undefined;
    return this.subscribers.add(start.toString("latin1"), end.toString("latin1"), from, onChange, onBreak);
  }

  /** Subscribers of the cache's changes (tests). */
  get subscribed(): number {
    return this.subscribers.size;
  }

  /**
   * The value of the etcd key `key` once the cache has applied every change through `revision` (a
   * revision etcd reported after the read arrived), undefined when the key does not exist then, or
   * {@link NOT_CACHED} when the cache cannot answer.
   */
  async lookup(key: Buffer, revision: number): Promise<EtcdKv | undefined | typeof NOT_CACHED> {
    if (!this.holds(key) || !this.answers(await this.caughtUp(revision))) return NOT_CACHED;
    return this.items.get(key.toString("latin1"));
  }

  /**
   * {@link lookup} without waiting: its answer when the cache has already applied every change through
   * `revision` (or cannot answer), else {@link BEHIND} (then call `lookup`, which waits).
   */
  lookupCurrent(key: Buffer, revision: number): EtcdKv | undefined | typeof NOT_CACHED | typeof BEHIND {
    if (!this.ready || !this.holds(key)) return NOT_CACHED;
    if (this.revision < revision) return BEHIND;
    this.served++;
    return this.items.get(key.toString("latin1"));
  }

  /**
   * {@link lookupCurrent} of a key given as the latin1 string of its bytes (the form the cache keeps its keys in):
   * a GET needs no Buffer of its key.
   */
  lookupCurrentText(key: string, revision: number): EtcdKv | undefined | typeof NOT_CACHED | typeof BEHIND {
    if (!this.ready || !(key >= this.prefixText && key < this.prefixEndText)) return NOT_CACHED;
    if (this.revision < revision) return BEHIND;
    this.served++;
    return this.items.get(key);
  }

  /**
   * The keys in [`start`, `end`) (etcd order) once the cache has applied every change through `revision`:
   * at most `limit` of them (0: all), how many the range holds, and the revision they are current at; or
   * {@link NOT_CACHED}.
   */
  async range(start: Buffer, end: Buffer, limit: number, revision: number): Promise<{ kvs: EtcdKv[]; count: number; revision: number } | typeof NOT_CACHED> {
    if (!this.holdsRange(start, end) || !this.answers(await this.caughtUp(revision))) return NOT_CACHED;
    const { keys, count } = this.sorted.range(start.toString("latin1"), end.toString("latin1"), limit);
    const kvs: EtcdKv[] = [];
    for (let i = 0; i < keys.length; i++) kvs.push(this.items.get(keys[i]!)!);
    return { kvs, count, revision: this.revision };
  }

  /** `key` is one of the keys the cache keeps (under its prefix): the others are read from etcd. */
  private holds(key: Buffer): boolean {
    return Buffer.compare(key, this.prefix) >= 0 && Buffer.compare(key, this.prefixEnd) < 0;
  }

  /**
   * Every key of [`start`, `end`) is one the cache keeps (or the range is empty); etcd's open range end
   * "\0" (every key from `start` on) reaches past the prefix.
   */
  private holdsRange(start: Buffer, end: Buffer): boolean {
    if (end.length === 1 && end[0] === 0) return false;
    if (Buffer.compare(start, end) >= 0) return true;
    return Buffer.compare(start, this.prefix) >= 0 && Buffer.compare(end, this.prefixEnd) <= 0;
  }

  /**
   * Waits until every change through `revision` is applied; the build (generation) that did, or undefined
   * when the cache cannot answer.
   */
  private async caughtUp(revision: number): Promise<number | undefined> {
    if (!this.ready) return undefined;
    const gen = this.generation;
    if (this.revision < revision && !(await this.waitFor(revision))) return undefined;
    return gen;
  }

  /**
   * The cache still holds build `gen`, checked in the same turn as the read of its maps (a reset or stop
   * between the wait and the read would leave them empty).
   */
  private answers(gen: number | undefined): boolean {
    if (gen === undefined || !this.ready || this.generation !== gen) return false;
    this.served++;
    return true;
  }

  private put(k: string, kv: EtcdKv): void {
    if (!this.items.has(k)) this.sorted.insert(k);
    this.items.set(k, kv);
  }

  private remove(k: string): void {
    if (this.items.delete(k)) this.sorted.remove(k);
  }

  /** How many keys the cache keeps (tests, diagnostics). */
  get size(): number {
    return this.items.size;
  }

  /** Reads waiting for the cache to catch up (tests). */
  get waiting(): number {
    return this.waiters.length;
  }

  /**
   * The cached value of `key` without waiting (possibly stale, as an informer's lister), or
   * {@link NOT_CACHED} when the cache is not ready.
   */
  peek(key: Buffer): EtcdKv | undefined | typeof NOT_CACHED {
    if (!this.ready) return NOT_CACHED;
    return this.items.get(key.toString("latin1"));
  }

  /** Stops the watch and any rebuild, releases waiting reads (they read etcd) and drops the kept values. */
  stop(): void {
    this.stopped = true;
    this.ready = false;
    this.generation++;
    this.items = new Map();
    this.sorted = new SortedKeys();
    if (this.retry) clearTimeout(this.retry);
    this.endWatch();
    this.releaseWaiters();
    this.subscribers.clear();
    this.releaseReadyWaiters();
  }

  private releaseReadyWaiters(): void {
    const ws = this.readyWaiters;
    this.readyWaiters = [];
    for (const w of ws) w();
  }

  private waitFor(revision: number): Promise<boolean> {
    return new Promise((resolve) => {
      const w: Waiter = {
        revision,
        generation: this.generation,
        resolve,
        timer: setTimeout(() => {
          this.waiters = this.waiters.filter((x) => x !== w);
          resolve(false);
        }, CATCH_UP_TIMEOUT_MS),
      };
      w.timer.unref();
      this.waiters.push(w);
    });
  }

  private releaseWaiters(): void {
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) {
      clearTimeout(w.timer);
      w.resolve(false);
    }
  }

  private advance(revision: number): void {
    if (revision <= this.revision) return;
    this.revision = revision;
    if (this.waiters.length === 0) return;
    const keep: Waiter[] = [];
    for (const w of this.waiters) {
      if (w.revision <= revision) {
        clearTimeout(w.timer);
        w.resolve(true);
      } else keep.push(w);
    }
    this.waiters = keep;
  }

  /** Drops the cache and rebuilds it after a delay (reads go to etcd meanwhile). */
  private reset(): void {
    this.ready = false;
    this.generation++;
    this.resets++;
    this.items = new Map();
    this.sorted = new SortedKeys();
    this.endWatch();
    this.releaseWaiters();
    this.subscribers.breakAll();
    if (this.stopped || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.build();
    }, this.retryMs);
    this.retry.unref();
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
  }

  private endWatch(): void {
    const c = this.call;
    this.call = undefined;
    if (!c) return;
    c.removeAllListeners("data");
    c.removeAllListeners("end");
    c.removeAllListeners("error");
    c.on("error", () => {});
    c.cancel();
  }

  /** Lists the prefix, then watches every key from the next revision. */
  private build(): void {
    const gen = this.generation;
    const fail = () => {
      if (this.generation === gen && !this.stopped) this.reset();
    };
    this.client
      .range({ key: this.prefix, range_end: this.prefixEnd })
      .then(async (r) => {
        if (this.stopped || this.generation !== gen) return;
        const items = new Map<string, EtcdKv>();
        const keys: string[] = [];
        for (const kv of r.kvs) {
          const k = kv.key.toString("latin1");
          items.set(k, own(kv));
          keys.push(k);
        }
        await this.hooks.afterList?.(r.header.revision);
        if (this.stopped || this.generation !== gen) return;
        this.items = items;
        // etcd answers a range in key order.
        this.sorted = new SortedKeys(keys);
        this.revision = r.header.revision;
        this.watchFrom(r.header.revision, gen, fail);
      })
      .catch(fail);
  }

  private watchFrom(listed: number, gen: number, fail: () => void): void {
    const call = this.client.watchStream();
    this.call = call;
    const prefix = this.prefix.toString("latin1");
    const apply = (r: WatchResponse) => {
      if (this.generation !== gen || this.stopped) return;
      if (r.compact_revision > 0 || r.canceled) {
        fail();
        return;
      }
      if (r.created && !this.ready) {
        this.ready = true;
        this.retryMs = RETRY_MS;
        this.releaseReadyWaiters();
      }
      let last = 0;
      for (const ev of r.events) {
        const k = ev.kv.key.toString("latin1");
        if (k.startsWith(prefix)) {
          const prev = this.subscribers.size > 0 ? this.items.get(k) : undefined;
          const deleted = ev.type === "DELETE";
          const kv = deleted ? ev.kv : own(ev.kv);
          if (deleted) this.remove(k);
          else this.put(k, kv);
          // A subscriber that fails breaks only itself (its handler catches); the cache goes on.
          if (this.subscribers.size > 0) this.subscribers.publish(k, { deleted, kv, prev });
          if (this.generation !== gen || this.stopped) return;
        }
        if (ev.kv.mod_revision > last) last = ev.kv.mod_revision;
      }
      // Every revision is one write with events on the whole key space, and etcd sends the events of a
      // revision together, in revision order: after this response every change through `last` is applied.
      if (last > 0) this.advance(last);
    };
    call.on("data", (r: WatchResponse) => {
      if (this.hooks.beforeApply) {
        const hook = this.hooks.beforeApply;
        this.applying = this.applying.then(hook).then(() => apply(r));
      } else apply(r);
    });
    call.on("error", fail);
    call.on("end", fail);
    // The whole key space: key "\0" with range end "\0" (etcd's "every key from key on").
    call.write({ create_request: { key: Buffer.from([0]), range_end: Buffer.from([0]), start_revision: listed + 1 } });
  }
}

/**
 * `kv` with its own copies of the key and value bytes: the decoder hands out views of the whole gRPC
 * message, which would keep the entire initial list, or a watch response's values of keys outside the
 * prefix, in memory for as long as one small kept value.
 */
function own(kv: EtcdKv): EtcdKv {
  return { ...kv, key: Buffer.from(kv.key), value: Buffer.from(kv.value) };
}
