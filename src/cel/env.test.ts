// Env: compile → program → eval end to end, custom functions, receiver-style methods, opaque
// types, object types, cost limits and static cost estimates.
import * as assert from "node:assert/strict";
import { test } from "node:test";
import { Env, formatType, isCompileFailure } from "./env.js";
import { CelError, CelOpaque, CelType, type CelValue, HashCelMap } from "./values/values.js";

class Quantity extends CelOpaque {
  readonly celType = new CelType("test.Quantity");
  constructor(readonly milli: bigint) {
    super();
  }
  equals(other: CelValue): boolean {
    return other instanceof Quantity && other.milli === this.milli;
  }
}

const env = new Env({
  variables: { s: "string", xs: "list(int)", self: "Spec", m: "map(string, dyn)" },
  objectTypes: { Spec: { replicas: "int", name: "string" } },
  opaqueTypes: ["test.Quantity"],
  functions: [
    {
      name: "quantity",
      overloads: [
        {
          id: "string_to_quantity",
          args: ["string"],
          result: "test.Quantity",
          impl: ((v: string) => new Quantity(BigInt(v) * 1000n)) as never,
        },
      ],
    },
    {
      name: "isLessThan",
      overloads: [
        {
          id: "quantity_is_less_than",
          member: true,
          args: ["test.Quantity", "test.Quantity"],
          result: "bool",
          impl: ((a: Quantity, b: Quantity) => a.milli < b.milli) as never,
        },
      ],
    },
  ],
});

function spec(replicas: bigint, name: string): HashCelMap {
  const m = new HashCelMap();
  m.set("replicas", replicas);
  m.set("name", name);
  return m;
}

const evalCases: { expr: string; activation: Record<string, CelValue>; type: string; value: CelValue }[] = [
  { expr: "quantity('1').isLessThan(quantity('2'))", activation: {}, type: "bool", value: true },
  { expr: "quantity(s) == quantity('3')", activation: { s: "3" }, type: "bool", value: true },
  { expr: "type(quantity('3'))", activation: {}, type: "type(test.Quantity)", value: new CelType("test.Quantity") },
  { expr: "xs.all(x, x > 0) && xs.size() == 2", activation: { xs: [1n, 2n] }, type: "bool", value: true },
  { expr: "self.replicas + 1", activation: { self: spec(2n, "a") }, type: "int", value: 3n },
  { expr: "self.name.upperAscii()", activation: { self: spec(2n, "ab") }, type: "string", value: "AB" },
  { expr: "m.?missing.orValue('d')", activation: { m: new HashCelMap() }, type: "dyn", value: "d" },
];

for (const c of evalCases) {
  test(`env: ${c.expr}`, () => {
    const compiled = env.compile(c.expr);
    if (isCompileFailure(compiled)) {
      assert.fail(compiled.issues);
      return;
    }
    assert.equal(formatType(compiled.outputType), c.type);
    const v = env.program(compiled).eval(c.activation).value;
    if (c.value instanceof CelType) assert.ok(v instanceof CelType && v.name === c.value.name);
    else assert.deepEqual(v, c.value);
  });
}

test("env: runtime cost limit stops evaluation with cel-go's message", () => {
  const compiled = env.compile("xs.all(x, x > 0)");
  if (isCompileFailure(compiled)) {
    assert.fail(compiled.issues);
    return;
  }
  const r = env.program(compiled, { costLimit: 2 }).eval({ xs: [1n, 2n, 3n] });
  assert.ok(r.value instanceof CelError);
  assert.equal(r.value.message, "operation cancelled: actual cost limit exceeded");
});

test("env: static estimate bounds the actual cost", () => {
  const compiled = env.compile("xs.all(x, x > 0)");
  if (isCompileFailure(compiled)) {
    assert.fail(compiled.issues);
    return;
  }
  const est = env.estimateCost(compiled, {
    estimateSize: (n) => ((n.path ?? []).join(".") === "xs" ? { min: 0n, max: 3n } : undefined),
    estimateCallCost: () => undefined,
  });
  const actual = env.program(compiled).eval({ xs: [1n, 2n, 3n] }).cost;
  assert.deepEqual([est.min, est.max], [2n, 17n]);
  assert.ok(BigInt(actual) <= est.max && BigInt(actual) >= est.min);
});

test("env: custom function type errors use cel-go's text", () => {
  const r = env.compile("quantity(1)");
  assert.ok(isCompileFailure(r));
  assert.equal(
    r.issues,
    "ERROR: <input>:1:9: found no matching overload for 'quantity' applied to '(int)'\n | quantity(1)\n | ........^",
  );
});

test("env: parse errors are reported in the same format", () => {
  const r = env.compile("1 +");
  assert.ok(isCompileFailure(r));
  assert.match(r.issues, /^ERROR: <input>:1:4: Syntax error: /);
});

test("env: extend adds declarations and keeps the base ones", () => {
  const child = env.extend({ variables: { oldSelf: "Spec" } });
  const r = child.compile("quantity(self.name).isLessThan(quantity(oldSelf.name))");
  if (isCompileFailure(r)) assert.fail(r.issues);
  else assert.equal(formatType(r.outputType), "bool");
  assert.ok(isCompileFailure(env.compile("oldSelf")));
});

test("env: derive shares the parent's functions and validators, with its own variables and object types", () => {
  const parent = new Env({ extendedValidations: true, functions: env.options.functions ?? [], opaqueTypes: ["test.Quantity"] });
  const fields = new Map([["limit", parent.types.findIdentType("test.Quantity") as never]]);
  const source = { prefixes: ["node1"], fields: (n: string) => (n === "node1" ? fields : undefined) };
  const child = parent.derive({ variables: { self: "node1" }, objectTypeSource: source });
  const ok = child.compile("self.limit.isLessThan(quantity('2'))");
  if (isCompileFailure(ok)) assert.fail(ok.issues);
  const self = new HashCelMap();
  self.set("limit", new Quantity(3000n));
  assert.equal(child.program(ok).eval({ self }).value, false);
  // the same result as declaring everything again
  const full = new Env({ ...parent.options, variables: { self: "node1" }, objectTypeSource: source });
  const bad = ["self.nope", "self.limit + 1", "duration('1x') == self", "self.limit.isLessThan(quantity('2'), 1)"];
  for (const e of bad) {
    const a = child.compile(e);
    const b = full.compile(e);
    assert.ok(isCompileFailure(a) && isCompileFailure(b), e);
    assert.equal(a.issues, b.issues);
  }
  // the literal validator runs: cel-go's text
  const lit = child.compile("duration('1x') == duration('1s')");
  assert.ok(isCompileFailure(lit));
  assert.equal(lit.issues, "ERROR: <input>:1:10: invalid duration argument\n | duration('1x') == duration('1s')\n | .........^");
  // the parent does not see the child's declarations
  const p = parent.compile("self");
  assert.ok(isCompileFailure(p));
  assert.match(p.issues, /undeclared reference to 'self'/);
});
