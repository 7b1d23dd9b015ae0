/**
 * Shared watches on etcd (`WatchOptions.shared`, src/storage/etcd/etcd-cache-subscribers.ts): an informer's watch
 * fed by the watch cache's etcd watch delivers exactly what an etcd watch of its own delivers (types, revisions,
 * values, previous values, deletions), falls back to an etcd watch when the cache has already passed its start
 * revision, stops on cancel, and breaks (onError once) when the cache's watch breaks.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { EtcdStore } from "../../src/storage/etcd/etcd-store.js";
import { type StoreEvent, StoreUnavailableError } from "../../src/storage/types.js";
import { EtcdProcess } from "./etcd-process.js";
import { until } from "./until.js";

let etcd: EtcdProcess;
let n = 0;
before(async () => {
  etcd = await EtcdProcess.start();
});
after(() => etcd.cleanup());

const open = (url: string, prefix: string, callTimeoutMs = 10_000) => new EtcdStore({ servers: [url], prefix, callTimeoutMs, compactionIntervalMs: 0 });

/** Writes under /registry/ns/ (and one key outside it): creates, updates, a delete, a prefix delete. */
async function writes(s: EtcdStore): Promise<void> {
  const a = await s.create("/registry/ns/a", '{"a":1}');
  await s.create("/registry/other/x", '{"x":1}');
  const b = await s.create("/registry/ns/b", '{"b":1}');
  await s.update("/registry/ns/a", '{"a":2}', a.modRevision);
  await s.update("/registry/ns/b", '{"b":2}', b.modRevision);
  await s.delete("/registry/ns/a");
  await s.create("/registry/ns/c/1", '{"c":1}');
  await s.create("/registry/ns/c/2", '{"c":2}');
  await s.deletePrefix("/registry/ns/c/");
  await s.create("/registry/ns/a", '{"a":3}');
}

describe("etcd shared watches", { timeout: 120_000 }, () => {
  it("deliver what an etcd watch of their own delivers, from the cache's stream", async () => {
    const prefix = `/sw-${++n}`;
    const w = open(etcd.url, prefix);
    const s = open(etcd.url, prefix);
    const own: StoreEvent[] = [];
    const shared: StoreEvent[] = [];
    const errors: Error[] = [];
    try {
      await w.create("/registry/ns/before", "{}");
      const { revision } = await s.list("/registry/ns/");
      await until(() => s.cache!.isReady);
      const from = (await s.list("/registry/ns/")).revision;
      assert.ok(from >= revision);
      const ownWatch = await s.watch("/registry/ns/", from, (e) => own.push(e), (e) => errors.push(e));
      const sharedWatch = await s.watch("/registry/ns/", from, (e) => shared.push(e), (e) => errors.push(e), { shared: true });
      // Served by the cache: one subscriber, no etcd watch of its own.
      assert.equal(s.cache!.subscribed, 1);
      await writes(w);
      await until(() => own.length === 10 && shared.length === 10);
      assert.deepEqual(shared, own);
      assert.deepEqual(
        shared.map((e) => `${e.type} ${e.key} ${e.value} ${e.prevValue ?? "-"}`),
        [
          'ADDED /registry/ns/a {"a":1} -',
          'ADDED /registry/ns/b {"b":1} -',
          'MODIFIED /registry/ns/a {"a":2} {"a":1}',
          'MODIFIED /registry/ns/b {"b":2} {"b":1}',
          'DELETED /registry/ns/a {"a":2} {"a":2}',
          'ADDED /registry/ns/c/1 {"c":1} -',
          'ADDED /registry/ns/c/2 {"c":2} -',
          'DELETED /registry/ns/c/1 {"c":1} {"c":1}',
          'DELETED /registry/ns/c/2 {"c":2} {"c":2}',
          'ADDED /registry/ns/a {"a":3} -',
        ],
      );
      // The prefix delete is one revision with two events.
      assert.equal(shared[7]!.revision, shared[8]!.revision);
      assert.equal(await sharedWatch.progress(), s.cache!.currentRevision);
      sharedWatch.cancel();
      assert.equal(s.cache!.subscribed, 0);
      assert.equal(await sharedWatch.progress(), 0);
      await w.create("/registry/ns/after", "{}");
      await until(() => own.length === 11);
      assert.equal(shared.length, 10);
      ownWatch.cancel();
      assert.deepEqual(errors, []);
    } finally {
      await w.close();
      await s.close();
    }
  });

  it("watch etcd when the cache has already applied changes after the start revision", async () => {
    const prefix = `/sw-${++n}`;
    const w = open(etcd.url, prefix);
    const s = open(etcd.url, prefix);
    const events: StoreEvent[] = [];
    try {
      await s.list("/registry/ns/");
      await until(() => s.cache!.isReady);
      const from = (await s.list("/registry/ns/")).revision;
      const a = await w.create("/registry/ns/a", '{"a":1}');
      // The cache has the create: a watch from before it is an etcd watch (history from etcd), not a subscriber.
      assert.equal((await s.get("/registry/ns/a"))?.modRevision, a.modRevision);
      const watch = await s.watch("/registry/ns/", from, (e) => events.push(e), undefined, { shared: true });
      assert.equal(s.cache!.subscribed, 0);
      await w.update("/registry/ns/a", '{"a":2}', a.modRevision);
      await until(() => events.length === 2);
      assert.deepEqual(
        events.map((e) => `${e.type} ${e.value} ${e.prevValue ?? "-"}`),
        ['ADDED {"a":1} -', 'MODIFIED {"a":2} {"a":1}'],
      );
      watch.cancel();
    } finally {
      await w.close();
      await s.close();
    }
  });

  it("break once when the cache's etcd watch breaks (etcd restarted), and deliver nothing more", async () => {
    const own = await EtcdProcess.start();
    const w = open(own.url, "/sw-restart", 1500);
    const s = open(own.url, "/sw-restart", 1500);
    const events: StoreEvent[] = [];
    const errors: Error[] = [];
    try {
      await s.list("/registry/ns/");
      await until(() => s.cache!.isReady);
      const from = (await s.list("/registry/ns/")).revision;
      await s.watch("/registry/ns/", from, (e) => events.push(e), (e) => errors.push(e), { shared: true });
      assert.equal(s.cache!.subscribed, 1);
      await w.create("/registry/ns/a", "{}");
      await until(() => events.length === 1);
      await own.kill();
      await until(() => errors.length === 1);
      assert.ok(errors[0] instanceof StoreUnavailableError);
      assert.equal(s.cache!.subscribed, 0);
      await own.run();
      await w.create("/registry/ns/b", "{}");
      await until(() => s.cache!.isReady);
      assert.equal((await s.get("/registry/ns/b"))?.value, "{}");
      assert.equal(events.length, 1);
      assert.equal(errors.length, 1);
    } finally {
      await w.close();
      await s.close();
      await own.cleanup();
    }
  });

  it("a handler that throws breaks only its own watch", async () => {
    const prefix = `/sw-${++n}`;
    const w = open(etcd.url, prefix);
    const s = open(etcd.url, prefix);
    const good: StoreEvent[] = [];
    const errors: string[] = [];
    try {
      await s.list("/registry/ns/");
      await until(() => s.cache!.isReady);
      const from = (await s.list("/registry/ns/")).revision;
      await s.watch(
        "/registry/ns/",
        from,
        () => {
          throw new Error("handler failed");
        },
        (e) => errors.push(e.message),
        { shared: true },
      );
      await s.watch("/registry/ns/", from, (e) => good.push(e), (e) => errors.push(e.message), { shared: true });
      await w.create("/registry/ns/a", "{}");
      await w.create("/registry/ns/b", "{}");
      await until(() => good.length === 2);
      assert.deepEqual(errors, ["handler failed"]);
      assert.equal(s.cache!.subscribed, 1);
      assert.equal(s.cache!.resets, 0);
    } finally {
      await w.close();
      await s.close();
    }
  });
});
