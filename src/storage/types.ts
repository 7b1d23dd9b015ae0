/**
 * The storage interface behind `crdkit serve`, modelled on what the Kubernetes API server needs from
 * etcd: a global revision that increases with every write, compare-and-swap writes on a key's
 * modification revision, prefix listing at a revision, and watches that start at a past revision.
 * Values are opaque JSON texts; the server stores objects without `metadata.resourceVersion` and sets
 * it from the key's modification revision on read (as the etcd3 store does).
 */

/** One stored key. */
export interface StoredValue {
  key: string;
  /** JSON text of the object. */
  value: string;
  /** Revision of the write that created the key. */
  createRevision: number;
  /** Revision of the last write of the key (the object's resourceVersion). */
  modRevision: number;
}

export type WatchEventType = "ADDED" | "MODIFIED" | "DELETED";

/** One change of a key, in revision order. */
export interface StoreEvent {
  type: WatchEventType;
  key: string;
  /** The revision of this write (for DELETED: the revision of the deletion). */
  revision: number;
  /** The new value (for DELETED: the last value). */
  value: string;
  /** The value before the change (absent for ADDED). */
  prevValue?: string;
}

/** A running watch; `cancel` stops delivery. */
export interface StoreWatch {
  cancel(): void;
  /**
   * A revision through which this watch has delivered every event (for BOOKMARKs): events after it
   * are still to come, none before it. 0 when the store cannot tell in time.
   */
  progress(): Promise<number>;
}

/** How a watch may be served. */
export interface WatchOptions {
  /**
   * The server's own informer: its events may come from a stream the store shares between watchers (etcd: the
   * watch cache's watch, instead of an etcd watch of its own), with the same events in the same order.
   */
  shared?: boolean;
}

/** Thrown by `create` when the key exists. */
export class KeyExistsError extends Error {
  constructor(readonly key: string) {
    super(`key exists: ${key}`);
  }
}

/** Thrown by `update`/`delete` when the key is missing. */
export class KeyNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`key not found: ${key}`);
  }
}

/** Thrown by a compare-and-swap whose expected revision is not the key's current one. */
export class RevisionConflictError extends Error {
  constructor(
    readonly key: string,
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`revision conflict on ${key}: expected ${expected}, current ${actual}`);
  }
}

/** Thrown by `watch` when the start revision was compacted away (HTTP 410 Expired). */
export class RevisionCompactedError extends Error {
  constructor(
    readonly requested: number,
    readonly oldest: number,
  ) {
    super(`too old resource version: ${requested} (${oldest})`);
  }
}

/** Thrown by `listRange` for a revision newer than the store's (etcd `ErrFutureRev`). */
export class FutureRevisionError extends Error {
  constructor(
    readonly requested: number,
    readonly current: number,
  ) {
    super(`required revision is a future revision: ${requested} (current ${current})`);
  }
}

/** A ranged, paged read (etcd `Range` with `WithRev`, `WithLimit`, `WithFromKey`). */
export interface ListRange {
  /** Read the keys as they were at this revision (default: the current one). */
  revision?: number;
  /** The first key to return (inclusive; must start with the prefix). */
  startKey?: string;
  /** At most this many keys (default: all). */
  limit?: number;
}

/** The answer of `listRange`. */
export interface ListRangeResult {
  /** Keys (sorted) with the values and revisions they had at `revision`. */
  items: StoredValue[];
  /** The revision the range was read at. */
  revision: number;
  /** How many keys the range [startKey, prefix end) held at `revision` (etcd's `Count`). */
  count: number;
}

/** Thrown when the store cannot be reached or did not answer in time (etcd down: HTTP 503/504). */
export class StoreUnavailableError extends Error {
  constructor(
    message: string,
    /** True when the request timed out rather than failed at once. */
    readonly timeout = false,
  ) {
    super(message);
  }
}

/**
 * A controller's write that follows a create ({@link Store.createThen}): given the key and the created
 * value, the key's next value, or undefined to write nothing (the caller then writes it later, as an
 * ordinary update).
 */
export type FollowUp = (key: string, created: string) => string | undefined;

/**
 * The condition of a follow-up write: no key under `prefix` other than the created one changed (was
 * created, updated or deleted) after revision `unchangedSince` — the state the follow-up was computed from.
 */
export interface FollowUpGuard {
  prefix: string;
  unchangedSince: number;
}

/**
 * A transactional key-value store with a global revision. Every method is atomic and asynchronous.
 * Implementations must make a write durable before its promise resolves.
 */
export interface Store {
  /** The revision of the last write (0 for an empty store). */
  currentRevision(): Promise<number>;
  get(key: string): Promise<StoredValue | undefined>;
  /**
   * Optional: `key` as a local cache of the store has it, without a round trip — possibly behind writes
   * made elsewhere, as an informer's lister (etcd: the watch cache). Undefined when no cache is ready.
   */
  peek?(key: string): { value: StoredValue | undefined } | undefined;
  /** All keys starting with `prefix`, sorted by key, and the revision they were read at. */
  list(prefix: string): Promise<{ items: StoredValue[]; revision: number }>;
  /**
   * A consistent snapshot of the keys under `prefix` at a past or the current revision, from a start
   * key, limited. Rejects with {@link RevisionCompactedError} when the revision is older than the kept
   * history and {@link FutureRevisionError} when it is newer than the store.
   */
  listRange(prefix: string, range: ListRange): Promise<ListRangeResult>;
  /** Creates `key`; rejects with {@link KeyExistsError}. */
  create(key: string, value: string): Promise<StoredValue>;
  /**
   * Optional (stores that commit writes in groups: SQLite): `create`, then `followUp`'s value written as the
   * key's next revision (a MODIFIED event after the ADDED one) in the same commit if `guard` holds — a
   * controller's update right after the create, sharing its fsync. Resolves once both are durable; `next` is
   * absent when nothing more was written (the follow-up declined or its guard failed): the caller then
   * writes it as usual.
   */
  createThen?(key: string, value: string, followUp: FollowUp, guard: FollowUpGuard): Promise<{ created: StoredValue; next?: StoredValue }>;
  /**
   * Replaces `key` if its modRevision equals `expectedRevision` (or unconditionally when it is
   * undefined); rejects with {@link KeyNotFoundError} / {@link RevisionConflictError}.
   */
  update(key: string, value: string, expectedRevision?: number): Promise<StoredValue>;
  /** Deletes `key` (conditionally, as `update`); resolves to the last value and the deletion revision. */
  delete(key: string, expectedRevision?: number): Promise<{ last: StoredValue; revision: number }>;
  /** Deletes every key under `prefix`; resolves to how many. */
  deletePrefix(prefix: string): Promise<number>;
  /**
   * Delivers every change under `prefix` after `fromRevision` (history first, then live), in revision
   * order, each event once. Resolves when the watch is established; rejects with
   * {@link RevisionCompactedError} when history no longer reaches back. A watch that breaks later (the
   * store restarted, history compacted under it) calls `onError` once and delivers nothing more.
   */
  watch(prefix: string, fromRevision: number, onEvent: (e: StoreEvent) => void, onError?: (e: Error) => void, options?: WatchOptions): Promise<StoreWatch>;
  close(): Promise<void>;
}
