import assert from "node:assert/strict";
import { test } from "node:test";
import { SortedKeys } from "../../src/storage/sorted-keys.js";

/** A deterministic pseudo-random sequence (xorshift32). */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 0x1_0000_0000;
  };
}

/** What one sorted array answers for [start, end) with `limit` (the cache's previous implementation). */
function reference(sorted: string[], start: string, end: string, limit: number): { keys: string[]; count: number } {
  const inRange = sorted.filter((k) => k >= start && k < end);
  return { keys: limit > 0 ? inRange.slice(0, limit) : inRange, count: inRange.length };
}

test("sorted keys: inserts, removes and ranges agree with one sorted array (small chunks, many splits and merges)", () => {
  for (const maxChunk of [1, 2, 3, 8]) {
    const next = rng(maxChunk * 7919);
    const keys = new SortedKeys([], maxChunk);
    const ref = new Set<string>();
    const key = () => `/registry/x/ns/k${Math.floor(next() * 300)}`;
    for (let step = 0; step < 3000; step++) {
      const k = key();
      if (next() < 0.6) {
        assert.equal(keys.insert(k), !ref.has(k));
        ref.add(k);
      } else {
        assert.equal(keys.remove(k), ref.has(k));
        ref.delete(k);
      }
      const sorted = [...ref].sort();
      assert.equal(keys.size, sorted.length);
      if (step % 50 === 0) {
        assert.deepEqual(keys.all(), sorted);
        const [a, b] = [key(), key()];
        for (const limit of [0, 1, 5, 1000]) {
          assert.deepEqual(keys.range(a, b, limit), reference(sorted, a, b, limit), `[${a}, ${b}) limit ${limit}`);
        }
      }
    }
  }
});

test("sorted keys: built from a sorted list, ranges at the edges and empty ranges", () => {
  const sorted = Array.from({ length: 25 }, (_, i) => `k${String(i).padStart(2, "0")}`);
  const keys = new SortedKeys(sorted, 4);
  assert.equal(keys.chunkCount, 13);
  assert.deepEqual(keys.all(), sorted);
  assert.deepEqual(keys.range("", "\u00ff", 0), { keys: sorted, count: 25 });
  assert.deepEqual(keys.range("k03", "k07", 0), { keys: ["k03", "k04", "k05", "k06"], count: 4 });
  assert.deepEqual(keys.range("k03", "k07", 2), { keys: ["k03", "k04"], count: 4 });
  assert.deepEqual(keys.range("k030", "k07", 0), { keys: ["k04", "k05", "k06"], count: 3 });
  assert.deepEqual(keys.range("k24", "k99", 0), { keys: ["k24"], count: 1 });
  assert.deepEqual(keys.range("k25", "k99", 0), { keys: [], count: 0 });
  assert.deepEqual(keys.range("k07", "k03", 0), { keys: [], count: 0 });
  assert.deepEqual(keys.range("k05", "k05", 0), { keys: [], count: 0 });
  assert.equal(keys.insert("k05"), false);
  assert.equal(keys.remove("k050"), false);
  for (const k of sorted) assert.equal(keys.remove(k), true);
  assert.equal(keys.size, 0);
  assert.equal(keys.chunkCount, 0);
  assert.deepEqual(keys.range("", "\u00ff", 0), { keys: [], count: 0 });
  assert.equal(keys.insert("b"), true);
  assert.equal(keys.insert("a"), true);
  assert.equal(keys.insert("c"), true);
  assert.deepEqual(keys.all(), ["a", "b", "c"]);
});

test("sorted keys: latin1 strings of key bytes keep byte order (0x7f-0xff after ASCII)", () => {
  const bytes = [[0x2f, 0x61], [0x2f, 0xff], [0x2f, 0x80], [0x2f, 0x7f], [0x2f], [0x2f, 0x61, 0x00]];
  const keys = new SortedKeys([], 2);
  for (const b of bytes) keys.insert(Buffer.from(b).toString("latin1"));
  const want = bytes.map((b) => Buffer.from(b)).sort(Buffer.compare).map((b) => b.toString("latin1"));
  assert.deepEqual(keys.all(), want);
});
