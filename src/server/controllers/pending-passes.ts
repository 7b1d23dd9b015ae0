/**
 * The CRD status passes of creates already answered (on etcd, see `crdNamingStore`): the create answers once the
 * CRD is stored, and its pass's status write overlaps the answer. So that a client of this server still sees the
 * CRD established (and served) by the next request it sends, requests that arrive while passes are under way wait
 * for them first (`settled`). A read of one CRD instead reads the store at once, in parallel with the wait, and
 * answers the pass's write when that is newer than what it read (`read`): the same answer as reading after the
 * wait, without a second round trip. A pass settles either way (a store failure leaves the status to the next
 * write).
 */
import type { Store, StoredValue } from "../../storage/types.js";

export class PendingPasses {
  private readonly running = new Set<Promise<void>>();
  /** The latest value each key was written with by the passes (since they were last all settled). */
  private readonly written = new Map<string, StoredValue>();

  /** No pass is under way (the common case: requests go on without waiting). */
  get idle(): boolean {
    return this.running.size === 0;
  }

  /** Counts `pass` as under way until it settles. */
  track(pass: Promise<unknown>): void {
    // A new busy period: what earlier passes wrote is in the store, and any read sees it there.
    if (this.running.size === 0) this.written.clear();
    const settled = pass.then(
      () => {},
      () => {},
    );
    this.running.add(settled);
    void settled.then(() => this.running.delete(settled));
  }

  /** Resolves once every pass under way now has settled (passes started later are not waited for). */
  settled(): Promise<void> {
    return Promise.all(this.running).then(() => {});
  }

  /**
   * The key as `read` (a linearizable read of the store, started now) has it, or as a pass under way now wrote it
   * when that write is newer: a read whose revision is older than the pass's write may answer the write (it was
   * committed after the read started and before this answer, and no write acknowledged before the read started
   * is missing from it). Absent stays absent (the key was absent at a point in time within the request).
   */
  async read(key: string, read: Promise<StoredValue | undefined>): Promise<StoredValue | undefined> {
    const [sv] = await Promise.all([read, this.settled()]);
    const w = this.written.get(key);
    return sv && w && w.modRevision > sv.modRevision ? w : sv;
  }

  /** `store` with its updates (the passes' status writes) remembered for {@link read} while passes are under way. */
  recording(store: Store): Store {
    return {
      currentRevision: () => store.currentRevision(),
      get: (key) => store.get(key),
      list: (prefix) => store.list(prefix),
      listRange: (prefix, range) => store.listRange(prefix, range),
      watch: (prefix, from, onEvent, onError) => store.watch(prefix, from, onEvent, onError),
      create: (key, value) => store.create(key, value),
      delete: (key, expected) => store.delete(key, expected),
      deletePrefix: (prefix) => store.deletePrefix(prefix),
      close: () => store.close(),
      update: async (key, value, expected) => {
        const sv = await store.update(key, value, expected);
        if (this.idle) return sv;
        const had = this.written.get(key);
        if (!had || had.modRevision < sv.modRevision) this.written.set(key, sv);
        return sv;
      },
    };
  }
}
