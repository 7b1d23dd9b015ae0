import * as assert from "node:assert/strict";
import { test } from "node:test";
import { Env, isCompileFailure } from "../env.js";
import { standardFunctions } from "../stdlib-impl/index.js";
import type { CelValue } from "../values/values.js";
import { plan } from "./planner.js";

// The planner memoizes each call shape's dispatcher per registry; every change to the registry
// must drop the memo, and plans over other registries must not see it.
const CASES: { expr: string; before: CelValue; after: CelValue }[] = [
  { expr: "'ab' + 'c'", before: "abc", after: "c+ab" },
  { expr: "size('abc') + 1", before: 4n, after: 4n },
  { expr: "'x' + 'y' + 'z'", before: "xyz", after: "z+y+x" },
];

for (const c of CASES) {
  test(`dispatch memo is dropped when overloads change: ${c.expr}`, () => {
    const env = new Env();
    const compiled = env.compile(c.expr);
    if (isCompileFailure(compiled)) throw new Error(compiled.issues);
    const fns = standardFunctions();
    const opts = { functions: fns, checked: compiled.checked };
    assert.deepEqual(plan(compiled.ast, opts).eval().value, c.before);
    const add = fns.byOverloadId("add_string");
    assert.ok(add);
    fns.add({ ...add, impl: ((a: string, b: string) => `${b}+${a}`) as never });
    assert.deepEqual(plan(compiled.ast, opts).eval().value, c.after);
    // an untouched registry keeps the standard behaviour
    assert.deepEqual(plan(compiled.ast, { ...opts, functions: standardFunctions() }).eval().value, c.before);
  });
}

test("programs of one environment share dispatchers and stay independent", () => {
  const env = new Env({ variables: { x: "dyn" } });
  const progs = ["x + 1", "x + 1.5", "x + 'a'"].map((e) => {
    const c = env.compile(e);
    if (isCompileFailure(c)) throw new Error(c.issues);
    return env.program(c);
  });
  const got = progs.map((p) => [p.eval({ x: 2n }).value, p.eval({ x: 2.5 }).value, p.eval({ x: "s" }).value]);
  assert.equal(got[0]?.[0], 3n);
  assert.equal(got[1]?.[1], 4);
  assert.equal(got[2]?.[2], "sa");
  assert.equal(String(got[0]?.[2]), "no such overload");
});
