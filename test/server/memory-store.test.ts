/**
 * MemoryStore (crdkit serve in memory without better-sqlite3) against SqliteStore: the same random
 * operation sequences must give the same results, errors, past-revision lists, watch replays and live
 * events, compaction included.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MemoryStore } from "../../src/storage/memory-store.js";
import { SqliteStore } from "../../src/storage/sqlite-store.js";
import type { Store, StoreEvent } from "../../src/storage/types.js";

/** A small deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function outcome(f: () => Promise<unknown>): Promise<unknown> {
  try {
    return { ok: await f() };
  } catch (e) {
    return { error: e instanceof Error ? `${e.constructor.name}: ${e.message}` : String(e) };
  }
}

const PREFIXES = ["/registry/a/", "/registry/b/", "/registry/"];

describe("MemoryStore behaves as SqliteStore", () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    it(`random operations, seed ${seed}`, async () => {
      const r = rng(seed);
      const historySize = seed % 2 === 0 ? 8 : 10_000;
      const stores: (Store & { compactedRevision(): number })[] = [new SqliteStore({ path: ":memory:", historySize }), new MemoryStore({ historySize })];
      const live: StoreEvent[][] = [[], []];
      const watches = await Promise.all(stores.map((s, i) => s.watch("/registry/a/", 0, (e) => live[i]!.push(e))));
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
      const key = () => `${pick(["/registry/a/", "/registry/b/"])}${pick(["ns1/", "ns2/", ""])}k${Math.floor(r() * 6)}`;
      for (let step = 0; step < 400; step++) {
        const k = key();
        const op = Math.floor(r() * 8);
        const cur = (await stores[1]!.get(k))?.modRevision;
        const rev = r() < 0.7 ? cur : Math.floor(r() * 50);
        const val = JSON.stringify({ step });
        const at = Math.floor(r() * ((await stores[0]!.currentRevision()) + 2));
        const prefix = pick(PREFIXES);
        const limit = Math.floor(r() * 4);
        const conditional = r() < 0.5;
        const run = async (s: Store) => {
          switch (op) {
            case 0:
            case 1:
              return outcome(() => s.create(k, val));
            case 2:
            case 3:
              return outcome(() => s.update(k, val, rev));
            case 4:
              return outcome(() => s.delete(k, conditional ? rev : undefined));
            case 5:
              return outcome(() => (step % 37 === 0 ? s.deletePrefix("/registry/b/ns1/") : s.get(k)));
            case 6:
              return outcome(() => s.listRange(prefix, { revision: at, limit, startKey: prefix + "ns" }));
            default: {
              const got: StoreEvent[] = [];
              const res = await outcome(async () => (await s.watch(prefix, at, (e) => got.push(e))).cancel());
              return { res, got };
            }
          }
        };
        const results = [await run(stores[0]!), await run(stores[1]!)];
        assert.deepEqual(results[1], results[0], `step ${step} (op ${op}, key ${k})`);
        assert.equal(await stores[1]!.currentRevision(), await stores[0]!.currentRevision());
        assert.equal(stores[1]!.compactedRevision(), stores[0]!.compactedRevision());
        assert.deepEqual(await stores[1]!.list("/registry/"), await stores[0]!.list("/registry/"));
      }
      assert.deepEqual(live[1], live[0]);
      assert.ok(live[0]!.length > 20);
      for (const w of watches) w.cancel();
      for (const s of stores) await s.close();
    });
  }
});
