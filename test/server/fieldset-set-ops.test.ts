/**
 * The field set operations (src/server/ssa/fieldset.ts) walk the two tries; the algorithm they replaced —
 * re-inserting the sorted member paths one by one — is kept here as the reference. On random sets (built by
 * inserting paths and by parsing FieldsV1, with fields, associative keys, set values and indexes, members
 * that also have children, and chains of operations) both give the same paths in the same order, the same
 * FieldsV1 text and the same answers to `has`/`empty`.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { FieldSet, type PathElement } from "../../src/server/ssa/fieldset.js";

/** The replaced algorithm. */
const reference = {
  union(a: FieldSet, b: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const p of a.paths()) out.insert(p);
    for (const p of b.paths()) out.insert(p);
    return out;
  },
  difference(a: FieldSet, b: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const p of a.paths()) if (!b.has(p)) out.insert(p);
    return out;
  },
  intersection(a: FieldSet, b: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const p of a.paths()) if (b.has(p)) out.insert(p);
    return out;
  },
};

function prng(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

/** A random path element from a small alphabet, so that sets overlap. */
function randomPE(rand: (n: number) => number): PathElement {
  switch (rand(4)) {
    case 0:
      return { kind: "f", name: ["a", "b", "spec", "é", "", "a.b"][rand(6)]! };
    case 1:
      return rand(2) === 0 ? { kind: "k", fields: [["name", ["x", "y"][rand(2)]!]] } : { kind: "k", fields: [["port", rand(3)], ["protocol", "TCP"]] };
    case 2:
      return { kind: "v", value: [1, "1", true, null, "z"][rand(5)]! };
    default:
      return { kind: "i", index: rand(12) };
  }
}

function randomSet(rand: (n: number) => number): FieldSet {
  const s = new FieldSet();
  const n = rand(12);
  for (let i = 0; i < n; i++) {
    const depth = 1 + rand(4);
    const p: PathElement[] = [];
    for (let d = 0; d < depth; d++) p.push(randomPE(rand));
    s.insert(p);
  }
  // Half of them round-trip through FieldsV1, as sets read from managedFields are built.
  return rand(2) === 0 ? FieldSet.fromFieldsV1(s.toFieldsV1()) : s;
}

function same(actual: FieldSet, expected: FieldSet, what: string): void {
  assert.deepEqual(actual.paths(), expected.paths(), what);
  assert.equal(JSON.stringify(actual.toFieldsV1()), JSON.stringify(expected.toFieldsV1()), what);
  assert.equal(actual.empty(), expected.empty(), what);
  for (const p of expected.paths()) assert.ok(actual.has(p), what);
}

describe("field set operations", () => {
  it("give the replaced algorithm's sets, in its order, on random sets", () => {
    const ops = ["union", "difference", "intersection"] as const;
    for (let seed = 1; seed <= 3000; seed++) {
      const rand = prng(seed);
      const a = randomSet(rand);
      const b = randomSet(rand);
      const c = randomSet(rand);
      const before = JSON.stringify([a.toFieldsV1(), b.toFieldsV1()]);
      for (const op of ops) {
        const got = a[op](b);
        same(got, reference[op](a, b), `${op} seed ${seed}`);
        // Chained, as the field manager combines them (the result of one operation is the input of the next).
        for (const op2 of ops) same(got[op2](c), reference[op2](reference[op](a, b), c), `${op} then ${op2} seed ${seed}`);
      }
      same(a.union(a), a, `union with itself seed ${seed}`);
      assert.ok(a.difference(a).empty(), `difference with itself seed ${seed}`);
      // The operations leave their inputs as they were.
      assert.equal(JSON.stringify([a.toFieldsV1(), b.toFieldsV1()]), before, `inputs unchanged seed ${seed}`);
    }
  });
});
