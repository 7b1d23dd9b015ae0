/** `SqliteStore.createThen`: a create and a controller's follow-up write in one commit, two revisions. */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { SqliteStore } from "../../src/storage/sqlite-store.js";
import { KeyExistsError, type StoredValue, type StoreEvent } from "../../src/storage/types.js";

describe("SqliteStore.createThen", () => {
  it("writes the create and the follow-up as two revisions, seen by watches as ADDED then MODIFIED", async () => {
    const store = new SqliteStore({ path: ":memory:" });
    const events: StoreEvent[] = [];
    await store.watch("/a/", 0, (e) => events.push(e));
    const seen: StoredValue[] = [];
    const r = await store.createThen("/a/x", '{"v":1}', (created) => {
      seen.push(created);
      return '{"v":2}';
    });
    assert.deepEqual(r.created, { key: "/a/x", value: '{"v":1}', createRevision: 1, modRevision: 1 });
    assert.deepEqual(r.next, { key: "/a/x", value: '{"v":2}', createRevision: 1, modRevision: 2 });
    assert.deepEqual(seen, [r.created]);
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
    const declined = await store.createThen("/a/x", "1", () => undefined);
    assert.equal(declined.next, undefined);
    const threw = await store.createThen("/a/y", "1", () => {
      throw new Error("boom");
    });
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
      store.createThen("/a/x", "2", () => {
        ran = true;
        return "3";
      }),
      KeyExistsError,
    );
    assert.equal(ran, false);
    assert.equal(await store.currentRevision(), 1);
    await store.close();
  });

  it("tells the follow-up which keys earlier writes of the same commit wrote", async () => {
    const store = new SqliteStore({ path: ":memory:" });
    const earlier: string[][] = [];
    // Issued in one turn of the event loop: one transaction.
    const [a, b, c] = await Promise.all([
      store.create("/a/1", "1"),
      store.createThen("/a/2", "2", (_, keys) => {
        earlier.push([...keys]);
        return "2b";
      }),
      store.createThen("/a/3", "3", (_, keys) => {
        earlier.push([...keys]);
        return undefined;
      }),
    ]);
    assert.deepEqual(earlier, [["/a/1"], ["/a/1", "/a/2", "/a/2"]]);
    assert.deepEqual([a.modRevision, b.created.modRevision, b.next?.modRevision, c.created.modRevision], [1, 2, 3, 4]);
    await store.close();
  });

  it("is durable: both revisions are there after reopening the database", async () => {
    const dir = mkdtempSync(join(tmpdir(), "crdkit-create-then-"));
    try {
      const path = join(dir, "crdkit.db");
      const store = new SqliteStore({ path });
      await store.createThen("/a/x", "1", () => "2");
      await store.close();
      const again = new SqliteStore({ path });
      assert.deepEqual(await again.get("/a/x"), { key: "/a/x", value: "2", createRevision: 1, modRevision: 2 });
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
