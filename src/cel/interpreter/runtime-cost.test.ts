import * as assert from "node:assert/strict";
import { test } from "node:test";
import { Env, isCompileFailure } from "../env.js";
import { parse } from "../parser/parser.js";
import { standardFunctions } from "../stdlib-impl/index.js";
import { nativeToCel } from "../values/native.js";
import type { CelValue } from "../values/values.js";
import { CelError, HashCelMap } from "../values/values.js";
import type { CallCostFn } from "./functions.js";
import { COST_LIMIT_MESSAGE, plan } from "./planner.js";

const functions = standardFunctions();
const s500a = "a".repeat(500);
const s500b = "b".repeat(500);

// Ported from cel-go interpreter/runtimecost_test.go (TestRuntimeCost), non-protobuf cases.
// Variables are declared with cel-go's test types and the expressions are type-checked (by CEL-B's
// Env), as in cel-go: call costs depend on the overload id the checker resolved.
const CASES: {
  name: string;
  expr: string;
  in?: Record<string, unknown>;
  types?: Record<string, string>;
  want: number;
  presenceCost?: boolean;
}[] = [
  { name: "const", expr: `"Hello World!"`, want: 0 },
  { name: "identity", expr: "input", in: { input: [1, 2] }, types: { input: "list(int)" }, want: 1 },
  { name: "select: map", expr: "input['key']", in: { input: { key: "v" } }, types: { input: "map(string, string)" }, want: 2 },
  { name: "select: array index", expr: "input[0]", in: { input: ["v"] }, types: { input: "list(string)" }, want: 2 },
  { name: "expr select: map", expr: "input['ke' + 'y']", in: { input: { key: "v" } }, types: { input: "map(string, string)" }, want: 3 },
  { name: "expr select: array index", expr: "input[3-3]", in: { input: ["v"] }, types: { input: "list(string)" }, want: 3 },
  {
    name: "select: non-proto field test has() cost",
    expr: "has(input.testAttr.nestedAttr)",
    in: { input: { testAttr: { nestedAttr: "0" } } },
    types: { input: "map(string, map(string, string))" },
    want: 3,
  },
  {
    name: "select: non-proto field test no has() cost",
    expr: "has(input.testAttr.nestedAttr)",
    in: { input: { testAttr: { nestedAttr: "0" } } },
    types: { input: "map(string, map(string, string))" },
    want: 2,
    presenceCost: false,
  },
  { name: "create list", expr: "[1, 2, 3]", want: 10 },
  { name: "create map", expr: `{"a": 1, "b": 2, "c": 3}`, want: 30 },
  { name: "all comprehension (empty)", expr: "input.all(x, true)", in: { input: [] }, types: { input: "list(map(string, int))" }, want: 2 },
  { name: "nested all comprehension (empty)", expr: "input.all(x, x.all(y, true))", in: { input: [] }, types: { input: "list(list(int))" }, want: 2 },
  { name: "all comprehension on literal", expr: "[1, 2, 3].all(x, true)", want: 20 },
  { name: "variable cost function", expr: "input.matches('[0-9]')", in: { input: s500a }, types: { input: "string" }, want: 103 },
  { name: "variable cost function with constant", expr: "'123'.matches('[0-9]')", want: 2 },
  { name: "or", expr: "false || false", want: 0 },
  { name: "or short-circuit", expr: "true || false", want: 0 },
  { name: "or accumulated branch cost", expr: "a || b || c || d", in: { a: false, b: false, c: false, d: false }, types: { a: "bool", b: "bool", c: "bool", d: "bool" }, want: 4 },
  { name: "and", expr: "true && false", want: 0 },
  { name: "and short-circuit", expr: "false && true", want: 0 },
  { name: "and accumulated branch cost", expr: "a && b && c && d", in: { a: true, b: true, c: true, d: true }, types: { a: "bool", b: "bool", c: "bool", d: "bool" }, want: 4 },
  { name: "lt", expr: "1 < 2", want: 1 },
  { name: "lte", expr: "1 <= 2", want: 1 },
  { name: "eq", expr: "1 == 2", want: 1 },
  { name: "gt", expr: "2 > 1", want: 1 },
  { name: "gte", expr: "2 >= 1", want: 1 },
  { name: "in", expr: "2 in [1, 2, 3]", want: 13 },
  { name: "plus", expr: "1 + 1", want: 1 },
  { name: "minus", expr: "1 - 1", want: 1 },
  { name: "/", expr: "1 / 1", want: 1 },
  { name: "*", expr: "1 * 1", want: 1 },
  { name: "%", expr: "1 % 1", want: 1 },
  { name: "ternary", expr: "true ? 1 : 2", want: 0 },
  { name: "string size", expr: `size("123")`, want: 1 },
  { name: "str eq str", expr: "'12345678901234567890' == '123456789012345678901234567890'", want: 2 },
  { name: "bytes to string", expr: "string(input)", in: { input: new TextEncoder().encode(s500a) }, types: { input: "bytes" }, want: 51 },
  { name: "string to bytes", expr: "bytes(input)", in: { input: s500a }, types: { input: "string" }, want: 51 },
  { name: "int to string", expr: "string(1)", want: 1 },
  { name: "contains", expr: "input.contains(arg1)", in: { input: s500a, arg1: s500b }, types: { input: "string", arg1: "string" }, want: 2502 },
  { name: "matches", expr: "input.matches('\\\\d+a\\\\d+b')", in: { input: s500a }, types: { input: "string" }, want: 103 },
  // cel-go v0.29.2 (Kubernetes 1.37) charges the prefix/suffix length (args[1]); newer cel-go charges
  // the receiver (the upstream table says 3).
  { name: "startsWith", expr: "input.startsWith(arg1)", in: { input: "idc", arg1: s500b }, types: { input: "string", arg1: "string" }, want: 52 },
  { name: "endsWith", expr: "input.endsWith(arg1)", in: { input: "idc", arg1: s500b }, types: { input: "string", arg1: "string" }, want: 52 },
  { name: "size receiver", expr: "input.size()", in: { input: "500" }, types: { input: "string" }, want: 2 },
  { name: "size", expr: "size(input)", in: { input: "500" }, types: { input: "string" }, want: 2 },
  { name: "ternary eval", expr: "(x > 2 ? input1 : input2).all(y, true)", in: { x: 1, input1: [{}], input2: [{}] }, types: { x: "int", input1: "list(map(string, int))", input2: "list(map(string, int))" }, want: 6 },
  { name: "ternary eval trivial, true", expr: "true ? false : 1 > 3", want: 0 },
  { name: "ternary eval trivial, false", expr: "false ? false : 1 > 3", want: 1 },
  { name: "comprehension over map", expr: "input.all(k, input[k].single_int32 > 3)", in: { input: { val: { single_int32: 0 } } }, types: { input: "map(string, map(string, int))" }, want: 9 },
  { name: "comprehension over nested map of maps", expr: "input.all(k, input[k].all(x, true))", in: { input: {} }, types: { input: "map(string, map(string, string))" }, want: 2 },
  { name: "string size of map keys", expr: "input.all(k, k.contains(k))", in: { input: {} }, types: { input: "map(string, map(string, string))" }, want: 2 },
  { name: "comprehension variable shadowing", expr: "input.all(k, input[k].all(k, true) && k.contains(k))", in: { input: {} }, types: { input: "map(string, map(string, string))" }, want: 2 },
  { name: "list concat", expr: "(list1 + list2).all(x, true)", in: { list1: [], list2: [] }, types: { list1: "list(int)", list2: "list(int)" }, want: 4 },
  { name: "str concat", expr: `"abcdefg".contains(str1 + str2)`, in: { str1: "val1", str2: "val2222222" }, types: { str1: "string", str2: "string" }, want: 6 },
  { name: "ternary as operand", expr: "(1 > 2 ? 5 : 3) > 1", want: 2 },
  { name: "ternary as operand 2", expr: "(1 > 2 || 2 > 1) == true", want: 3 },
  { name: "list map literal", expr: "[{'k1': 1}, {'k2': 2}].all(x, true)", want: 77 },
  { name: ".filter list literal", expr: "[1,2,3,4,5].filter(x, x % 2 == 0)", want: 62 },
  { name: ".map list literal", expr: "[1,2,3,4,5].map(x, x)", want: 86 },
  { name: ".map.filter list literal", expr: "[1,2,3,4,5].map(x, x).filter(x, x % 2 == 0)", want: 138 },
  { name: ".map.exists list literal", expr: "[1,2,3,4,5].map(x, x).exists(x, x == 5) == true", want: 118 },
  { name: ".map.map list literal", expr: "[1,2,3,4,5].map(x, x).map(x, x)", want: 162 },
  { name: ".map.filter nested", expr: "[1,2,3,4,5].map(x, [x, x]).filter(z, z.size() == 2)", want: 232 },
  { name: "comprehension on nested list", expr: "[1,2,3,4,5].map(x, [x, x]).all(y, y.all(y, y == 1))", want: 171 },
  { name: "comprehension size", expr: "[1,2,3,4,5].map(x, x).map(x, x) + [1]", want: 173 },
  { name: "nested comprehension", expr: "[1,2,3].all(i, i in [1,2,3].map(j, j + j))", want: 86 },
  // ext.Lists v3 overload trackers (cel-go ext/lists.go): list 10 + tracker
  { name: "lists.range", expr: "lists.range(5)", want: 16 },
  { name: "slice", expr: "[1, 2, 3, 4].slice(1, 3)", want: 10 + 13 },
  { name: "flatten", expr: "[[1], [2, 3]].flatten()", want: 30 + 13 },
  { name: "distinct", expr: "[1, 2, 2].distinct()", want: 10 + 18 + 11 },
  { name: "sort strings", expr: "['b', 'a'].sort()", want: 10 + 8 + 11 },
];

function run(
  expr: string,
  vars: Record<string, unknown> = {},
  opts: { limit?: number; callCost?: CallCostFn; presenceCost?: boolean; types?: Record<string, string> } = {},
) {
  const env = new Env({ variables: opts.types ?? {} });
  const c = env.compile(expr);
  if (isCompileFailure(c)) throw new Error(c.issues);
  const act: Record<string, CelValue> = {};
  for (const [k, v] of Object.entries(vars)) act[k] = nativeToCel(v);
  const prog = plan(c.ast, {
    functions,
    checked: c.checked,
    ...(opts.callCost ? { callCost: opts.callCost } : {}),
    ...(opts.presenceCost === false ? { presenceTestHasCost: false } : {}),
  });
  return prog.eval(act, opts.limit === undefined ? {} : { costLimit: opts.limit });
}

for (const c of CASES) {
  test(`runtime cost: ${c.name}`, () => {
    const r = run(c.expr, c.in, { presenceCost: c.presenceCost ?? true, types: c.types ?? {} });
    assert.ok(!(r.value instanceof CelError), `${c.expr}: ${String(r.value)}`);
    assert.equal(r.cost, c.want, c.expr);
  });
}

test("runtime cost: custom call cost (cel-go OverloadCostTracker)", () => {
  const callCost: CallCostFn = (_fn, id, args) =>
    id === "contains_string"
      ? Math.ceil(String(args[0]).length * 0.2) * Math.ceil(String(args[1]).length * 0.2)
      : undefined;
  const types = { str1: "string", str2: "string" };
  const r = run(`"abcdefg".contains(str1 + str2)`, { str1: "val1", str2: "val2222222" }, { callCost, types });
  assert.equal(r.cost, 10);
});

test("runtime cost: at limit and above limit", () => {
  const vars = { str1: "val1", str2: "val2222222" };
  const types = { str1: "string", str2: "string" };
  const at = run(`"abcdefg".contains(str1 + str2)`, vars, { limit: 6, types });
  assert.equal(at.value, false);
  assert.equal(at.cost, 6);
  const above = run(`"abcdefg".contains(str1 + str2)`, vars, { limit: 5, types });
  assert.ok(above.value instanceof CelError);
  assert.equal(above.value.message, COST_LIMIT_MESSAGE);
});

test("runtime cost: limit stops exponential comprehensions", () => {
  const nest = "[1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4,5,6,7,8,9,10].all(c, [1,2,3,4,5,6,7,8,9,10].all(d, [1,2,3,4,5,6,7,8,9,10].all(e, [1,2,3,4,5,6,7,8,9,10].all(f, [1,2,3,4,5,6,7,8,9,10].all(g, true)))))))";
  const r = run(nest, {}, { limit: 100_000 });
  assert.ok(r.value instanceof CelError);
  assert.equal(r.value.message, COST_LIMIT_MESSAGE);
  assert.ok(r.cost > 100_000 && r.cost < 100_100);
});

test("runtime cost: exists over a map", () => {
  const m = new HashCelMap();
  m.set("a", 1n);
  const r = plan(parse("m.exists(k, k == 'a')").ast!, { functions }).eval({ m });
  assert.equal(r.value, true);
  // m 1, cond @not_strictly_false(!@result) 3, step @result 1 + k 1 + == 1, result 1
  assert.equal(r.cost, 8);
});

test("runtime cost: a call-cost model's plan-time shape (constant, default, per call)", () => {
  const types = { str1: "string", str2: "string" };
  const vars = { str1: "val1", str2: "val2222222" };
  const expr = `"abcdefg".contains(str1 + str2)`;
  let calls = 0;
  const model = (shape: CallCostFn["shape"]): CallCostFn =>
    Object.assign(
      (_fn: string, id: string): number | undefined => {
        calls++;
        return id === "contains_string" ? 7 : undefined;
      },
      { shape },
    );
  // a constant: charged without consulting the model (add_string keeps its default cost of 2)
  const constant = run(expr, vars, { types, callCost: model((fn) => (fn === "contains" ? 5 : "default")) });
  assert.equal(constant.value, false);
  assert.equal(constant.cost, 2 + 5 + 2);
  // "default" everywhere: the default model (contains_string 1*2), the model is never called
  const dflt = run(expr, vars, { types, callCost: model(() => "default") });
  assert.equal(dflt.cost, 2 + 2 + 2);
  assert.equal(calls, 0);
  // per call: asked for each call, as without a shape
  const dyn = run(expr, vars, { types, callCost: model(() => "dynamic") });
  assert.equal(dyn.cost, 2 + 7 + 2);
  assert.equal(calls, 2);
  // a constant counts against the limit like any charge
  const over = run(expr, vars, { types, limit: 8, callCost: model((fn) => (fn === "contains" ? 5 : "default")) });
  assert.ok(over.value instanceof CelError);
  assert.equal(over.value.message, COST_LIMIT_MESSAGE);
});
