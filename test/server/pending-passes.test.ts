/**
 * PendingPasses: the CRD status passes a create answered before they finished. Requests wait for the passes under
 * way; a read of one key runs in parallel with them and answers the pass's write when it is newer than what the
 * store answered (never a value older than the read, never a key the read found absent).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PendingPasses } from "../../src/server/controllers/pending-passes.js";
import { MemoryStore } from "../../src/storage/memory-store.js";
import type { StoredValue } from "../../src/storage/types.js";

/** A promise and its resolver (a pass held until the test lets it finish). */
function held<T = void>(): { promise: Promise<T>; release: (v: T) => void } {
  let release!: (v: T) => void;
  const promise = new Promise<T>((r) => (release = r));
  return { promise, release };
}

describe("PendingPasses", () => {
  it("is idle without passes, busy while one runs, idle once it settled (also when it failed)", async () => {
    const p = new PendingPasses();
    assert.equal(p.idle, true);
    const a = held();
    p.track(a.promise);
    let rejectB!: (e: Error) => void;
    p.track(new Promise((_, reject) => (rejectB = reject)));
    assert.equal(p.idle, false);
    let settled = false;
    const waiting = p.settled().then(() => (settled = true));
    a.release();
    await a.promise;
    assert.equal(settled, false, "one pass is still under way");
    rejectB(new Error("etcd went away"));
    await waiting;
    assert.equal(settled, true);
    assert.equal(p.idle, true);
  });

  it("a read answers the pass's write when it is newer than the store's answer, else the store's answer", async () => {
    const store = new MemoryStore();
    const p = new PendingPasses();
    const recorded = p.recording(store);
    const created = await store.create("/registry/a", "v1");
    const pass = held();
    p.track(pass.promise);
    // The read was answered before the pass's write (an older revision of the key).
    const read = p.read("/registry/a", Promise.resolve(created));
    const written = await recorded.update("/registry/a", "v2", created.modRevision);
    pass.release();
    assert.deepEqual(await read, written);
    // A read newer than the pass's write keeps its own answer.
    const later = await store.update("/registry/a", "v3", written.modRevision);
    const again = held();
    p.track(again.promise);
    const read2 = p.read("/registry/a", Promise.resolve(later));
    again.release();
    assert.deepEqual(await read2, later);
  });

  it("a key the read found absent stays absent; another key's write is not answered", async () => {
    const store = new MemoryStore();
    const p = new PendingPasses();
    const recorded = p.recording(store);
    const created = await store.create("/registry/a", "v1");
    const pass = held();
    p.track(pass.promise);
    await recorded.update("/registry/a", "v2", created.modRevision);
    const absent = p.read("/registry/a", Promise.resolve(undefined));
    const other: StoredValue = await store.create("/registry/b", "b1");
    const b = p.read("/registry/b", Promise.resolve(other));
    pass.release();
    assert.equal(await absent, undefined);
    assert.deepEqual(await b, other);
  });

  it("writes made while no pass runs are not remembered (nothing kept between busy periods)", async () => {
    const store = new MemoryStore();
    const p = new PendingPasses();
    const recorded = p.recording(store);
    const created = await store.create("/registry/a", "v1");
    await recorded.update("/registry/a", "v2", created.modRevision);
    const pass = held();
    p.track(pass.promise);
    const read = p.read("/registry/a", Promise.resolve(created));
    pass.release();
    assert.deepEqual(await read, created, "the idle write was not recorded, so the read's own answer stands");
  });
});
