/**
 * The store as CRD requests see it: every write resolves only once the registry has seen it (its
 * watch delivered the write's revision), so a CRD created or changed through this server is served by
 * the next request. A store that delivers watch events synchronously (SQLite) never waits; on etcd the
 * wait is one watch round trip, bounded by a timeout (the write itself has succeeded either way).
 * The RBAC kinds use it with the RBAC policy as the cache (a role binding created through this server
 * authorizes the next request).
 */
import type { FollowUp, FollowUpGuard, Store } from "../../storage/types.js";

/** A cache fed by store watches (the CRD registry, the RBAC policy). */
export interface WatchCache {
  /** Resolves once the cache reflects the write of `key` at `revision` (false after `timeoutMs`). */
  caughtUp(revision: number, timeoutMs: number, key: string): Promise<boolean>;
}

/** How long a CRD write waits for the registry before answering anyway. */
const CATCH_UP_TIMEOUT_MS = 5000;

/** A store whose writes resolve once the cache has seen them, and the store underneath. */
export interface SyncedStore extends Store {
  /** The same store without the wait: a write resolves when the store has it. */
  readonly unsynced: Store;
  /** Resolves once the cache reflects the write of `key` at `revision` (or after the timeout). */
  waitSeen(key: string, revision: number): Promise<void>;
}

/** `store` is a {@link SyncedStore}. */
export function isSynced(store: Store): store is SyncedStore {
  return "unsynced" in store && "waitSeen" in store;
}

export function registrySynced(store: Store, registry: WatchCache): SyncedStore {
  const caughtUp = async <T>(key: string, p: Promise<T>, revision: (v: T) => number): Promise<T> => {
    const v = await p;
    await registry.caughtUp(revision(v), CATCH_UP_TIMEOUT_MS, key);
    return v;
  };
  return {
    unsynced: store,
    waitSeen: async (key, revision) => {
      await registry.caughtUp(revision, CATCH_UP_TIMEOUT_MS, key);
    },
    currentRevision: () => store.currentRevision(),
    get: (key) => store.get(key),
    list: (prefix) => store.list(prefix),
    listRange: (prefix, range) => store.listRange(prefix, range),
    watch: (prefix, from, onEvent, onError, options) => store.watch(prefix, from, onEvent, onError, options),
    create: (key, value) => caughtUp(key, store.create(key, value), (v) => v.modRevision),
    ...(store.createThen
      ? { createThen: (key: string, value: string, followUp: FollowUp, guard: FollowUpGuard) => caughtUp(key, store.createThen!(key, value, followUp, guard), (v) => (v.next ?? v.created).modRevision) }
      : {}),
    update: (key, value, expected) => caughtUp(key, store.update(key, value, expected), (v) => v.modRevision),
    delete: (key, expected) => caughtUp(key, store.delete(key, expected), (v) => v.revision),
    deletePrefix: (prefix) => store.deletePrefix(prefix),
    close: () => store.close(),
  };
}
