import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { SqliteStore } from "../../src/storage/sqlite-store.js";
import { RevisionCompactedError } from "../../src/storage/types.js";

const dir = mkdtempSync(join(tmpdir(), "crdkit-store-"));
after(() => rmSync(dir, { recursive: true, force: true }));

describe("SqliteStore", async () => {
  // The behaviour every store shares is tested by test/storage/store-suite.ts (SQLite and etcd); these
  // are SQLite's own: history trimmed by size, one revision per deleted key, persistence.
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
