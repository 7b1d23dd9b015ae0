/**
 * A {@link Store} in process memory, with the same revision, history, compaction and watch semantics as
 * the SQLite store (test/server/memory-store.test.ts compares them on random operation sequences). It is
 * what `crdkit serve` without `--data` uses when the optional better-sqlite3 module is not installed:
 * nothing survives the process, as with SQLite's `:memory:`.
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
} from "./types.js";
import { WatchHub } from "./watch-hub.js";
import { SortedKeys } from "./sorted-keys.js";

export interface MemoryStoreOptions {
  /** How many past revisions watches and lists can start from (default 10,000). */
  historySize?: number;
}

/** One write in the history (with what a past read needs to roll it back). */
interface HistoryEntry {
  event: StoreEvent;
  /** The key's state before this write; undefined for ADDED. */
  before: StoredValue | undefined;
}

/** Upper bound of a key prefix range (keys are ASCII paths). */
function prefixEnd(prefix: string): string {
  const last = prefix.charCodeAt(prefix.length - 1);
  return prefix.slice(0, -1) + String.fromCharCode(last + 1);
}

export class MemoryStore implements Store {
  private readonly kv = new Map<string, StoredValue>();
  /** The keys of `kv`, sorted (JavaScript string order = SQLite's BINARY order for these ASCII keys). */
  private readonly keys = new SortedKeys();
  private readonly history: HistoryEntry[] = [];
  private readonly hub = new WatchHub();
  private readonly historySize: number;
  private rev = 0;
  private compacted = 0;
  private writesSinceCompact = 0;

  constructor(opts: MemoryStoreOptions = {}) {
    this.historySize = opts.historySize ?? 10_000;
  }

  async currentRevision(): Promise<number> {
    return this.rev;
  }

  /** The oldest revision a watch can start after. */
  compactedRevision(): number {
    return this.compacted;
  }

  async get(key: string): Promise<StoredValue | undefined> {
    const v = this.kv.get(key);
    return v ? { ...v } : undefined;
  }

  private range(start: string, end: string): StoredValue[] {
    const out: StoredValue[] = [];
    for (const k of this.keys.range(start, end, 0).keys) out.push({ ...this.kv.get(k)! });
    return out;
  }

  async list(prefix: string): Promise<{ items: StoredValue[]; revision: number }> {
    return { items: this.range(prefix, prefixEnd(prefix)), revision: this.rev };
  }

  async listRange(prefix: string, range: ListRange): Promise<ListRangeResult> {
    const end = prefixEnd(prefix);
    const start = range.startKey !== undefined && range.startKey > prefix ? range.startKey : prefix;
    const limit = range.limit !== undefined && range.limit > 0 ? range.limit : -1;
    const at = range.revision !== undefined && range.revision > 0 ? range.revision : this.rev;
    if (at > this.rev) throw new FutureRevisionError(at, this.rev);
    if (at < this.compacted) throw new RevisionCompactedError(at, this.compacted);
    const current = this.range(start, end);
    if (at === this.rev) return { items: limit < 0 ? current : current.slice(0, limit), revision: at, count: current.length };
    // The state at `at`: keys changed since then are rolled back to their state before the first later change.
    const rolledBack = new Map<string, StoredValue | undefined>();
    for (const h of this.history) {
      const k = h.event.key;
      if (h.event.revision <= at || k < start || k >= end || rolledBack.has(k)) continue;
      rolledBack.set(k, h.before ? { ...h.before } : undefined);
    }
    const all = current.filter((v) => !rolledBack.has(v.key));
    for (const v of rolledBack.values()) if (v) all.push(v);
    all.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return { items: limit < 0 ? all : all.slice(0, limit), revision: at, count: all.length };
  }

  private record(event: StoreEvent, before: StoredValue | undefined): void {
    this.history.push({ event, before: before ? { ...before } : undefined });
  }

  async create(key: string, value: string): Promise<StoredValue> {
    if (this.kv.has(key)) throw new KeyExistsError(key);
    const rev = ++this.rev;
    const v: StoredValue = { key, value, createRevision: rev, modRevision: rev };
    this.kv.set(key, v);
    this.keys.insert(key);
    const e: StoreEvent = { type: "ADDED", key, revision: rev, value };
    this.record(e, undefined);
    this.afterWrite([e]);
    return { ...v };
  }

  private current(key: string, expectedRevision: number | undefined): StoredValue {
    const cur = this.kv.get(key);
    if (!cur) throw new KeyNotFoundError(key);
    if (expectedRevision !== undefined && cur.modRevision !== expectedRevision) throw new RevisionConflictError(key, expectedRevision, cur.modRevision);
    return cur;
  }

  async update(key: string, value: string, expectedRevision?: number): Promise<StoredValue> {
    const cur = this.current(key, expectedRevision);
    const rev = ++this.rev;
    const v: StoredValue = { key, value, createRevision: cur.createRevision, modRevision: rev };
    this.kv.set(key, v);
    const e: StoreEvent = { type: "MODIFIED", key, revision: rev, value, prevValue: cur.value };
    this.record(e, cur);
    this.afterWrite([e]);
    return { ...v };
  }

  private remove(cur: StoredValue): StoreEvent {
    const rev = ++this.rev;
    this.kv.delete(cur.key);
    this.keys.remove(cur.key);
    const e: StoreEvent = { type: "DELETED", key: cur.key, revision: rev, value: cur.value, prevValue: cur.value };
    this.record(e, cur);
    return e;
  }

  async delete(key: string, expectedRevision?: number): Promise<{ last: StoredValue; revision: number }> {
    const cur = this.current(key, expectedRevision);
    const e = this.remove(cur);
    this.afterWrite([e]);
    return { last: { ...cur }, revision: e.revision };
  }

  async deletePrefix(prefix: string): Promise<number> {
    const events = this.range(prefix, prefixEnd(prefix)).map((cur) => this.remove(cur));
    this.afterWrite(events);
    return events.length;
  }

  async watch(prefix: string, fromRevision: number, onEvent: (e: StoreEvent) => void): Promise<StoreWatch> {
    if (fromRevision < this.compacted) throw new RevisionCompactedError(fromRevision, this.compacted);
    // Replay and subscription happen in the same synchronous turn, so no event is missed or doubled.
    for (const h of this.history) {
      if (h.event.revision > fromRevision && h.event.key.startsWith(prefix)) onEvent({ ...h.event });
    }
    return this.hub.subscribe(prefix, onEvent, () => this.rev);
  }

  /** Drops the history up to `revision` (as etcd's Compact): watches and past reads before it are refused. */
  async compact(revision: number): Promise<void> {
    const to = Math.min(revision, this.rev);
    if (to <= this.compacted) return;
    this.trim(to);
  }

  async close(): Promise<void> {
    this.hub.closeAll();
  }

  private trim(keepFrom: number): void {
    const drop = this.history.findIndex((h) => h.event.revision > keepFrom);
    this.history.splice(0, drop < 0 ? this.history.length : drop);
    this.compacted = keepFrom;
  }

  private afterWrite(events: StoreEvent[]): void {
    this.writesSinceCompact += events.length;
    if (this.writesSinceCompact >= Math.min(1000, this.historySize)) {
      this.writesSinceCompact = 0;
      const keepFrom = this.rev - this.historySize;
      if (keepFrom > this.compacted) this.trim(keepFrom);
    }
    for (const e of events) this.hub.publish(e);
  }
}
