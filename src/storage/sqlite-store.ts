/**
 * The embedded store: one SQLite database file (better-sqlite3, WAL journal, synchronous=FULL so that
 * an acknowledged write survives a crash of the process or the machine). Table `kv` holds the current
 * keys, table `events` the change history used by watches (trimmed to the last `historySize`
 * revisions, like etcd compaction), table `meta` the global revision and the compaction point.
 */
import type Database from "better-sqlite3";
import {
  type FollowUp,
  type FollowUpGuard,
  FutureRevisionError,
  KeyExistsError,
  type ListRange,
  type ListRangeResult,
  KeyNotFoundError,
  RevisionCompactedError,
  RevisionConflictError,
  type Store,
  type StoredValue,
  type StoreEvent,
  type StoreWatch,
} from "./types.js";
import { checkEtcdRequestSize } from "./request-size.js";
import { RevisionMark } from "./revision-mark.js";
import { openSqlite, releaseSqlite } from "./sqlite-open.js";
import { WatchHub } from "./watch-hub.js";

export interface SqliteStoreOptions {
  /** Database file path, or `:memory:`. */
  path: string;
  /** How many past revisions watches can start from (default 10,000). */
  historySize?: number;
  /** `FULL` (default; durable against power loss) or `NORMAL` (durable against process crashes only). */
  synchronous?: "FULL" | "NORMAL";
}

interface KvRow {
  key: string;
  value: string;
  create_rev: number;
  mod_rev: number;
}

interface EventRow {
  rev: number;
  type: "ADDED" | "MODIFIED" | "DELETED";
  key: string;
  value: string;
  prev: string | null;
}

/** What a past read needs of an event: the key's state just before it. */
interface UndoRow {
  key: string;
  type: "ADDED" | "MODIFIED" | "DELETED";
  prev: string | null;
  create_rev: number | null;
  prev_rev: number | null;
}

/** Upper bound of a key prefix range (keys are ASCII paths). */
function prefixEnd(prefix: string): string {
  const last = prefix.charCodeAt(prefix.length - 1);
  return prefix.slice(0, -1) + String.fromCharCode(last + 1);
}

function toStored(r: KvRow): StoredValue {
  return { key: r.key, value: r.value, createRevision: r.create_rev, modRevision: r.mod_rev };
}

/** How many revisions back a follow-up guard is checked (see `createThen`). */
const GUARD_SCAN_LIMIT = 1000;

/** A {@link Store} on one SQLite file. */
export class SqliteStore implements Store {
  private readonly db: Database.Database;
  private readonly hub = new WatchHub();
  private readonly historySize: number;
  private rev: number;
  private compacted: number;
  private writesSinceCompact = 0;
  private pendingWrites: { body: (events: StoreEvent[]) => unknown; resolve: (v: unknown) => void; reject: (e: unknown) => void }[] = [];

  private mark: RevisionMark | undefined;
  private readonly path: string;
  private readonly stmts;

  constructor(opts: SqliteStoreOptions) {
    this.path = opts.path;
    this.db = openSqlite(opts.path, opts.synchronous ?? "FULL");
    this.historySize = opts.historySize ?? 10_000;
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, value TEXT NOT NULL, create_rev INTEGER NOT NULL, mod_rev INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS events (rev INTEGER PRIMARY KEY, type TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, prev TEXT);
      CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, num INTEGER NOT NULL);
      INSERT OR IGNORE INTO meta VALUES ('revision', 0), ('compacted', 0);
    `);
    // History rows record the key's create revision and its previous modRevision, so that a list can be
    // read as of a past revision (databases from before this column are upgraded in place).
    const cols = new Set(this.db.prepare<[], { name: string }>("PRAGMA table_info(events)").all().map((c) => c.name));
    if (!cols.has("create_rev")) this.db.exec("ALTER TABLE events ADD COLUMN create_rev INTEGER");
    if (!cols.has("prev_rev")) this.db.exec("ALTER TABLE events ADD COLUMN prev_rev INTEGER");
    this.stmts = {
      get: this.db.prepare<[string], KvRow>("SELECT key, value, create_rev, mod_rev FROM kv WHERE key = ?"),
      list: this.db.prepare<[string, string], KvRow>(
        "SELECT key, value, create_rev, mod_rev FROM kv WHERE key >= ? AND key < ? ORDER BY key",
      ),
      insert: this.db.prepare<[string, string, number, number]>("INSERT INTO kv VALUES (?, ?, ?, ?)"),
      replace: this.db.prepare<[string, number, string]>("UPDATE kv SET value = ?, mod_rev = ? WHERE key = ?"),
      remove: this.db.prepare<[string]>("DELETE FROM kv WHERE key = ?"),
      event: this.db.prepare<[number, string, string, string, string | null, number, number | null]>(
        "INSERT INTO events (rev, type, key, value, prev, create_rev, prev_rev) VALUES (?, ?, ?, ?, ?, ?, ?)",
      ),
      listFrom: this.db.prepare<[string, string, number], KvRow>(
        "SELECT key, value, create_rev, mod_rev FROM kv WHERE key >= ? AND key < ? ORDER BY key LIMIT ?",
      ),
      lastRevOf: this.db.prepare<[string, number], { rev: number | null }>("SELECT max(rev) AS rev FROM events WHERE key = ? AND rev <= ?"),
      countFrom: this.db.prepare<[string, string], { n: number }>("SELECT count(*) AS n FROM kv WHERE key >= ? AND key < ?"),
      undo: this.db.prepare<[number, string, string], UndoRow>(
        "SELECT key, type, prev, create_rev, prev_rev FROM events WHERE rev > ? AND key >= ? AND key < ? ORDER BY rev",
      ),
      setMeta: this.db.prepare<[number, string]>("UPDATE meta SET num = ? WHERE name = ?"),
      getMeta: this.db.prepare<[string], { num: number }>("SELECT num FROM meta WHERE name = ?"),
      history: this.db.prepare<[number, string, string], EventRow>(
        "SELECT rev, type, key, value, prev FROM events WHERE rev > ? AND key >= ? AND key < ? ORDER BY rev",
      ),
      trim: this.db.prepare<[number]>("DELETE FROM events WHERE rev <= ?"),
      changedOther: this.db.prepare<[number, number, string, string, string], { rev: number }>(
        "SELECT rev FROM events WHERE rev > ? AND rev < ? AND key >= ? AND key < ? AND key <> ? LIMIT 1",
      ),
    };
    this.rev = this.stmts.getMeta.get("revision")?.num ?? 0;
    this.compacted = this.stmts.getMeta.get("compacted")?.num ?? 0;
    if (opts.path !== ":memory:") {
      // Revisions handed out before a crash are all at or below the mark: continue strictly above it.
      this.mark = new RevisionMark(`${opts.path}-revision`);
      if (this.mark.value > this.rev) {
        this.rev = this.mark.value;
        this.stmts.setMeta.run(this.rev, "revision");
      }
    }
  }

  async currentRevision(): Promise<number> {
    return this.rev;
  }

  /** The oldest revision a watch can start after (SQLite-specific; etcd's is not observable). */
  compactedRevision(): number {
    return this.compacted;
  }

  async get(key: string): Promise<StoredValue | undefined> {
    const r = this.stmts.get.get(key);
    return r ? toStored(r) : undefined;
  }

  async list(prefix: string): Promise<{ items: StoredValue[]; revision: number }> {
    return { items: this.stmts.list.all(prefix, prefixEnd(prefix)).map(toStored), revision: this.rev };
  }

  async listRange(prefix: string, range: ListRange): Promise<ListRangeResult> {
    const end = prefixEnd(prefix);
    const start = range.startKey !== undefined && range.startKey > prefix ? range.startKey : prefix;
    const limit = range.limit !== undefined && range.limit > 0 ? range.limit : -1;
    const at = range.revision !== undefined && range.revision > 0 ? range.revision : this.rev;
    if (at > this.rev) throw new FutureRevisionError(at, this.rev);
    if (at < this.compacted) throw new RevisionCompactedError(at, this.compacted);
    return this.db.transaction((): ListRangeResult => {
      if (at === this.rev) {
        const items = this.stmts.listFrom.all(start, end, limit).map(toStored);
        const count = limit < 0 ? items.length : (this.stmts.countFrom.get(start, end)?.n ?? items.length);
        return { items, revision: at, count };
      }
      // The state at `at`: the current keys, with every key changed since then rolled back to the
      // value before its first later change (absent if that change created it).
      const rolledBack = new Map<string, StoredValue | undefined>();
      for (const u of this.stmts.undo.all(at, start, end)) {
        if (rolledBack.has(u.key)) continue;
        rolledBack.set(
          u.key,
          u.type === "ADDED" || u.prev === null
            ? undefined
            : {
                key: u.key,
                value: u.prev,
                createRevision: u.create_rev ?? this.compacted,
                // Rows written before the prev_rev column: the key's last event at or before `at`.
                modRevision: u.prev_rev ?? this.stmts.lastRevOf.get(u.key, at)?.rev ?? this.compacted,
              },
        );
      }
      const all: StoredValue[] = [];
      for (const r of this.stmts.list.all(start, end)) if (!rolledBack.has(r.key)) all.push(toStored(r));
      for (const v of rolledBack.values()) if (v) all.push(v);
      all.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      return { items: limit < 0 ? all : all.slice(0, limit), revision: at, count: all.length };
    })();
  }

  create(key: string, value: string): Promise<StoredValue> {
    try {
      checkEtcdRequestSize(key, value, 0, false);
    } catch (e) {
      return Promise.reject(e);
    }
    return this.write((events) => this.insert(key, value, events));
  }

  /**
   * `create`, then the follow-up's value as the key's next revision, in the same transaction (so the two
   * share one fsync; both are durable when it resolves). A failed guard (a key under its prefix changed
   * after its revision, committed or earlier in this transaction), a follow-up that throws, or a value etcd
   * would refuse writes nothing: the create stands alone.
   */
  createThen(key: string, value: string, followUp: FollowUp, guard: FollowUpGuard): Promise<{ created: StoredValue; next?: StoredValue }> {
    try {
      checkEtcdRequestSize(key, value, 0, false);
    } catch (e) {
      return Promise.reject(e);
    }
    return this.write((events) => {
      const created = this.insert(key, value, events);
      let nextValue: string | undefined;
      try {
        if (!this.changedSince(guard, key, created.modRevision)) nextValue = followUp(key, value);
        if (nextValue !== undefined) checkEtcdRequestSize(key, nextValue, created.modRevision, true);
      } catch {
        nextValue = undefined;
      }
      if (nextValue === undefined) return { created };
      const rev = this.bump();
      this.stmts.replace.run(nextValue, rev, key);
      this.stmts.event.run(rev, "MODIFIED", key, nextValue, value, created.createRevision, created.modRevision);
      events.push({ type: "MODIFIED", key, revision: rev, value: nextValue, prevValue: value });
      return { created, next: { key, value: nextValue, createRevision: created.createRevision, modRevision: rev } };
    });
  }

  /**
   * Whether a key under the guard's prefix other than `key` changed after its revision and before `before`.
   * A guard more than {@link GUARD_SCAN_LIMIT} revisions back counts as changed (the history is scanned by
   * revision; the caller then writes its follow-up as usual).
   */
  private changedSince(guard: FollowUpGuard, key: string, before: number): boolean {
    if (guard.unchangedSince < this.compacted || before - guard.unchangedSince > GUARD_SCAN_LIMIT) return true;
    return this.stmts.changedOther.get(guard.unchangedSince, before, guard.prefix, prefixEnd(guard.prefix), key) !== undefined;
  }

  private insert(key: string, value: string, events: StoreEvent[]): StoredValue {
    if (this.stmts.get.get(key)) throw new KeyExistsError(key);
    const rev = this.bump();
    this.stmts.insert.run(key, value, rev, rev);
    this.stmts.event.run(rev, "ADDED", key, value, null, rev, null);
    events.push({ type: "ADDED", key, revision: rev, value });
    return { key, value, createRevision: rev, modRevision: rev };
  }

  update(key: string, value: string, expectedRevision?: number): Promise<StoredValue> {
    try {
      checkEtcdRequestSize(key, value, expectedRevision ?? this.rev, true);
    } catch (e) {
      return Promise.reject(e);
    }
    return this.write((events) => {
      const cur = this.stmts.get.get(key);
      if (!cur) throw new KeyNotFoundError(key);
      if (expectedRevision !== undefined && cur.mod_rev !== expectedRevision) {
        throw new RevisionConflictError(key, expectedRevision, cur.mod_rev);
      }
      const rev = this.bump();
      this.stmts.replace.run(value, rev, key);
      this.stmts.event.run(rev, "MODIFIED", key, value, cur.value, cur.create_rev, cur.mod_rev);
      events.push({ type: "MODIFIED", key, revision: rev, value, prevValue: cur.value });
      return { key, value, createRevision: cur.create_rev, modRevision: rev };
    });
  }

  delete(key: string, expectedRevision?: number): Promise<{ last: StoredValue; revision: number }> {
    return this.write((events) => {
      const cur = this.stmts.get.get(key);
      if (!cur) throw new KeyNotFoundError(key);
      if (expectedRevision !== undefined && cur.mod_rev !== expectedRevision) {
        throw new RevisionConflictError(key, expectedRevision, cur.mod_rev);
      }
      const rev = this.bump();
      this.stmts.remove.run(key);
      this.stmts.event.run(rev, "DELETED", key, cur.value, cur.value, cur.create_rev, cur.mod_rev);
      events.push({ type: "DELETED", key, revision: rev, value: cur.value, prevValue: cur.value });
      return { last: toStored(cur), revision: rev };
    });
  }

  deletePrefix(prefix: string): Promise<number> {
    return this.write((events) => {
      let n = 0;
      for (const cur of this.stmts.list.all(prefix, prefixEnd(prefix))) {
        const rev = this.bump();
        this.stmts.remove.run(cur.key);
        this.stmts.event.run(rev, "DELETED", cur.key, cur.value, cur.value, cur.create_rev, cur.mod_rev);
        events.push({ type: "DELETED", key: cur.key, revision: rev, value: cur.value, prevValue: cur.value });
        n++;
      }
      return n;
    });
  }

  async watch(prefix: string, fromRevision: number, onEvent: (e: StoreEvent) => void): Promise<StoreWatch> {
    if (fromRevision < this.compacted) throw new RevisionCompactedError(fromRevision, this.compacted);
    // Replay and subscription happen in the same synchronous turn (writes publish synchronously too),
    // so no event is missed or doubled.
    for (const r of this.stmts.history.all(fromRevision, prefix, prefixEnd(prefix))) {
      const e: StoreEvent = { type: r.type, key: r.key, revision: r.rev, value: r.value };
      if (r.prev !== null) e.prevValue = r.prev;
      onEvent(e);
    }
    return this.hub.subscribe(prefix, onEvent, () => this.rev);
  }

  /** Drops the history up to `revision` (as etcd's Compact): watches and past reads before it are refused. */
  async compact(revision: number): Promise<void> {
    const to = Math.min(revision, this.rev);
    if (to <= this.compacted) return;
    this.db.transaction(() => {
      this.stmts.trim.run(to);
      this.stmts.setMeta.run(to, "compacted");
    })();
    this.compacted = to;
  }

  async close(): Promise<void> {
    this.flush();
    this.hub.closeAll();
    if (this.db.open) this.db.close();
    // After a clean close nothing above the current revision was handed out.
    this.mark?.settle(this.rev);
    releaseSqlite(this.path);
  }

  /**
   * Group commit: writes issued in the same turn of the event loop run, in order, in one transaction
   * (each in its own savepoint, so a refused write leaves the others), committed with one fsync; each
   * promise settles, and watchers see the events, only after that commit is durable.
   */
  private write<T>(body: (events: StoreEvent[]) => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pendingWrites.push({ body, resolve: resolve as (v: unknown) => void, reject });
      if (this.pendingWrites.length === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const batch = this.pendingWrites;
    this.pendingWrites = [];
    if (batch.length === 0) return;
    if (!this.db.open) {
      for (const w of batch) w.reject(new TypeError("The database connection is not open"));
      return;
    }
    const revBefore = this.rev;
    const events: StoreEvent[] = [];
    const outcomes: { ok: boolean; value: unknown }[] = [];
    try {
      this.db.transaction(() => {
        for (const w of batch) {
          const rev = this.rev;
          const mine: StoreEvent[] = [];
          try {
            outcomes.push({ ok: true, value: this.db.transaction(() => w.body(mine))() });
            events.push(...mine);
          } catch (e) {
            this.rev = rev;
            outcomes.push({ ok: false, value: e });
          }
        }
      })();
    } catch (e) {
      this.rev = revBefore;
      for (const w of batch) w.reject(e);
      return;
    }
    this.afterWrite(events);
    batch.forEach((w, i) => {
      const o = outcomes[i]!;
      if (o.ok) w.resolve(o.value);
      else w.reject(o.value);
    });
  }

  private bump(): number {
    this.mark?.ensure(this.rev + 1);
    this.rev += 1;
    this.stmts.setMeta.run(this.rev, "revision");
    return this.rev;
  }

  private afterWrite(events: StoreEvent[]): void {
    this.writesSinceCompact += events.length;
    if (this.writesSinceCompact >= Math.min(1000, this.historySize)) {
      this.writesSinceCompact = 0;
      const keepFrom = this.rev - this.historySize;
      if (keepFrom > this.compacted) {
        this.db.transaction(() => {
          this.stmts.trim.run(keepFrom);
          this.stmts.setMeta.run(keepFrom, "compacted");
        })();
        this.compacted = keepFrom;
      }
    }
    for (const e of events) this.hub.publish(e);
  }
}
