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

/**
 * A transactional key-value store with a global revision. Every method is atomic. Implementations
 * must make a write durable before returning from it.
 */
export interface Store {
  /** The revision of the last write (0 for an empty store). */
  currentRevision(): number;
  /** The oldest revision a watch can start after. */
  compactedRevision(): number;
  get(key: string): StoredValue | undefined;
  /** All keys starting with `prefix`, sorted by key, and the revision they were read at. */
  list(prefix: string): { items: StoredValue[]; revision: number };
  /** Creates `key`; throws {@link KeyExistsError}. */
  create(key: string, value: string): StoredValue;
  /**
   * Replaces `key` if its modRevision equals `expectedRevision` (or unconditionally when it is
   * undefined); throws {@link KeyNotFoundError} / {@link RevisionConflictError}.
   */
  update(key: string, value: string, expectedRevision?: number): StoredValue;
  /** Deletes `key` (conditionally, as `update`); returns the last value and the deletion revision. */
  delete(key: string, expectedRevision?: number): { last: StoredValue; revision: number };
  /** Deletes every key under `prefix` (one revision per key); returns how many. */
  deletePrefix(prefix: string): number;
  /**
   * Delivers every change under `prefix` after `fromRevision` (replayed from history first, then live),
   * synchronously and in order. Throws {@link RevisionCompactedError} when history no longer reaches back.
   */
  watch(prefix: string, fromRevision: number, onEvent: (e: StoreEvent) => void): StoreWatch;
  close(): void;
}
