import * as assert from "node:assert/strict";
import { test } from "node:test";
import { Env, isCompileFailure } from "../env.js";
import { nativeToCel } from "../values/native.js";
import type { CelValue } from "../values/values.js";
import { CelError } from "../values/values.js";
import { checkInstantiation, planOnFirstEval } from "./lazy-program.js";
import { type PlanOptions, plan, ProgramInstantiationError } from "./planner.js";

const env = new Env({ variables: { x: "int", s: "string", l: "list(int)", m: "map(string, int)" } });

function compiled(expr: string) {
  const c = env.compile(expr);
  if (isCompileFailure(c)) throw new Error(c.issues);
  return c;
}

function options(expr: string, optimize = true): { c: ReturnType<typeof compiled>; o: PlanOptions } {
  const c = compiled(expr);
  return { c, o: { functions: env.functions(), checked: c.checked, optimize } };
}

/** The message of the ProgramInstantiationError `f` throws, or undefined. */
function instantiationError(f: () => unknown): string | undefined {
  try {
    f();
    return undefined;
  } catch (e) {
    assert.ok(e instanceof ProgramInstantiationError, String(e));
    return e.message;
  }
}

// [expression, the error plan() (and so checkInstantiation) gives with optimize, or undefined]
const CASES: [string, string | undefined][] = [
  ["int('abc') == 1", "type conversion error from 'string' to 'int'"],
  ["uint(-1) > 0u", "unsigned integer overflow"],
  ["int(1e19) > 0", "integer overflow"],
  ["int(string(1e30)) > 0", "type conversion error from 'string' to 'int'"],
  ["bool('maybe')", "type conversion error from 'string' to 'bool'"],
  ["duration('1x') > duration('1s')", "type conversion error from 'string' to 'google.protobuf.Duration'"],
  ["timestamp('nope') < timestamp('2020-01-01T00:00:00Z')", "type conversion error from 'string' to 'google.protobuf.Timestamp'"],
  // the first failure in the planner's order: the target and arguments in order, keys before values
  ["uint(-1) > 0u && int('a') == 1", "unsigned integer overflow"],
  ["int('a') == 1 || uint(-1) > 0u", "type conversion error from 'string' to 'int'"],
  ["{int('a'): uint(-1)}.size() == 1", "type conversion error from 'string' to 'int'"],
  ["[1, 2].all(i, i > int('z')) && uint(-1) == 0u", "type conversion error from 'string' to 'int'"],
  ["x > 0 ? int('a') == 1 : uint(-1) == 0u", "type conversion error from 'string' to 'int'"],
  ["string(int('q')) == s", "type conversion error from 'string' to 'int'"],
  ["dyn([int('a')]).size() == 1", "type conversion error from 'string' to 'int'"],
  ["l.exists(i, i == int('7')) || m.all(k, k == string(uint(-1)))", "unsigned integer overflow"],
  // not a conversion of constants: evaluated at run time only
  ["int(s) == 1", undefined],
  ["int('12') == x", undefined],
  ["l.map(i, int(string(i))).size() > 0", undefined],
  ["x / 0 == 1", undefined],
  // cel-go compiles a constant pattern of matches with the program (MatchesRegexOptimization under OptOptimize)
  ["'abc'.matches('[') || true", "error parsing regexp: missing closing ]: `[`"],
  ["matches('abc', string('[')) || true", "error parsing regexp: missing closing ]: `[`"],
  ["'abc'.matches('[' + s) || true", undefined],
];

test("checkInstantiation throws what plan throws with optimize, without optimize nothing", () => {
  for (const [expr, want] of CASES) {
    const { c, o } = options(expr);
    assert.equal(instantiationError(() => plan(c.ast, o)), want, `plan: ${expr}`);
    assert.equal(instantiationError(() => checkInstantiation(c.ast, o)), want, `checkInstantiation: ${expr}`);
    assert.equal(instantiationError(() => planOnFirstEval(c.ast, o)), want, `planOnFirstEval: ${expr}`);
    // checker results without the list of called functions: the whole tree is walked
    const walked: PlanOptions = { ...o, checked: { referenceArray: () => c.checked.referenceArray(), referenceOf: (id) => c.checked.referenceOf(id) } };
    assert.equal(instantiationError(() => checkInstantiation(c.ast, walked)), want, `walked: ${expr}`);
    const plain = options(expr, false);
    assert.equal(instantiationError(() => planOnFirstEval(plain.c.ast, plain.o)), undefined, `without optimize: ${expr}`);
  }
});

function sameResult(a: { value: CelValue; cost: number }, b: { value: CelValue; cost: number }, what: string): void {
  assert.equal(a.cost, b.cost, `cost: ${what}`);
  if (a.value instanceof CelError || b.value instanceof CelError) {
    assert.ok(a.value instanceof CelError && b.value instanceof CelError, `error: ${what}`);
    assert.equal(a.value.message, b.value.message, `error: ${what}`);
  } else assert.deepEqual(a.value, b.value, `value: ${what}`);
}

test("a program planned on first evaluation gives plan's values and costs, every evaluation", () => {
  const exprs = ["x + 1 > 2", "l.all(i, i < x)", "m['a'] == x", "s.size() + l.size()", "int(s) == x", "x / 0 == 1", "l.map(i, i * 2)"];
  const acts = [
    { x: 1n, s: "3", l: [1n, 2n], m: { a: 1n } },
    { x: 5n, s: "z", l: [], m: {} },
  ].map((vars) => Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, nativeToCel(v)])));
  for (const expr of exprs) {
    const { c, o } = options(expr);
    const eager = plan(c.ast, o);
    const lazy = planOnFirstEval(c.ast, o);
    for (let round = 0; round < 2; round++)
      for (const act of acts) {
        for (const limit of [undefined, 2]) {
          const opts = limit === undefined ? undefined : { costLimit: limit };
          sameResult(lazy.eval(act, opts), eager.eval(act, opts), `${expr} ${round} ${limit}`);
        }
      }
  }
});

test("planning happens on the first evaluation, once", () => {
  const { c, o } = options("l.exists(i, i > x) && s.startsWith('a')");
  let reads = 0;
  const counting: PlanOptions = {
    ...o,
    get functions() {
      reads++;
      return o.functions;
    },
  };
  const p = planOnFirstEval(c.ast, counting);
  assert.equal(reads, 0);
  p.eval({ x: 0n, l: [1n], s: "ab" });
  const afterFirst = reads;
  assert.ok(afterFirst > 0);
  p.eval({ x: 3n, l: [1n], s: "b" });
  assert.equal(reads, afterFirst);
});
