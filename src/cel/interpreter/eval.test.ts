import * as assert from "node:assert/strict";
import { test } from "node:test";
import { Env, isCompileFailure } from "../env.js";
import { parse } from "../parser/parser.js";
import { standardFunctions } from "../stdlib-impl/index.js";
import { nativeToCel } from "../values/native.js";
import type { CelValue } from "../values/values.js";
import { CelError, CelOpaque, CelType, CelUint, CelUnknown } from "../values/values.js";
import { sameValue } from "./conformance.test-util.js";
import { FunctionRegistry } from "./functions.js";
import { plan } from "./planner.js";

const functions = standardFunctions();

function evalExpr(expr: string, vars: Record<string, unknown> = {}, fns: FunctionRegistry = functions): CelValue {
  const r = parse(expr);
  assert.ok(r.ast, r.errorText);
  const act: Record<string, CelValue> = {};
  for (const [k, v] of Object.entries(vars)) act[k] = nativeToCel(v);
  return plan(r.ast, { functions: fns }).eval(act).value;
}

// [expression, expected value (JS, converted with nativeToCel) | {error: cel-go message}, variables?]
type Want = unknown | { error: string };
const CASES: [string, Want, Record<string, unknown>?][] = [
  // int64 / uint64 overflow and division
  ["9223372036854775807 + 1", { error: "integer overflow" }],
  ["-9223372036854775808 - 1", { error: "integer overflow" }],
  ["-(-9223372036854775808)", { error: "integer overflow" }],
  ["-9223372036854775808 / -1", { error: "integer overflow" }],
  ["-9223372036854775808 % -1", { error: "integer overflow" }],
  ["5 / 0", { error: "division by zero" }],
  ["5 % 0", { error: "modulus by zero" }],
  ["-5 / 2", -2],
  ["-5 % 3", -2],
  ["0u - 1u", { error: "unsigned integer overflow" }],
  ["18446744073709551615u + 1u", { error: "unsigned integer overflow" }],
  ["1.0 / 0.0 == double('Infinity')", true],
  ["int(9223372036854775807.0)", { error: "integer overflow" }],
  ["int('0x10')", { error: "type conversion error from 'string' to 'int'" }],
  ["uint(-1)", { error: "unsigned integer overflow" }],
  // cel-go dispatch errors (dyn values)
  ["dyn('a') + 1", { error: "no such overload" }],
  ["dyn(true) + 1", { error: "no such overload: _+_" }],
  ["size(dyn(1))", { error: "no such overload: size" }],
  ["dyn([1]) < [2]", { error: "no such overload: _<_" }],
  ["int(dyn([1]))", { error: "no such overload: int(list)" }],
  ["bool(dyn(1))", { error: "no such overload: bool(int)" }],
  ["'a'.charAt(dyn('b'))", { error: "no such overload: charAt(string, string)" }],
  ["sets.contains(dyn(1), [1])", { error: "no such overload: sets.contains(int, list)" }],
  ["dyn(1).contains('a')", { error: "no such overload" }],
  ["{'a': 1}[dyn(b'a')]", { error: "invalid qualifier type: types.Bytes" }],
  ["-dyn('a')", { error: "no such overload" }], // strings are receivers in cel-go
  ["-dyn(1u)", { error: "no such overload: -_" }],
  // cross-type numeric comparison and heterogeneous equality
  ["1 < 1.5 && 2u > 1 && 1.0 == 1 && 1u == 1 && dyn(3u) in [3]", true],
  ["1 == 'a'", false],
  ["[1, 'a'] == [1, 'a']", true],
  ["{1: 'a'}[1u] == 'a' && {1: 'a'}[1.0] == 'a'", true],
  ["double('NaN') == double('NaN')", false],
  ["double('NaN') < 1.0", { error: "NaN values cannot be ordered" }],
  // strings by code point
  ["size('😀ab')", 3],
  ["'😀ab'.substring(1)", "ab"],
  ["'a😀b'.indexOf('b')", 2],
  ["'😀'.charAt(0)", "😀"],
  ["'a😀b'.lastIndexOf('😀')", 1],
  ["'tacocat'.charAt(8)", { error: "index out of range: 8" }],
  ["'tacocat'.substring(4, 2)", { error: "invalid substring range. start: 4, end: 2" }],
  ["'ÀBc'.lowerAscii() + 'àbC'.upperAscii()", "Àbcàbc".slice(0, 3) + "àBC"],
  ["'a,b,,c'.split(',', 3)", ["a", "b", ",c"]],
  ["'  x\\u3000'.trim()", "x"],
  ["['a', 'b'].join('-')", "a-b"],
  ["strings.quote('a\"b\\n')", '"a\\"b\\n"'],
  ["'%s is %d years, %.2f%%'.format(['Al', 42, 3.14159])", "Al is 42 years, 3.14%"],
  ["'z' < 'é' && '\\uffff' < '😀'", true],
  ["b'\\xff' < b'\\x00\\x01' || b'abc' > b'abb'", true],
  // regex (RE2)
  ["'ABC'.matches('(?i)abc')", true],
  ["'abc'.matches('a(?=b)')", { error: "error parsing regexp: invalid or unsupported Perl syntax: `(?=`" }],
  ["'é'.matches('^\\\\pL$')", true],
  ["'x'.matches('[')", { error: "error parsing regexp: missing closing ]: `[`" }],
  // maps, lists, errors
  ["{'a': 1}.b", { error: "no such key: b" }],
  ["{'a': 1}['b']", { error: "no such key: b" }],
  ["[1, 2][2]", { error: "index out of bounds: 2" }],
  ["[1][1.5]", { error: "unsupported index value 1.5 in list" }],
  // cel-go map literals are Go maps: repeated keys overwrite, int/uint/double keys stay distinct
  ["{'a': 1, 'a': 2}['a']", 2],
  ["{1.5: 1}[1.5]", 1],
  ["{null: 1}[dyn(null)]", { error: "invalid qualifier type: types.Null" }],
  ["size({1: 'a', 1u: 'b', 1.0: 'c'})", 3],
  ["{0: 1, 0u: 2}[0.0]", 1],
  ["{1u: 'u'}[1] + {1: 'i'}[1u] + {2u: 'd'}[2.0]", "uid"],
  ["{1.0: 'd'}[1]", { error: "no such key: 1" }],
  ["{'a': 1, ?'a': optional.none()}.size()", 0],
  ["{[1]: 1}", { error: "unsupported key type" }],
  ["has('abc'.x) || has({'a': 1}.?a.b)", false],
  ["[1].all(x, has(x.y))", false],
  ["'tacocat'.indexOf('a', 30) == -1 && 'tacocat'.lastIndexOf('a', 30) == -1", true],
  ["duration('123.321s').getMilliseconds()", 123321],
  ["has({'a': 1}.a) && !has({'a': 1}.b)", true],
  ["x", { error: "no such attribute(s): x" }],
  ["a.b.c", { error: "no such attribute(s): a.b.c" }],
  // names of JavaScript object members are unbound names like any other, not type names
  ["toString", { error: "no such attribute(s): toString" }],
  ["constructor", { error: "no such attribute(s): constructor" }],
  ["__proto__", { error: "no such attribute(s): __proto__" }],
  ["hasOwnProperty.x", { error: "no such attribute(s): hasOwnProperty.x" }],
  ["a.b.c", 7, { "a.b.c": 7 }],
  ["a.b.c", 8, { a: { b: { c: 8 } } }],
  // logic: commutative && / || absorb errors
  ["1/0 == 1 || true", true],
  ["true || 1/0 == 1", true],
  ["1/0 == 1 && false", false],
  ["1/0 == 1 && true", { error: "division by zero" }],
  ["[1, 0].exists(x, 1/x > 0)", true],
  ["[0, 1].all(x, 1/x > 0)", { error: "division by zero" }],
  ["[1, 2, 3].exists_one(x, x > 2)", true],
  ["[1, 2, 3].map(x, x * 2).filter(x, x > 2)", [4, 6]],
  ["{'a': 1, 'b': 2}.transformMap(k, v, v + 1)", { a: 2, b: 3 }],
  ["[3, 1, 2].transformList(i, v, i * v)", [0, 1, 4]],
  ["{'a': 1}.transformMapEntry(k, v, {v: k})", new Map([[1n, "a"]])],
  ["[1, 2].all(i, v, v > i)", true],
  ["[3, 1, 2].sortBy(x, -x)", [3, 2, 1]],
  ["[3, 1, 2].sort()", [1, 2, 3]],
  ["[[1], [2, [3]]].flatten()", [1, 2, [3]]],
  ["[1, 2, 1].distinct()", [1, 2]],
  ["lists.range(3)", [0, 1, 2]],
  ["[1, 2, 3, 4].slice(1, 3)", [2, 3]],
  ["sets.contains([1, 2, 3], [3u, 1.0]) && sets.intersects([1], [1.0]) && sets.equivalent([1, 1], [1])", true],
  // optionals
  ["optional.of(1).orValue(2) + optional.none().orValue(3)", 4],
  ["{'a': {'b': 1}}.?a.?b.value()", 1],
  ["{'a': {}}.?a.?b.hasValue()", false],
  ["[1, 2][?5].orValue(0)", 0],
  ["[?optional.none(), ?optional.of(1)]", [1]],
  ["optional.ofNonZeroValue('').hasValue()", false],
  ["optional.of(2).optMap(x, x * 2).value()", 4],
  ["optional.none().value()", { error: "optional.none() dereference" }],
  // types
  ["type(1) == int && type(1u) == uint && type('') == string && type([]) == list && type(null) == null_type", true],
  ["type(duration('1s')) == google.protobuf.Duration", true],
  // time
  ["timestamp('2024-02-29T12:30:00-08:00').getHours()", 20],
  ["timestamp('2024-02-29T12:30:00Z').getHours('America/Los_Angeles')", 4],
  ["timestamp('2024-02-29T12:30:00Z').getHours('+05:30')", 18],
  ["timestamp('2024-02-29T12:30:00Z').getMinutes('-01:15')", 15],
  ["timestamp('2024-12-31T23:00:00Z').getFullYear('Asia/Tokyo')", 2025],
  ["timestamp('2024-03-01T00:00:00Z').getDayOfYear()", 60],
  ["timestamp('2024-03-03T00:00:00Z').getDayOfWeek()", 0],
  ["string(timestamp('2024-01-01T00:00:00.120Z'))", "2024-01-01T00:00:00.12Z"],
  ["string(duration('1h1m1.5s'))", "3661.5s"],
  ["duration('-1.5ms') == duration('-1500us')", true],
  ["timestamp('10000-01-01T00:00:00Z')", { error: "type conversion error from 'string' to 'google.protobuf.Timestamp'" }],
  ["timestamp('9999-12-31T23:59:59Z') + duration('1s')", { error: "timestamp overflow" }],
  ["int(timestamp('1970-01-01T00:00:01.5Z'))", 1],
  ["timestamp('2024-01-02T00:00:00Z') - timestamp('2024-01-01T00:00:00Z') == duration('24h')", true],
  ["duration('1h').getMinutes()", 60],
  ["[1].exists(x, has(x.y)) || has([1].y)", { error: "unsupported index type 'string' in list" }],
  ["timestamp('2024-01-01T00:00:00Z').getHours('Mars/Olympus')", { error: "unknown time zone Mars/Olympus" }],
];

function expected(w: Want): CelValue {
  return nativeToCel(w);
}

for (const [expr, want, vars] of CASES) {
  test(`eval: ${expr}`, () => {
    const got = evalExpr(expr, vars);
    if (want !== null && typeof want === "object" && "error" in (want as object)) {
      assert.ok(got instanceof CelError, `want error, got ${String(got)}`);
      assert.equal(got.message, (want as { error: string }).error);
      return;
    }
    assert.ok(sameValue(got, expected(want)), `got ${String(got)}`);
  });
}

test("unknowns propagate as values and merge through && / ||", () => {
  const u1 = new CelUnknown([1]);
  const u2 = new CelUnknown([2]);
  const r = parse("a || b");
  assert.ok(r.ast);
  const v = plan(r.ast, { functions }).eval({ a: u1, b: u2 }).value;
  assert.ok(v instanceof CelUnknown);
  assert.deepEqual(v.ids, [1, 2]);
  assert.equal(plan(r.ast, { functions }).eval({ a: u1, b: true }).value, true);
  assert.ok(plan(parse("a + 1").ast!, { functions }).eval({ a: u1 }).value instanceof CelUnknown);
});

class Version extends CelOpaque {
  static readonly TYPE = new CelType("test.Version");
  readonly celType = Version.TYPE;
  constructor(readonly major: number) {
    super();
  }
  equals(o: CelValue): boolean {
    return o instanceof Version && o.major === this.major;
  }
}

test("extension points: global functions, receiver methods, opaque types", () => {
  const fns = standardFunctions().add(
    { id: "version_string", fn: "version", receiver: false, args: ["string"], impl: (s: string) => new Version(Number.parseInt(s, 10)) },
    { id: "version_major", fn: "major", receiver: true, args: ["test.Version"], impl: (v: Version) => BigInt(v.major) },
    {
      id: "version_less",
      fn: "_<_",
      receiver: false,
      args: ["test.Version", "test.Version"],
      impl: (a: Version, b: Version) => a.major < b.major,
    },
  );
  assert.equal(evalExpr("version('3').major() + 1", {}, fns), 4n);
  assert.equal(evalExpr("version('3') == version('3') && version('2') < version('3')", {}, fns), true);
  assert.equal(evalExpr("type(version('1')) == type(version('2'))", {}, fns), true);
  const typed = plan(parse("type(version('1')) == test.Version").ast!, {
    functions: fns,
    typeValues: new Map([["test.Version", Version.TYPE]]),
  });
  assert.equal(typed.eval({}).value, true);
  const e = evalExpr("version('1').major(1)", {}, fns);
  assert.ok(e instanceof CelError && e.message === "no such overload: major(test.Version, int)");
});

test("checked references: namespaced calls, overload ids, global idents", () => {
  const r = parse("[1].exists(x, x == .x) && sets.contains([1], [1])");
  assert.ok(r.ast);
  const refs = new Map<number, { name?: string; overloadIds?: readonly string[] }>();
  const visit = (e: import("../ast.js").Expr): void => {
    if (e.kind === "ident" && e.name === ".x") refs.set(e.id, { name: ".x" });
    if (e.kind === "call" && e.target && e.function === "contains") refs.set(e.id, { name: "sets.contains", overloadIds: ["list_sets_contains_list"] });
    if (e.kind === "call") {
      if (e.target) visit(e.target);
      e.args.forEach(visit);
    }
    if (e.kind === "comprehension") [e.iterRange, e.accuInit, e.loopCondition, e.loopStep, e.result].forEach(visit);
  };
  visit(r.ast.expr);
  const prog = plan(r.ast, { functions, checked: { references: refs } });
  assert.equal(prog.eval({ x: 1n }).value, true);
  assert.equal(prog.eval({ x: 2n }).value, false);
});

test("checked references: the checker's reference array plans as its references map does", () => {
  const env = new Env({ variables: { a: "list(int)", s: "string" } });
  const act = { a: [1n, 2n, 3n], s: "abc" };
  const cases: [string, unknown][] = [
    ["a.exists(x, x == 2) && s.size() == 3 && .s == 'abc'", true],
    ["a.map(x, x * 2).filter(y, y > 2)", [4n, 6n]],
    ["a.all(k, k > 0) && type(s) == string && a.size() == 3", true],
    ["a.exists_one(x, x > 2) ? int : uint", "int"],
  ];
  for (const [expr, want] of cases) {
    const c = env.compile(expr);
    if (isCompileFailure(c)) assert.fail(c.issues);
    const viaArray = plan(c.ast, { functions: env.functions(), checked: c.checked }).eval(act);
    const viaMap = plan(c.ast, { functions: env.functions(), checked: { references: c.checked.references } }).eval(act);
    const show = (v: CelValue): unknown => (v instanceof CelType ? v.name : v);
    assert.deepEqual(show(viaArray.value), want, expr);
    assert.deepEqual(show(viaMap.value), want, expr);
    assert.equal(viaArray.cost, viaMap.cost, expr);
  }
});

test("uint values", () => {
  const v = evalExpr("x * 2u", { x: new CelUint(21n) });
  assert.ok(v instanceof CelUint && v.value === 42n);
});

test("registry: lookups and replacement by id", () => {
  const reg = new FunctionRegistry();
  reg.add({ id: "f_int", fn: "f", receiver: false, args: ["int"], impl: () => 1n });
  reg.add({ id: "f_int", fn: "f", receiver: false, args: ["int"], impl: () => 2n });
  assert.equal(reg.lookup("f", 1, false).length, 1);
  assert.equal(evalExpr("f(1)", {}, reg), 2n);
});

test("a checker-resolved overload still verifies runtime types of dyn arguments", () => {
  const r = parse("[1, 'foo', 3].all(e, e % 2 == 1)");
  assert.ok(r.ast);
  const refs = new Map<number, { overloadIds?: readonly string[] }>();
  const visit = (e: import("../ast.js").Expr): void => {
    if (e.kind === "call") {
      if (e.function === "_%_") refs.set(e.id, { overloadIds: ["modulo_int64"] });
      if (e.target) visit(e.target);
      e.args.forEach(visit);
    }
    if (e.kind === "comprehension") [e.iterRange, e.accuInit, e.loopCondition, e.loopStep, e.result].forEach(visit);
  };
  visit(r.ast.expr);
  const v = plan(r.ast, { functions, checked: { references: refs } }).eval({}).value;
  assert.ok(v instanceof CelError);
  assert.equal(v.message, "no such overload");
});

test("an extension function that throws yields an error value, not a crash", () => {
  const fns = standardFunctions().add({
    id: "boom",
    fn: "boom",
    receiver: false,
    args: [],
    impl: () => {
      throw new TypeError("boom failed");
    },
  });
  const v = evalExpr("boom()", {}, fns);
  assert.ok(v instanceof CelError && v.message === "boom failed");
});
