/**
 * The etcd watch cache keeps exactly the keys of its store's prefix (src/storage/etcd/etcd-watch-cache.ts):
 * another prefix that merely starts with the same text (`/tenant-1` and `/tenant-10`) is neither kept in
 * memory nor answered from the cache, reads of keys outside the prefix answer what etcd holds, the
 * root prefix `/` gets a working cache, and a closed store keeps no values.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { EtcdStore } from "../../src/storage/etcd/etcd-store.js";
import { NOT_CACHED } from "../../src/storage/etcd/etcd-watch-cache.js";
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

/** Writes a raw etcd key (as another program sharing the etcd would). */
async function put(s: EtcdStore, key: string, value: string): Promise<void> {
  await s.client.txn({ compare: [], success: [{ request_put: { key: Buffer.from(key), value: Buffer.from(value) } }], failure: [] });
}

describe("etcd watch cache prefix", { timeout: 120_000 }, () => {
  it("keeps only its own prefix's keys, not those of a prefix that starts with the same text", async () => {
    const mine = open("/tenant-1");
    const plain = open("/tenant-1", false);
    const other = open("/tenant-10", false);
    try {
      await warm(mine);
      await plain.create("/registry/ns/a", '{"a":1}');
      for (let i = 0; i < 20; i++) await other.create(`/registry/ns/o${i}`, "x".repeat(1000));
      // A key of this store's etcd prefix that is not under its /registry/ root.
      await put(plain, "/tenant-1x", "outside");
      assert.deepEqual(await mine.get("/registry/ns/a"), await plain.get("/registry/ns/a"));
      // The other tenant's 20 values are not held in memory: only this store's key is.
      assert.equal(mine.cache!.size, 1);
      // Reads reaching outside the prefix answer what etcd holds.
      assert.deepEqual(await mine.get("x"), await plain.get("x"));
      assert.equal((await mine.get("x"))?.value, "outside");
      const whole = await plain.list("/registry");
      assert.equal(whole.items.length, 22);
      assert.deepEqual((await mine.list("/registry")).items, whole.items);
      assert.deepEqual((await mine.listRange("/registry", { limit: 3 })).count, 22);
      assert.deepEqual(await mine.list("/registry/ns/"), await plain.list("/registry/ns/"));
      assert.deepEqual(await mine.listRange("/registry/ns/", { limit: 1 }), await plain.listRange("/registry/ns/", { limit: 1 }));
      // Closing the store lets go of the cached values.
      await mine.close();
      assert.equal(mine.cache!.size, 0);
    } finally {
      await mine.close();
      await plain.close();
      await other.close();
    }
  });

  it("serves reads from the cache with the root prefix /", async () => {
    const s = open("/");
    const plain = open("/", false);
    try {
      await warm(s);
      const w = await plain.create("/registry/root-prefix/k", '{"k":1}');
      const served0 = s.cache!.served;
      assert.deepEqual(await s.get("/registry/root-prefix/k"), { key: "/registry/root-prefix/k", value: '{"k":1}', createRevision: w.modRevision, modRevision: w.modRevision });
      assert.deepEqual(await s.list("/registry/root-prefix/"), await plain.list("/registry/root-prefix/"));
      assert.equal(s.cache!.served - served0, 2);
      assert.equal(s.cache!.resets, 0);
    } finally {
      await s.close();
      await plain.close();
    }
  });

  it("keeps its values without the rest of the etcd messages they arrived in", async () => {
    const s = open("/own-bytes");
    const plain = open("/own-bytes", false);
    try {
      for (let i = 0; i < 8; i++) await plain.create(`/registry/big${i}`, "v".repeat(100_000));
      await plain.create("/registry/keep", "{}");
      await warm(s);
      // One revision: a large value outside the prefix and a small one inside arrive in one watch response.
      await plain.client.txn({
        compare: [],
        success: [
          { request_put: { key: Buffer.from("/own-bytes-neighbour/big"), value: Buffer.alloc(1_500_000, 120) } },
          { request_put: { key: Buffer.from("/own-bytes/small"), value: Buffer.from("{}") } },
        ],
        failure: [],
      });
      for (let i = 0; i < 8; i++) await plain.delete(`/registry/big${i}`);
      assert.equal((await s.get("/registry/small"))?.value, "{}");
      assert.equal(s.cache!.size, 2);
      // What the cache holds for its keys is their own bytes, not the 800 kB list or the 1.5 MB response.
      for (const key of ["/registry/small", "/registry/keep"]) {
        const kv = s.cache!.peek(s.etcdKey(key));
        assert.ok(kv !== undefined && kv !== NOT_CACHED, key);
        assert.ok(kv.value.buffer.byteLength < 64 * 1024, `${key}: ${kv.value.buffer.byteLength} bytes kept`);
        assert.ok(kv.key.buffer.byteLength < 64 * 1024, `${key}: ${kv.key.buffer.byteLength} bytes kept`);
      }
    } finally {
      await s.close();
      await plain.close();
    }
  });

});
