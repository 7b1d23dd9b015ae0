/**
 * Periodic compaction as kube-apiserver does it (`--etcd-compaction-interval`, default 5m): every interval
 * each API server runs a Txn on the key `compact_rev_key` guarded by that key's version; the one that
 * wins records the current revision and compacts to the revision recorded one interval earlier, so a
 * cluster of API servers compacts once per interval and history always reaches one interval back.
 */
import { EtcdCompactedError, type EtcdClient } from "./etcd-client.js";

/** The key kube-apiserver's compactor coordinates on (outside `--etcd-prefix`). */
export const COMPACT_REV_KEY = "compact_rev_key";

export class EtcdCompactor {
  private timer: NodeJS.Timeout | undefined;
  /** The version of `compact_rev_key` this server last saw, and the revision recorded then. */
  private lastVersion = 0;
  private lastRevision = 0;
  private running = false;

  constructor(
    private readonly client: EtcdClient,
    private readonly intervalMs: number,
    private readonly onError: (e: unknown) => void = () => {},
  ) {}

  start(): void {
    if (this.intervalMs <= 0 || this.timer) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = true;
      this.step()
        .catch(this.onError)
        .finally(() => {
          this.running = false;
        });
    }, this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One round: try to take this interval's turn; the winner compacts to the previous round's revision. */
  async step(): Promise<void> {
    const key = Buffer.from(COMPACT_REV_KEY);
    const r = await this.client.txn({
      compare: [{ result: "EQUAL", target: "VERSION", key, version: this.lastVersion }],
      success: [{ request_put: { key, value: Buffer.from(String(this.lastRevision)) } }],
      failure: [{ request_range: { key } }],
    });
    const current = r.header.revision;
    if (!r.succeeded) {
      // Another server took the turn: follow its version and try again next interval.
      this.lastVersion = r.responses[0]?.response_range?.kvs[0]?.version ?? 0;
      this.lastRevision = current;
      return;
    }
    const compactTo = this.lastRevision;
    this.lastVersion += 1;
    this.lastRevision = current;
    if (compactTo <= 0) return;
    try {
      await this.client.compact(compactTo);
    } catch (e) {
      if (!(e instanceof EtcdCompactedError)) throw e;
    }
  }
}
