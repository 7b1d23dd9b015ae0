/** `EtcdStore.createThen` on a real etcd: the follow-up Txn sent behind the create, and its guards. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { EtcdStore } from "../../src/storage/etcd/etcd-store.js";
import { KeyExistsError, type StoreEvent } from "../../src/storage/types.js";
import { EtcdProcess } from "./etcd-process.js";

let etcd: EtcdProcess;
let n = 0;
before(async () => {
  etcd = await EtcdProcess.start();
});
after(() => etcd.cleanup());

const open = () => new EtcdStore({ servers: [etcd.url], prefix: `/create-then-${++n}`, callTimeoutMs: 10_000, compactionIntervalMs: 0 });

describe("EtcdStore.createThen", () => {
  it("writes the follow-up as the next revision (ADDED, then MODIFIED); when etcd applied it first, the create stands alone", async () => {
    const store = open();
    try {
      const rev0 = await store.currentRevision();
      const events: StoreEvent[] = [];
      const w = await store.watch("/registry/a/", rev0, (e) => events.push(e));
      let landed = 0;
      for (let i = 0; i < 20; i++) {
        const key = `/registry/a/k${i}`;
        const r = await store.createThen(key, `{"v":${i}}`, (k, v) => `{"k":"${k}","was":${v}}`, { prefix: "/registry/a/", unchangedSince: await store.currentRevision() });
        assert.equal(r.created.value, `{"v":${i}}`);
        if (r.next) {
          landed++;
          assert.deepEqual(r.next, { key, value: `{"k":"${key}","was":{"v":${i}}}`, createRevision: r.created.modRevision, modRevision: r.created.modRevision + 1 });
        }
        assert.deepEqual(await store.get(key), r.next ?? r.created);
      }
      // etcd applies the Txns of one connection in the order sent, as a rule.
      assert.ok(landed > 0, "no follow-up was applied");
      while (events.length < 20 + landed) await new Promise((r) => setTimeout(r, 10));
      w.cancel();
      const k0 = events.filter((e) => e.key === "/registry/a/k0").map((e) => e.type);
      assert.ok(["ADDED", "ADDED,MODIFIED"].includes(k0.join(",")), k0.join(","));
    } finally {
      await store.close();
    }
  });

  it("writes no follow-up when another key under the guard's prefix changed after its revision", async () => {
    const store = open();
    try {
      const before = await store.currentRevision();
      await store.create("/registry/a/other", "1");
      await store.create("/registry/b/elsewhere", "1");
      const r = await store.createThen("/registry/a/x", "1", () => "2", { prefix: "/registry/a/", unchangedSince: before });
      assert.equal(r.next, undefined);
      assert.equal((await store.get("/registry/a/x"))?.value, "1");
      // Keys after the created one in key order count too.
      const mid = await store.currentRevision();
      await store.update("/registry/a/zzz-later", "1").catch(() => store.create("/registry/a/zzz-later", "1"));
      assert.equal((await store.createThen("/registry/a/y", "1", () => "2", { prefix: "/registry/a/", unchangedSince: mid })).next, undefined);
    } finally {
      await store.close();
    }
  });

  it("refuses an existing key and writes nothing", async () => {
    const store = open();
    try {
      const c = await store.create("/registry/a/x", "1");
      await assert.rejects(store.createThen("/registry/a/x", "2", () => "3", { prefix: "/registry/a/", unchangedSince: c.modRevision }), KeyExistsError);
      assert.deepEqual(await store.get("/registry/a/x"), c);
    } finally {
      await store.close();
    }
  });
});
