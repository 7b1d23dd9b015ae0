/**
 * Consistent reads from the etcd watch cache (src/storage/etcd/etcd-watch-cache.ts): a read through one
 * store sees every write acknowledged through another store (another replica) before it started, also while
 * the cache lags behind; the cache rebuilds after its watch fell behind a compaction and after etcd restarted,
 * and answers exactly what etcd holds.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { EtcdStore } from "../../src/storage/etcd/etcd-store.js";
import type { WatchCacheHooks } from "../../src/storage/etcd/etcd-watch-cache.js";
import { StoreUnavailableError } from "../../src/storage/types.js";
import { EtcdProcess } from "./etcd-process.js";
import { until } from "./until.js";

let etcd: EtcdProcess;
let n = 0;
before(async () => {
  etcd = await EtcdProcess.start();
});
after(() => etcd.cleanup());

const open = (prefix: string, hooks?: WatchCacheHooks, callTimeoutMs = 10_000) =>
  new EtcdStore({ servers: [etcd.url], prefix, callTimeoutMs, compactionIntervalMs: 0, ...(hooks ? { watchCacheHooks: hooks } : {}) });

/** Starts a store's cache with a first read and waits until it is ready. */
async function warm(s: EtcdStore): Promise<void> {
  await s.get("/registry/warm-up");
  await until(() => s.cache!.isReady);
}

describe("etcd watch cache", { timeout: 120_000 }, () => {
  it("a read through one store sees each write just acknowledged through another, from the cache", async () => {
    const prefix = `/wc-${++n}`;
    const a = open(prefix);
    const b = open(prefix);
    try {
      await warm(b);
      const served0 = b.cache!.served;
      for (let i = 0; i < 100; i++) {
        const key = `/registry/ns/k${i % 7}`;
        const cur = await b.get(key);
        const w = cur ? await a.update(key, `{"i":${i}}`, cur.modRevision) : await a.create(key, `{"i":${i}}`);
        assert.deepEqual(await b.get(key), { key, value: `{"i":${i}}`, createRevision: w.createRevision, modRevision: w.modRevision });
        if (i % 5 === 4) {
          const d = await a.delete(key);
          assert.ok(d.revision > w.modRevision);
          assert.equal(await b.get(key), undefined);
        }
      }
      // Every read of b after warming up was answered from its cache (none fell back to etcd).
      assert.equal(b.cache!.served - served0, 100 + 100 + 20);
      assert.equal(b.cache!.resets, 0);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("answers reads of an unchanged key with one frozen stored value, and a changed key with the new one", async () => {
    const s = open(`/wc-${++n}`);
    try {
      await warm(s);
      const w = await s.create("/registry/ns/same", '{"a":1}');
      const first = await s.get("/registry/ns/same");
      assert.deepEqual(first, { key: "/registry/ns/same", value: '{"a":1}', createRevision: w.createRevision, modRevision: w.modRevision });
      assert.equal(await s.get("/registry/ns/same"), first);
      assert.ok(Object.isFrozen(first));
      const u = await s.update("/registry/ns/same", '{"a":2}', w.modRevision);
      const second = await s.get("/registry/ns/same");
      assert.notEqual(second, first);
      assert.deepEqual(second, { key: "/registry/ns/same", value: '{"a":2}', createRevision: w.createRevision, modRevision: u.modRevision });
      assert.deepEqual(first, { key: "/registry/ns/same", value: '{"a":1}', createRevision: w.createRevision, modRevision: w.modRevision });
    } finally {
      await s.close();
    }
  });

  it("answers lists and ranges (start key, limit, count) as etcd does, from the cache", async () => {
    const prefix = `/wc-${++n}`;
    const plain = new EtcdStore({ servers: [etcd.url], prefix, callTimeoutMs: 10_000, compactionIntervalMs: 0, watchCache: false });
    const b = open(prefix);
    try {
      await warm(b);
      const served0 = b.cache!.served;
      let seed = 7;
      const rand = (m: number) => {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        return seed % m;
      };
      const keys = ["a", "b", "b0", "b\u00ff", "c/x", "c/y", "c0", "\u00e9t\u00e9", "z"];
      let checks = 0;
      for (let i = 0; i < 60; i++) {
        const key = `/registry/ns/${keys[rand(keys.length)]}`;
        const cur = await plain.get(key);
        if (cur && rand(3) === 0) await plain.delete(key);
        else if (cur) await plain.update(key, `{"i":${i}}`, cur.modRevision);
        else await plain.create(key, `{"i":${i}}`);
        for (const range of [{}, { limit: 2 }, { startKey: "/registry/ns/b0" }, { startKey: "/registry/ns/c", limit: 1 }, { limit: 0 }]) {
          for (const p of ["/registry/ns/", "/registry/ns/c/", "/registry/"]) {
            assert.deepEqual(await b.listRange(p, range), await plain.listRange(p, range), `${p} ${JSON.stringify(range)} after write ${i}`);
            checks++;
          }
        }
        assert.deepEqual(await b.list("/registry/ns/"), await plain.list("/registry/ns/"));
        checks++;
      }
      assert.equal(b.cache!.served - served0, checks);
    } finally {
      await plain.close();
      await b.close();
    }
  });

  it("a read waits while the cache lags behind the write, then answers the write", async () => {
    const prefix = `/wc-${++n}`;
    let hold: Promise<void> | undefined;
    let release = () => {};
    const a = open(prefix);
    const b = open(prefix, { beforeApply: () => hold ?? Promise.resolve() });
    try {
      await warm(b);
      // From now on b's cache applies nothing until released.
      hold = new Promise((r) => {
        release = r;
      });
      const w = await a.create("/registry/lagging", '{"v":1}');
      let settled = false;
      const read = b.get("/registry/lagging").then((v) => {
        settled = true;
        return v;
      });
      await until(() => b.cache!.waiting === 1);
      assert.equal(settled, false, "answered before the cache applied the write");
      assert.ok(b.cache!.currentRevision < w.modRevision);
      release();
      hold = undefined;
      assert.deepEqual(await read, { key: "/registry/lagging", value: '{"v":1}', createRevision: w.modRevision, modRevision: w.modRevision });
      // Writes outside the prefix advance the cache too (it watches every key), so a read after them does not wait.
      const other = open(`/wc-other-${n}`);
      try {
        await other.create("/registry/elsewhere", "{}");
        assert.equal(await b.get("/registry/missing"), undefined);
        assert.equal(b.cache!.waiting, 0);
      } finally {
        await other.close();
      }
    } finally {
      release();
      await a.close();
      await b.close();
    }
  });

  it("rebuilds when its watch starts behind a compaction, then serves the current values", async () => {
    const prefix = `/wc-${++n}`;
    const a = open(prefix);
    let first = true;
    const b = open(prefix, {
      afterList: async () => {
        if (!first) return;
        first = false;
        // Between the list and the watch: new writes, then history compacted past the list's revision.
        await a.create("/registry/x", '{"x":1}');
        const w = await a.create("/registry/y", '{"y":1}');
        await a.compact(w.modRevision);
      },
    });
    try {
      await a.create("/registry/before", "{}");
      await b.get("/registry/warm-up");
      // etcd creates the watch, then cancels it as compacted: the cache rebuilds and becomes ready again.
      await until(() => b.cache!.resets >= 1 && b.cache!.isReady);
      const served0 = b.cache!.served;
      assert.equal((await b.get("/registry/x"))?.value, '{"x":1}');
      assert.equal((await b.get("/registry/y"))?.value, '{"y":1}');
      assert.equal((await b.get("/registry/before"))?.value, "{}");
      assert.equal(b.cache!.served - served0, 3);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("falls back to etcd while etcd is down and rebuilds after it restarted", async () => {
    const own = await EtcdProcess.start();
    const mk = () => new EtcdStore({ servers: [own.url], prefix: "/wc-restart", callTimeoutMs: 1500, compactionIntervalMs: 0 });
    const a = mk();
    const b = mk();
    try {
      await a.create("/registry/k", '{"v":1}');
      await warm(b);
      await own.kill();
      await until(() => !b.cache!.isReady);
      await assert.rejects(b.get("/registry/k"), StoreUnavailableError);
      await own.run();
      // A write after the restart, through the other store, is seen once the cache is back.
      const cur = await a.get("/registry/k");
      const w = await a.update("/registry/k", '{"v":2}', cur!.modRevision);
      await until(() => b.cache!.isReady);
      const served0 = b.cache!.served;
      assert.deepEqual(await b.get("/registry/k"), { key: "/registry/k", value: '{"v":2}', createRevision: w.createRevision, modRevision: w.modRevision });
      assert.equal(b.cache!.served - served0, 1);
      assert.ok(b.cache!.resets >= 1);
    } finally {
      await a.close();
      await b.close();
      await own.cleanup();
    }
  });
});
