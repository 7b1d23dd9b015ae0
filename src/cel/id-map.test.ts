import assert from "node:assert/strict";
import { test } from "node:test";
import { IdMap } from "./id-map.js";

/** Applies the same operations to an OffsetMap and a Map and compares every observable. */
function sameAsMap(ops: readonly (readonly ["set" | "setAbove", number, number] | readonly ["delete", number])[]): void {
  const a = new IdMap<number>();
  const b = new Map<number, number>();
  for (const op of ops) {
    if (op[0] === "set" || op[0] === "setAbove") {
      if (op[0] === "set") a.set(op[1], op[2]);
      else a.setAbove(op[1], op[2]);
      b.set(op[1], op[2]);
    } else assert.equal(a.delete(op[1]), b.delete(op[1]));
    assert.equal(a.size, b.size);
    assert.deepEqual([...a], [...b]);
    assert.deepEqual([...a.keys()], [...b.keys()]);
    assert.deepEqual([...a.values()], [...b.values()]);
    for (const k of [-1, 0, 1, 2, 3, 5, 9, 1.5]) {
      assert.equal(a.get(k), b.get(k));
      assert.equal(a.has(k), b.has(k));
    }
  }
  const seen: [number, number][] = [];
  a.forEach((v, k) => {
    seen.push([k, v]);
  });
  assert.deepEqual(seen, [...b.entries()]);
  assert.ok(a instanceof Map);
}

test("IdMap behaves like a Map for ascending ids (values may be -1)", () => {
  sameAsMap([["set", 1, 0], ["set", 2, -1], ["set", 3, 7], ["delete", 2], ["set", 5, 9], ["set", 3, 4], ["delete", 9]]);
});

test("IdMap keeps insertion order for keys in any order, re-added keys, and falls back for other keys", () => {
  sameAsMap([["set", 3, 1], ["set", 1, 2], ["set", 2, 3], ["delete", 3], ["set", 3, 8]]);
  sameAsMap([["set", 1, 1], ["delete", 1], ["set", 1, 5], ["set", 0, 2], ["delete", 0], ["delete", 0]]);
  sameAsMap([["set", 2, 1], ["set", 1.5, 2], ["set", -1, 3], ["set", 9, 4], ["delete", 2]]);
});

test("IdMap iterates live like a Map: entries added during iteration are visited, deleted ones are not", () => {
  const run = (m: Map<number, number>): number[] => {
    for (const k of [5, 2, 7]) m.set(k, k);
    const seen: number[] = [];
    for (const [k] of m) {
      seen.push(k);
      if (k === 5) {
        m.delete(7);
        m.set(1, 1);
        m.set(2, 20);
      }
    }
    return seen;
  };
  assert.deepEqual(run(new IdMap<number>()), run(new Map()));
  assert.deepEqual(run(new IdMap<number>()), [5, 2, 1]);
});

test("IdMap iteration continues in insertion order when an older key is added mid-iteration", () => {
  const run = (m: Map<number, number>, at: number, del: boolean): number[] => {
    for (const k of [1, 5, 9]) m.set(k, k);
    const seen: number[] = [];
    for (const [k] of m) {
      seen.push(k);
      if (k === at) {
        if (del) m.delete(at);
        m.set(3, 3);
      }
    }
    return seen;
  };
  for (const at of [1, 5, 9]) {
    for (const del of [false, true]) assert.deepEqual(run(new IdMap<number>(), at, del), run(new Map(), at, del));
  }
});

test("setAbove behaves as set, for keys above, at, below the largest key and after deletes", () => {
  sameAsMap([
    ["setAbove", 1, 10],
    ["setAbove", 2, 20],
    ["setAbove", 5, 50],
    ["delete", 5],
    ["setAbove", 5, 51],
    ["setAbove", 3, 30],
    ["setAbove", 9, 90],
    ["setAbove", 2, 21],
  ]);
  sameAsMap([["setAbove", 0, 1], ["setAbove", 1.5, 2], ["setAbove", 3, 3]]);
  sameAsMap([["set", 2, 1], ["setAbove", 1, 2], ["setAbove", 9, 3]]);
});

test("IdMap.ascending: the map setAbove and delete in ascending order build, and a Map afterwards", () => {
  // ids 1..6 set in order, 3 and 5 deleted (the parser's positions: a unary or macro id dropped)
  const vals: (number | undefined)[] = [];
  for (let id = 1; id <= 6; id++) vals[id] = id * 10;
  vals[3] = undefined;
  vals[5] = undefined;
  const a = IdMap.ascending(vals, 4, 6);
  const b = new Map<number, number>([
    [1, 10],
    [2, 20],
    [4, 40],
    [6, 60],
  ]);
  assert.equal(a.size, 4);
  assert.deepEqual([...a], [...b]);
  for (const k of [0, 1, 3, 5, 6, 7]) assert.equal(a.get(k), b.get(k));
  // later writes keep Map semantics: an older key re-added goes last, a newer one after it
  for (const [k, v] of [
    [3, 33],
    [8, 80],
    [1, 11],
  ] as const) {
    a.set(k, v);
    b.set(k, v);
  }
  assert.equal(a.delete(2), b.delete(2));
  assert.deepEqual([...a], [...b]);
  assert.equal(a.size, b.size);
  assert.deepEqual([...IdMap.ascending<number>([], 0, -1)], []);
});
