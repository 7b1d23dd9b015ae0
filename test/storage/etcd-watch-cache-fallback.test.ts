/**
 * When the etcd watch cache cannot answer (src/storage/etcd/etcd-watch-cache.ts), reads go to etcd and still
 * see every acknowledged write: a read waiting for a stuck watch gets the write from etcd once the catch-up
 * wait ends; a read waiting while the watch breaks (etcd killed) is released and answered by etcd after it
 * is back; with etcd down the cached store fails a read exactly as a store without the cache does; and a
 * read racing the cache's stop (which drops the values) defers to etcd instead of answering 'absent'.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { EtcdStore } from "../../src/storage/etcd/etcd-store.js";
import { NOT_CACHED } from "../../src/storage/etcd/etcd-watch-cache.js";
import { StoreUnavailableError } from "../../src/storage/types.js";
import { EtcdProcess } from "./etcd-process.js";
import { until } from "./until.js";

describe("etcd watch cache fallback", { timeout: 120_000 }, () => {
  it("a read waiting for a stuck watch is answered by etcd with the write", async () => {
    const etcd = await EtcdProcess.start();
    let stuck = false;
    const open = (cache: boolean) =>
      new EtcdStore({
        servers: [etcd.url],
        prefix: "/stuck",
        callTimeoutMs: 10_000,
        compactionIntervalMs: 0,
        watchCache: cache,
        // Once stuck, the watch never applies another response.
        watchCacheHooks: { beforeApply: () => (stuck ? new Promise<void>(() => {}) : Promise.resolve()) },
      });
    const a = open(false);
    const b = open(true);
    try {
      await b.get("/registry/warm-up");
      await until(() => b.cache!.isReady);
      stuck = true;
      const w = await a.create("/registry/k", '{"v":1}');
      const served0 = b.cache!.served;
      assert.deepEqual(await b.get("/registry/k"), { key: "/registry/k", value: '{"v":1}', createRevision: w.modRevision, modRevision: w.modRevision });
      assert.deepEqual(await b.list("/registry/"), await a.list("/registry/"));
      assert.equal(b.cache!.served, served0, "answered from a cache that had not applied the write");
      assert.equal(b.cache!.waiting, 0);
    } finally {
      await a.close();
      await b.close();
      await etcd.cleanup();
    }
  });

  it("a read waiting when the watch breaks is answered by etcd once it is back", async () => {
    const etcd = await EtcdProcess.start();
    let hold: Promise<void> | undefined;
    const open = (cache: boolean) =>
      new EtcdStore({
        servers: [etcd.url],
        prefix: "/broken",
        callTimeoutMs: 15_000,
        compactionIntervalMs: 0,
        watchCache: cache,
        watchCacheHooks: { beforeApply: () => hold ?? Promise.resolve() },
      });
    const a = open(false);
    const b = open(true);
    try {
      await b.get("/registry/warm-up");
      await until(() => b.cache!.isReady);
      hold = new Promise(() => {});
      const w = await a.create("/registry/k", '{"v":1}');
      const read = b.get("/registry/k");
      await until(() => b.cache!.waiting === 1);
      await etcd.kill();
      // The broken watch resets the cache and releases the read, which then waits for etcd.
      await until(() => !b.cache!.isReady && b.cache!.waiting === 0);
      await etcd.run();
      assert.deepEqual(await read, { key: "/registry/k", value: '{"v":1}', createRevision: w.modRevision, modRevision: w.modRevision });
    } finally {
      await a.close();
      await b.close();
      await etcd.cleanup();
    }
  });

  it("with etcd down a read fails as it does without the cache", async () => {
    const etcd = await EtcdProcess.start();
    const open = (cache: boolean) =>
      new EtcdStore({ servers: [etcd.url], prefix: "/down", callTimeoutMs: 1500, compactionIntervalMs: 0, watchCache: cache });
    const plain = open(false);
    const b = open(true);
    try {
      await b.get("/registry/warm-up");
      await until(() => b.cache!.isReady);
      await etcd.kill();
      const failure = async (p: Promise<unknown>) => {
        const e = await p.then(
          () => undefined,
          (x: unknown) => x,
        );
        assert.ok(e instanceof StoreUnavailableError, String(e));
        return { message: e.message, timeout: e.timeout };
      };
      // Right away (the cache may not have seen its watch break yet) and once it has.
      const first = await Promise.all([failure(b.list("/registry/")), failure(b.get("/registry/k")), failure(b.listRange("/registry/", { limit: 1 }))]);
      await until(() => !b.cache!.isReady);
      const later = await Promise.all([failure(b.list("/registry/")), failure(b.get("/registry/k")), failure(b.listRange("/registry/", { limit: 1 }))]);
      const expected = await Promise.all([failure(plain.list("/registry/")), failure(plain.get("/registry/k")), failure(plain.listRange("/registry/", { limit: 1 }))]);
      assert.deepEqual(first, expected);
      assert.deepEqual(later, expected);
    } finally {
      await plain.close();
      await b.close();
      await etcd.cleanup();
    }
  });

  it("a read racing the cache's stop defers to etcd (the stopped cache drops its values), never answers 'absent'", async () => {
    const etcd = await EtcdProcess.start();
    const s = new EtcdStore({ servers: [etcd.url], prefix: "/race", callTimeoutMs: 10_000, compactionIntervalMs: 0 });
    try {
      const w = await s.create("/registry/k", "{}");
      await s.get("/registry/warm-up");
      await until(() => s.cache!.isReady);
      const key = s.etcdKey("/registry/k");
      assert.equal((await s.cache!.lookup(key, w.modRevision)) === NOT_CACHED, false);
      // The cache is current: the lookup does not wait, and the stop lands between its check and its read.
      const racing = s.cache!.lookup(key, w.modRevision);
      s.cache!.stop();
      assert.equal(await racing, NOT_CACHED);
    } finally {
      await s.close();
      await etcd.cleanup();
    }
  });
});
