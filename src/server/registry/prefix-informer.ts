/**
 * List-then-watch of one key prefix that survives broken watches (client-go's reflector in miniature):
 * the handlers get the full state at a revision (at start and after every re-list) and then each change
 * in order. A watch that breaks (store restarted, history compacted) is re-established by a new list.
 * `waitFor(rev)` lets a writer wait until its own write has been seen (read-your-writes for caches).
 * Its watch is a shared one (`WatchOptions.shared`): on etcd the watch cache's stream feeds it.
 */
import type { Store, StoredValue, StoreEvent, StoreWatch } from "../../storage/types.js";

export interface InformerHandlers {
  /** The complete state under the prefix at `revision` (initial list and every re-list). */
  replace(items: StoredValue[], revision: number): void;
  /** One change after the last state, in revision order. */
  event(e: StoreEvent): void;
}

/** How the list is read (default: one `list` of the prefix). */
export interface InformerListOptions {
  /** Read the list in pages of this many keys, at one revision (as a reflector's paged list). */
  pageSize: number;
  /** Keeps only the items this accepts (the others are dropped page by page, so they are never all held). */
  keep: (item: StoredValue) => boolean;
}

/** Delay before re-listing after a broken watch or a failed re-list. */
const RELIST_DELAY_MS = 250;

export class PrefixInformer {
  private watch: StoreWatch | undefined;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;
  private seen = 0;
  private waiters: { revision: number; resolve: (ok: boolean) => void; timer: NodeJS.Timeout }[] = [];

  constructor(
    private readonly store: Store,
    private readonly prefix: string,
    private readonly handlers: InformerHandlers,
    private readonly listing?: InformerListOptions,
  ) {}

  /** Lists and starts watching; rejects when the store cannot be read. */
  async start(): Promise<void> {
    await this.sync();
  }

  /** The newest revision the handlers have seen. */
  get revision(): number {
    return this.seen;
  }

  /** Resolves true once a revision ≥ `revision` has been seen, false after `timeoutMs`. */
  waitFor(revision: number, timeoutMs: number): Promise<boolean> {
    if (this.seen >= revision || this.stopped) return Promise.resolve(this.seen >= revision);
    return new Promise((resolve) => {
      const w = {
        revision,
        resolve,
        timer: setTimeout(() => {
          this.waiters = this.waiters.filter((x) => x !== w);
          resolve(false);
        }, timeoutMs),
      };
      w.timer.unref();
      this.waiters.push(w);
    });
  }

  stop(): void {
    this.stopped = true;
    this.watch?.cancel();
    this.watch = undefined;
    if (this.retry) clearTimeout(this.retry);
    for (const w of this.waiters) {
      clearTimeout(w.timer);
      w.resolve(false);
    }
    this.waiters = [];
  }

  /** The state under the prefix (paged and filtered when `listing` says so). */
  private async list(): Promise<{ items: StoredValue[]; revision: number }> {
    if (!this.listing) return this.store.list(this.prefix);
    const { pageSize, keep } = this.listing;
    const items: StoredValue[] = [];
    let revision: number | undefined;
    let startKey: string | undefined;
    for (;;) {
      const page = await this.store.listRange(this.prefix, { limit: pageSize, ...(revision !== undefined ? { revision } : {}), ...(startKey !== undefined ? { startKey } : {}) });
      revision = page.revision;
      for (const it of page.items) if (keep(it)) items.push(it);
      if (page.items.length < pageSize) return { items, revision };
      startKey = `${page.items[page.items.length - 1]!.key}\u0000`;
    }
  }

  private async sync(): Promise<void> {
    const { items, revision } = await this.list();
    if (this.stopped) return;
    this.handlers.replace(items, revision);
    this.advance(revision);
    let w: StoreWatch | undefined;
    let failed = false;
    w = await this.store.watch(
      this.prefix,
      revision,
      (e) => {
        this.handlers.event(e);
        this.advance(e.revision);
      },
      () => {
        failed = true;
        this.broken(w);
      },
      // An informer of the server: on etcd, fed by the watch cache's watch rather than one of its own.
      { shared: true },
    );
    if (this.stopped) w.cancel();
    else if (!failed) this.watch = w;
  }

  private broken(w: StoreWatch | undefined): void {
    if (this.stopped || (w !== undefined && this.watch !== undefined && w !== this.watch)) return;
    this.watch = undefined;
    if (this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.sync().catch(() => this.broken(undefined));
    }, RELIST_DELAY_MS);
    this.retry.unref();
  }

  private advance(revision: number): void {
    if (revision <= this.seen) return;
    this.seen = revision;
    const ready = this.waiters.filter((w) => w.revision <= revision);
    if (ready.length === 0) return;
    this.waiters = this.waiters.filter((w) => w.revision > revision);
    for (const w of ready) {
      clearTimeout(w.timer);
      w.resolve(true);
    }
  }
}
