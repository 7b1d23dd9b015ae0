import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { SqliteStore } from "../../src/storage/sqlite-store.js";
import {
  KeyExistsError,
  KeyNotFoundError,
  RevisionCompactedError,
  RevisionConflictError,
  type StoreEvent,
} from "../../src/storage/types.js";

const dir = mkdtempSync(join(tmpdir(), "crdkit-store-"));
after(() => rmSync(dir, { recursive: true, force: true }));

describe("SqliteStore", async () => {
  it("assigns increasing revisions and keeps create/mod revisions", async () => {
    const s = new SqliteStore({ path: ":memory:" });
    const a = await s.create("/a/1", "{}");
    const b = await s.create("/a/2", "{}");
    const a2 = await s.update("/a/1", '{"x":1}', a.modRevision);
    assert.deepEqual([a.modRevision, b.modRevision, a2.modRevision], [1, 2, 3]);
    assert.equal(a2.createRevision, 1);
    assert.equal(await s.currentRevision(), 3);
    assert.deepEqual(
      (await s.list("/a/")).items.map((i) => [i.key, i.modRevision]),
      [
        ["/a/1", 3],
        ["/a/2", 2],
      ],
    );
    await s.close();
  });

  const errorCases: { name: string; run: (s: SqliteStore) => unknown; error: new (...a: never[]) => Error }[] = [
    { name: "create of an existing key", run: (s) => s.create("/k", "{}"), error: KeyExistsError },
    { name: "update with a stale revision", run: (s) => s.update("/k", "{}", 99), error: RevisionConflictError },
    { name: "update of a missing key", run: (s) => s.update("/missing", "{}"), error: KeyNotFoundError },
    { name: "delete with a stale revision", run: (s) => s.delete("/k", 99), error: RevisionConflictError },
    { name: "delete of a missing key", run: (s) => s.delete("/missing"), error: KeyNotFoundError },
  ];
  for (const c of errorCases) {
    it(`rejects ${c.name} without writing`, async () => {
      const s = new SqliteStore({ path: ":memory:" });
      await s.create("/k", "{}");
      await assert.rejects(async () => c.run(s), c.error);
      assert.equal(await s.currentRevision(), 1);
      await s.close();
    });
  }

  it("lists only keys under the prefix", async () => {
    const s = new SqliteStore({ path: ":memory:" });
    for (const k of ["/r/a/x", "/r/ab/y", "/r/a/z", "/r/b"]) await s.create(k, "{}");
    assert.deepEqual(
      (await s.list("/r/a/")).items.map((i) => i.key),
      ["/r/a/x", "/r/a/z"],
    );
    await s.close();
  });

  it("replays history after a revision, then delivers live events in order", async () => {
    const s = new SqliteStore({ path: ":memory:" });
    await s.create("/w/a", "1");
    await s.create("/x/other", "1");
    await s.update("/w/a", "2");
    const seen: StoreEvent[] = [];
    const w = await s.watch("/w/", 1, (e) => seen.push(e));
    await s.create("/w/b", "3");
    await s.delete("/w/a");
    w.cancel();
    await s.create("/w/c", "4");
    assert.deepEqual(
      seen.map((e) => [e.type, e.key, e.revision, e.value, e.prevValue ?? null]),
      [
        ["MODIFIED", "/w/a", 3, "2", "1"],
        ["ADDED", "/w/b", 4, "3", null],
        ["DELETED", "/w/a", 5, "2", "2"],
      ],
    );
    await s.close();
  });

  it("compacts history and answers too-old watches with RevisionCompactedError", async () => {
    const s = new SqliteStore({ path: ":memory:", historySize: 10 });
    for (let i = 0; i < 1000; i++) await s.create(`/c/${i}`, "{}");
    assert.equal(s.compactedRevision(), 990);
    await assert.rejects(s.watch("/c/", 5, () => {}), RevisionCompactedError);
    const seen: number[] = [];
    (await s.watch("/c/", 995, (e) => seen.push(e.revision))).cancel();
    assert.deepEqual(seen, [996, 997, 998, 999, 1000]);
    await s.close();
  });

  it("deletes a prefix with one revision per key", async () => {
    const s = new SqliteStore({ path: ":memory:" });
    await s.create("/p/a", "{}");
    await s.create("/p/b", "{}");
    await s.create("/q/a", "{}");
    assert.equal(await s.deletePrefix("/p/"), 2);
    assert.equal(await s.currentRevision(), 5);
    assert.deepEqual(
      (await s.list("/")).items.map((i) => i.key),
      ["/q/a"],
    );
    await s.close();
  });

  it("persists keys, revision and history across reopen", async () => {
    const path = join(dir, "reopen.db");
    const s = new SqliteStore({ path });
    await s.create("/a", '{"v":1}');
    await s.update("/a", '{"v":2}');
    await s.close();
    const t = new SqliteStore({ path });
    assert.equal(await t.currentRevision(), 2);
    assert.equal((await t.get("/a"))?.value, '{"v":2}');
    assert.equal((await t.create("/b", "{}")).modRevision, 3);
    const seen: string[] = [];
    (await t.watch("/", 0, (e) => seen.push(`${e.type} ${e.key}`))).cancel();
    assert.deepEqual(seen, ["ADDED /a", "MODIFIED /a", "ADDED /b"]);
    await t.close();
  });
});
