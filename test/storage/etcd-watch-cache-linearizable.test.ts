/**
 * Linearizable reads from the etcd watch cache (src/storage/etcd/etcd-watch-cache.ts) under concurrency: two
 * stores write counters to the same keys while three readers GET and LIST through a store whose cache applies
 * each watch response a few milliseconds late; no read answers less than a counter value acknowledged before
 * the read started.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { EtcdStore } from "../../src/storage/etcd/etcd-store.js";
import { EtcdProcess } from "./etcd-process.js";
import { until } from "./until.js";

let etcd: EtcdProcess;
before(async () => {
  etcd = await EtcdProcess.start();
});
after(() => etcd.cleanup());

const open = (prefix: string, watchCache = true) =>
  new EtcdStore({ servers: [etcd.url], prefix, callTimeoutMs: 10_000, compactionIntervalMs: 0, watchCache });

async function warm(s: EtcdStore): Promise<void> {
  await s.get("/registry/warm-up");
  await until(() => s.cache!.isReady);
}

describe("etcd watch cache linearizability", { timeout: 120_000 }, () => {
  it("concurrent reads never miss a write acknowledged before they started, under concurrent writers", async () => {
    const prefix = "/concurrent";
    const writers = [open(prefix, false), open(prefix, false)];
    // The reader's cache applies a watch response 3 ms late whenever it has not lagged in the last 5 ms, so
    // reads often wait for it, and the lag never piles up beyond what a busy machine's cache would show
    // (delaying every response would let 2 writers outrun it for good: each read would time out to etcd).
    let lagged = 0;
    const beforeApply = (): Promise<void> => {
      const now = Date.now();
      if (now - lagged < 5) return Promise.resolve();
      lagged = now;
      return new Promise<void>((r) => setTimeout(r, 3));
    };
    const reader = new EtcdStore({
      servers: [etcd.url],
      prefix,
      callTimeoutMs: 10_000,
      compactionIntervalMs: 0,
      watchCacheHooks: { beforeApply },
    });
    let stop = false;
    let running: Promise<void>[] = [];
    try {
      await warm(reader);
      const keys = ["/registry/c/a", "/registry/c/b", "/registry/c/c"];
      /** The highest counter acknowledged per key. */
      const acked = new Map<string, number>();
      const write = async (w: EtcdStore, id: number) => {
        for (let i = 0; !stop; i++) {
          const key = keys[(i + id) % keys.length]!;
          for (;;) {
            const cur = await w.get(key);
            const next = cur ? (JSON.parse(cur.value) as { n: number }).n + 1 : 1;
            try {
              if (cur) await w.update(key, JSON.stringify({ n: next }), cur.modRevision);
              else await w.create(key, JSON.stringify({ n: next }));
              acked.set(key, Math.max(acked.get(key) ?? 0, next));
              break;
            } catch {
              // Lost the race to the other writer: read again.
            }
          }
        }
      };
      let reads = 0;
      const read = async () => {
        while (!stop) {
          const key = keys[reads++ % keys.length]!;
          const before = acked.get(key) ?? 0;
          const [one, all] = await Promise.all([reader.get(key), reader.list("/registry/c/")]);
          const seen = one ? (JSON.parse(one.value) as { n: number }).n : 0;
          assert.ok(seen >= before, `${key}: read ${seen} after ${before} was acknowledged`);
          const inList = all.items.find((x) => x.key === key);
          const listed = inList ? (JSON.parse(inList.value) as { n: number }).n : 0;
          assert.ok(listed >= before, `${key}: listed ${listed} after ${before} was acknowledged`);
        }
      };
      running = [write(writers[0]!, 0), write(writers[1]!, 1), read(), read(), read()].map((p) =>
        p.catch((e: unknown) => {
          stop = true;
          throw e;
        }),
      );
      await until(() => reads >= 600 || stop, 90_000);
      stop = true;
      await Promise.all(running);
      assert.ok(reader.cache!.served > 600, `served ${reader.cache!.served}`);
    } finally {
      stop = true;
      // no read or write may still be running when the stores close
      await Promise.allSettled(running);
      for (const w of writers) await w.close();
      await reader.close();
    }
  });
});
