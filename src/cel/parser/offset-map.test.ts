import assert from "node:assert/strict";
import { test } from "node:test";
import { OffsetMap } from "./offset-map.js";

/** Applies the same operations to an OffsetMap and a Map and compares every observable. */
function sameAsMap(ops: readonly (readonly ["set", number, number] | readonly ["delete", number])[]): void {
  const a = new OffsetMap();
  const b = new Map<number, number>();
  for (const op of ops) {
    if (op[0] === "set") {
      a.set(op[1], op[2]);
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

test("OffsetMap behaves like a Map for the parser's ascending ids (offsets may be -1)", () => {
  sameAsMap([["set", 1, 0], ["set", 2, -1], ["set", 3, 7], ["delete", 2], ["set", 5, 9], ["set", 3, 4], ["delete", 9]]);
});

test("OffsetMap keeps Map order when keys arrive out of order or are not small integers", () => {
  sameAsMap([["set", 3, 1], ["set", 1, 2], ["set", 2, 3], ["delete", 3]]);
  sameAsMap([["set", 1, 1], ["delete", 1], ["set", 1, 5], ["set", 0, 2]]);
  sameAsMap([["set", 2, 1], ["set", 1.5, 2], ["set", -1, 3], ["set", 9, 4]]);
});
