/** `SqliteStore.createThen`: a create and a controller's follow-up write in one commit, two revisions. */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { SqliteStore } from "../../src/storage/sqlite-store.js";
import { type FollowUpGuard, KeyExistsError, type StoreEvent } from "../../src/storage/types.js";

/** Nothing under `/a/` changed since revision 0 (or since `since`). */
const guard = (since = 0): FollowUpGuard => ({ prefix: "/a/", unchangedSince: since });

describe("SqliteStore.createThen", () => {
  it("writes the create and the follow-up as two revisions, seen by watches as ADDED then MODIFIED", async () => {
    const store = new SqliteStore({ path: ":memory:" });
    const events: StoreEvent[] = [];
    await store.watch("/a/", 0, (e) => events.push(e));
    const seen: string[][] = [];
    const r = await store.createThen(
      "/a/x",
      '{"v":1}',
      (key, created) => {
        seen.push([key, created]);
        return '{"v":2}';
      },
      guard(),
    );
    assert.deepEqual(r.created, { key: "/a/x", value: '{"v":1}', createRevision: 1, modRevision: 1 });
    assert.deepEqual(r.next, { key: "/a/x", value: '{"v":2}', createRevision: 1, modRevision: 2 });
    assert.deepEqual(seen, [["/a/x", '{"v":1}']]);
    assert.deepEqual(
      events.map((e) => [e.type, e.revision, e.value, e.prevValue]),
      [
        ["ADDED", 1, '{"v":1}', undefined],
        ["MODIFIED", 2, '{"v":2}', '{"v":1}'],
      ],
    );
    assert.deepEqual(await store.get("/a/x"), r.next);
    // History keeps both states: a read at the create's revision sees the created value.
    assert.deepEqual((await store.listRange("/a/", { revision: 1 })).items, [r.created]);
    await store.close();
  });

  it("writes nothing more when the follow-up declines or throws", async () => {
    const store = new SqliteStore({ path: ":memory:" });
    const declined = await store.createThen("/a/x", "1", () => undefined, guard());
    assert.equal(declined.next, undefined);
    const threw = await store.createThen(
      "/a/y",
      "1",
      () => {
        throw new Error("boom");
      },
      guard(),
    );
    assert.equal(threw.next, undefined);
    assert.equal(await store.currentRevision(), 2);
    assert.deepEqual((await store.get("/a/y"))?.value, "1");
    await store.close();
  });

  it("refuses an existing key without running the follow-up", async () => {
    const store = new SqliteStore({ path: ":memory:" });
    await store.create("/a/x", "1");
    let ran = false;
    await assert.rejects(
      store.createThen(
        "/a/x",
        "2",
        () => {
          ran = true;
          return "3";
        },
        guard(),
      ),
      KeyExistsError,
    );
    assert.equal(ran, false);
    assert.equal(await store.currentRevision(), 1);
    await store.close();
  });

  it("writes no follow-up when another key under the guard's prefix changed after its revision", async () => {
    const store = new SqliteStore({ path: ":memory:" });
    await store.create("/a/old", "1");
    await store.create("/b/elsewhere", "1");
    // Changes before the guard's revision, and outside its prefix, do not matter.
    const ok = await store.createThen("/a/x", "1", () => "2", guard(1));
    assert.equal(ok.next?.modRevision, 4);
    // A change under the prefix after it does (committed before).
    const stale = await store.createThen("/a/y", "1", () => "2", guard(1));
    assert.equal(stale.next, undefined);
    // Also one earlier in the same commit (issued in the same turn of the event loop).
    const [other, mine] = await Promise.all([store.update("/a/old", "2"), store.createThen("/a/z", "1", () => "2", guard(5))]);
    assert.equal(other.modRevision, 6);
    assert.equal(mine.next, undefined);
    // A deletion is a change too.
    await store.delete("/a/old");
    assert.equal((await store.createThen("/a/w", "1", () => "2", guard(7))).next, undefined);
    // The guard's revision compacted away: no follow-up.
    await store.compact(9);
    assert.equal((await store.createThen("/a/v", "1", () => "2", guard(8))).next, undefined);
    // A guard more than 1,000 revisions back is not scanned for (nothing under /a/ changed, still no follow-up:
    // the caller writes it as usual).
    for (let i = 0; i < 1000; i++) await store.create(`/b/${i}`, "1");
    assert.equal((await store.createThen("/a/u", "1", () => "2", guard(10))).next, undefined);
    const recent = await store.currentRevision();
    assert.equal((await store.createThen("/a/t", "1", () => "2", guard(recent))).next?.value, "2");
    await store.close();
  });

  it("is durable: both revisions are there after reopening the database", async () => {
    const dir = mkdtempSync(join(tmpdir(), "crdkit-create-then-"));
    try {
      const path = join(dir, "crdkit.db");
      const store = new SqliteStore({ path });
      await store.createThen("/a/x", "1", () => "2", guard());
      await store.close();
      const again = new SqliteStore({ path });
      assert.deepEqual(await again.get("/a/x"), { key: "/a/x", value: "2", createRevision: 1, modRevision: 2 });
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
