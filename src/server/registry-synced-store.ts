/**
 * The store as CRD requests see it: every write resolves only once the registry has seen it (its
 * watch delivered the write's revision), so a CRD created or changed through this server is served by
 * the next request. A store that delivers watch events synchronously (SQLite) never waits; on etcd the
 * wait is one watch round trip, bounded by a timeout (the write itself has succeeded either way).
 */
import type { Store } from "../storage/types.js";
import type { Registry } from "./registry.js";

/** How long a CRD write waits for the registry before answering anyway. */
const CATCH_UP_TIMEOUT_MS = 5000;

export function registrySynced(store: Store, registry: Registry): Store {
  const caughtUp = async <T>(p: Promise<T>, revision: (v: T) => number): Promise<T> => {
    const v = await p;
    await registry.caughtUp(revision(v), CATCH_UP_TIMEOUT_MS);
    return v;
  };
  return {
    currentRevision: () => store.currentRevision(),
    get: (key) => store.get(key),
    list: (prefix) => store.list(prefix),
    listRange: (prefix, range) => store.listRange(prefix, range),
    watch: (prefix, from, onEvent, onError) => store.watch(prefix, from, onEvent, onError),
    create: (key, value) => caughtUp(store.create(key, value), (v) => v.modRevision),
    update: (key, value, expected) => caughtUp(store.update(key, value, expected), (v) => v.modRevision),
    delete: (key, expected) => caughtUp(store.delete(key, expected), (v) => v.revision),
    deletePrefix: (prefix) => store.deletePrefix(prefix),
    close: () => store.close(),
  };
}
