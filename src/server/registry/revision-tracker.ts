/**
 * The newest store revision this server has observed, known synchronously: the store wrapped so that
 * every answer (reads, writes, watch events) advances it. With the embedded store, whose writes all pass
 * through this server, it is the store's current revision; on etcd it is the newest revision this
 * replica has seen. Used where a revision is needed without a round trip (the watch cache start of a
 * resource built on demand).
 */
import type { FollowUp, FollowUpGuard, Store } from "../../storage/types.js";

export interface TrackedStore extends Store {
  /** The newest revision seen so far. */
  readonly knownRevision: number;
}

export function trackRevisions(store: Store): TrackedStore {
  let known = 0;
  const note = (rev: number) => {
    if (rev > known) known = rev;
  };
  const seen = async <T>(p: Promise<T>, rev: (v: T) => number): Promise<T> => {
    const v = await p;
    note(rev(v));
    return v;
  };
  return {
    get knownRevision() {
      return known;
    },
    currentRevision: () => seen(store.currentRevision(), (r) => r),
    get: (key) => seen(store.get(key), (v) => v?.modRevision ?? 0),
    ...(store.peek ? { peek: (key: string) => store.peek!(key) } : {}),
    list: (prefix) => seen(store.list(prefix), (v) => v.revision),
    listRange: (prefix, range) => seen(store.listRange(prefix, range), (v) => (range.revision ? 0 : v.revision)),
    create: (key, value) => seen(store.create(key, value), (v) => v.modRevision),
    ...(store.createThen
      ? { createThen: (key: string, value: string, followUp: FollowUp, guard: FollowUpGuard) => seen(store.createThen!(key, value, followUp, guard), (v) => (v.next ?? v.created).modRevision) }
      : {}),
    update: (key, value, expected) => seen(store.update(key, value, expected), (v) => v.modRevision),
    delete: (key, expected) => seen(store.delete(key, expected), (v) => v.revision),
    deletePrefix: async (prefix) => {
      const n = await store.deletePrefix(prefix);
      if (n > 0) note(await store.currentRevision());
      return n;
    },
    watch: (prefix, from, onEvent, onError, options) =>
      store.watch(
        prefix,
        from,
        (e) => {
          note(e.revision);
          onEvent(e);
        },
        onError,
        options,
      ),
    close: () => store.close(),
  };
}
