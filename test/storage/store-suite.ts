/**
 * The behaviour every {@link Store} must have, run against SQLite and etcd so that they cannot drift.
 * Revisions are checked relative to the store's revision when the test starts (an etcd is shared by the
 * tests of a file; each test gets its own key prefix).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  FutureRevisionError,
  KeyExistsError,
  KeyNotFoundError,
  RevisionCompactedError,
  RevisionConflictError,
  type Store,
  type StoreEvent,
} from "../../src/storage/types.js";

export interface SuiteStore {
  store: Store;
  /** Compacts history up to `revision`. */
  compact(revision: number): Promise<void>;
  close(): Promise<void>;
}

/** Collects events until `n` arrived. */
function collector() {
  const seen: StoreEvent[] = [];
  let wake: (() => void) | undefined;
  return {
    seen,
    onEvent: (e: StoreEvent) => {
      seen.push(e);
      wake?.();
    },
    async waitFor(n: number): Promise<void> {
      while (seen.length < n) await new Promise<void>((r) => (wake = r));
    },
  };
}

/** The contract on the stores `open` makes (`skip`: the reason the store is unavailable). */
export function storeSuite(name: string, open: () => Promise<SuiteStore>, skip: string | false = false): void {
  describe(`Store contract: ${name}`, { skip }, () => {
    const withStore = (title: string, fn: (s: Store, base: number, t: SuiteStore) => Promise<void>) =>
      it(title, async () => {
        const t = await open();
        try {
          await fn(t.store, await t.store.currentRevision(), t);
        } finally {
          await t.close();
        }
      });

    withStore("assigns increasing revisions and keeps create/mod revisions", async (s, base) => {
      const a = await s.create("/registry/a/1", "{}");
      const b = await s.create("/registry/a/2", "{}");
      const a2 = await s.update("/registry/a/1", '{"x":1}', a.modRevision);
      assert.deepEqual([a.modRevision - base, b.modRevision - base, a2.modRevision - base], [1, 2, 3]);
      assert.equal(a2.createRevision, a.modRevision);
      assert.equal(await s.currentRevision(), base + 3);
      assert.deepEqual(
        (await s.list("/registry/a/")).items.map((i) => [i.key, i.value, i.modRevision - base, i.createRevision - base]),
        [
          ["/registry/a/1", '{"x":1}', 3, 1],
          ["/registry/a/2", "{}", 2, 2],
        ],
      );
      assert.deepEqual(await s.get("/registry/a/1"), { key: "/registry/a/1", value: '{"x":1}', createRevision: base + 1, modRevision: base + 3 });
      assert.equal(await s.get("/registry/a/3"), undefined);
    });

    const errorCases: { name: string; run: (s: Store, rev: number) => Promise<unknown>; error: new (...a: never[]) => Error }[] = [
      { name: "create of an existing key", run: (s) => s.create("/registry/k", "{}"), error: KeyExistsError },
      { name: "update with a stale revision", run: (s, rev) => s.update("/registry/k", "{}", rev - 1), error: RevisionConflictError },
      { name: "update of a missing key", run: (s) => s.update("/registry/missing", "{}"), error: KeyNotFoundError },
      { name: "conditional update of a missing key", run: (s, rev) => s.update("/registry/missing", "{}", rev), error: KeyNotFoundError },
      { name: "delete with a stale revision", run: (s, rev) => s.delete("/registry/k", rev + 5), error: RevisionConflictError },
      { name: "delete of a missing key", run: (s) => s.delete("/registry/missing"), error: KeyNotFoundError },
    ];
    for (const c of errorCases) {
      withStore(`rejects ${c.name} without writing`, async (s, base) => {
        const k = await s.create("/registry/k", "{}");
        await assert.rejects(c.run(s, k.modRevision), c.error);
        assert.equal(await s.currentRevision(), base + 1);
        assert.equal((await s.get("/registry/k"))?.modRevision, k.modRevision);
      });
    }

    withStore("reports the current revision in a conflict", async (s) => {
      const k = await s.create("/registry/k", "{}");
      const k2 = await s.update("/registry/k", "[]", k.modRevision);
      await assert.rejects(s.update("/registry/k", "{}", k.modRevision), (e: unknown) => e instanceof RevisionConflictError && e.actual === k2.modRevision);
    });

    withStore("lists only keys under the prefix, sorted", async (s) => {
      for (const k of ["/registry/r/b", "/registry/r/a/x", "/registry/r/ab/y", "/registry/r/a/z"]) await s.create(k, "{}");
      assert.deepEqual(
        (await s.list("/registry/r/a/")).items.map((i) => i.key),
        ["/registry/r/a/x", "/registry/r/a/z"],
      );
    });

    withStore("reads a consistent snapshot at a past revision, from a start key, limited, with count", async (s, base) => {
      await s.create("/registry/p/a", '"a1"'); // 1
      await s.create("/registry/p/b", '"b1"'); // 2
      await s.create("/registry/p/c", '"c1"'); // 3
      await s.update("/registry/p/a", '"a2"'); // 4
      await s.delete("/registry/p/b"); // 5
      await s.create("/registry/p/d", '"d1"'); // 6
      await s.create("/registry/q/x", '"x"'); // 7
      const view = async (rev: number, startKey?: string, limit?: number) => {
        const r = await s.listRange("/registry/p/", { revision: base + rev, ...(startKey ? { startKey } : {}), ...(limit ? { limit } : {}) });
        return [r.revision - base, r.count, r.items.map((i) => `${i.key.slice(12)}=${i.value}@${i.modRevision - base}/${i.createRevision - base}`)];
      };
      assert.deepEqual(await view(3), [3, 3, ['a="a1"@1/1', 'b="b1"@2/2', 'c="c1"@3/3']]);
      assert.deepEqual(await view(4), [4, 3, ['a="a2"@4/1', 'b="b1"@2/2', 'c="c1"@3/3']]);
      assert.deepEqual(await view(5, "/registry/p/a\u0000", 1), [5, 1, ['c="c1"@3/3']]);
      assert.deepEqual(await view(7, "/registry/p/b", 1), [7, 2, ['c="c1"@3/3']]);
      assert.deepEqual(await view(2, "/registry/p/", 1), [2, 2, ['a="a1"@1/1']]);
      const latest = await s.listRange("/registry/p/", { limit: 2 });
      assert.deepEqual([latest.revision - base, latest.count, latest.items.length], [7, 3, 2]);
      await assert.rejects(s.listRange("/registry/p/", { revision: base + 100 }), FutureRevisionError);
    });

    withStore("replays history after a revision, then delivers live events in order, once", async (s, base) => {
      await s.create("/registry/w/a", "1");
      await s.create("/registry/x/other", "1");
      await s.update("/registry/w/a", "2");
      const c = collector();
      const w = await s.watch("/registry/w/", base + 1, c.onEvent);
      await s.create("/registry/w/b", "3");
      await s.delete("/registry/w/a");
      await c.waitFor(3);
      w.cancel();
      await s.create("/registry/w/c", "4");
      // A later watch from the same point sees the same history.
      const d = collector();
      const w2 = await s.watch("/registry/w/", base + 1, d.onEvent);
      await d.waitFor(4);
      w2.cancel();
      const render = (e: StoreEvent) => [e.type, e.key, e.revision - base, e.value, e.prevValue ?? null];
      assert.deepEqual(c.seen.map(render), [
        ["MODIFIED", "/registry/w/a", 3, "2", "1"],
        ["ADDED", "/registry/w/b", 4, "3", null],
        ["DELETED", "/registry/w/a", 5, "2", "2"],
      ]);
      assert.deepEqual(d.seen.map(render), [...c.seen.map(render), ["ADDED", "/registry/w/c", 6, "4", null]]);
    });

    withStore("reports a watch's progress: every event up to it delivered", async (s) => {
      const c = collector();
      const w = await s.watch("/registry/w/", await s.currentRevision(), c.onEvent);
      const mine = await s.create("/registry/w/a", "1");
      const other = await s.create("/registry/other/b", "2");
      const p = await w.progress();
      // Everything through `p` has arrived: the event of the watched key, and no more.
      assert.ok(p >= other.modRevision, `progress ${p} < ${other.modRevision}`);
      assert.deepEqual(
        c.seen.map((e) => e.revision),
        [mine.modRevision],
      );
      w.cancel();
      assert.equal(await w.progress(), 0);
    });

    withStore("refuses watches and past reads before a compaction", async (s, base, t) => {
      for (let i = 0; i < 6; i++) await s.create(`/registry/c/${i}`, "{}");
      await t.compact(base + 4);
      await assert.rejects(
        s.watch("/registry/c/", base + 2, () => {}),
        (e: unknown) => e instanceof RevisionCompactedError && e.message === `too old resource version: ${base + 2} (${base + 4})`,
      );
      await assert.rejects(s.listRange("/registry/c/", { revision: base + 3 }), RevisionCompactedError);
      assert.equal((await s.listRange("/registry/c/", { revision: base + 4 })).items.length, 4);
      const c = collector();
      const w = await s.watch("/registry/c/", base + 4, c.onEvent);
      await c.waitFor(2);
      w.cancel();
      assert.deepEqual(
        c.seen.map((e) => e.revision - base),
        [5, 6],
      );
    });

    withStore("deletes a prefix", async (s, base) => {
      await s.create("/registry/p/a", "{}");
      await s.create("/registry/p/b", "{}");
      await s.create("/registry/q/a", "{}");
      assert.equal(await s.deletePrefix("/registry/p/"), 2);
      assert.ok((await s.currentRevision()) > base + 3);
      assert.deepEqual(
        (await s.list("/registry/")).items.map((i) => i.key),
        ["/registry/q/a"],
      );
    });

    withStore("settles concurrent writes independently: one refused write leaves the others", async (s) => {
      const keys = ["/registry/g/a", "/registry/g/b", "/registry/g/a", "/registry/g/c"];
      const out = await Promise.allSettled(keys.map((k, i) => s.create(k, String(i))));
      const refused = out.filter((o) => o.status === "rejected");
      assert.equal(refused.length, 1);
      assert.ok((refused[0] as PromiseRejectedResult).reason instanceof KeyExistsError);
      const revs = out.flatMap((o) => (o.status === "fulfilled" ? [o.value.modRevision] : []));
      assert.equal(new Set(revs).size, 3);
      const revOf = (i: number) => {
        const o = out[i]!;
        return o.status === "fulfilled" ? o.value.modRevision : undefined;
      };
      assert.deepEqual(
        (await s.list("/registry/g/")).items.map((i) => [i.key, i.modRevision]),
        [
          ["/registry/g/a", revOf(0) ?? revOf(2)],
          ["/registry/g/b", revOf(1)],
          ["/registry/g/c", revOf(3)],
        ],
      );
    });

    withStore("keeps values byte for byte (unicode, large integers)", async (s) => {
      const v = '{"a":"ü\\u003c€","n":12345678901234567890}';
      await s.create("/registry/v", v);
      assert.equal((await s.get("/registry/v"))?.value, v);
    });
  });
}
