import * as assert from "node:assert/strict";
import { test } from "node:test";
import { Env, isCompileFailure } from "../env.js";
import { parse } from "../parser/parser.js";
import { standardFunctions } from "../stdlib-impl/index.js";
import { nativeToCel } from "../values/native.js";
import type { CelValue } from "../values/values.js";
import { CelError, CelUint } from "../values/values.js";
import { canon } from "./canon.test-util.js";
import { plan } from "./planner.js";
import conformanceChecked from "./testdata/cel-go-conformance-checked.json" with { type: "json" };
import golden from "./testdata/cel-go-eval.json" with { type: "json" };

// Values, error texts and runtime costs recorded from cel-go v0.29.2 (the version Kubernetes
// 1.37 uses) with Kubernetes' extension libraries (strings v2, sets, lists v3, two-variable
// comprehensions, optionals), both parse-only ("parse") and type-checked ("check").
interface Row {
  readonly expr: string;
  readonly mode: "parse" | "check";
  readonly cost: number;
  readonly value?: string;
  readonly error?: string;
}

const functions = standardFunctions({ stringsVersion: 2 });
const env = new Env({
  variables: {
    x: "dyn",
    s: "string",
    i: "int",
    u: "uint",
    d: "double",
    b: "bool",
    l: "list(int)",
    ls: "list(string)",
    m: "map(string, int)",
    o: "map(string, dyn)",
  },
});
const activation: Record<string, CelValue> = {
  x: 7n,
  s: "hello-world",
  i: 42n,
  u: new CelUint(3n),
  d: 2.5,
  b: true,
  l: [3n, 1n, 2n],
  ls: ["b", "a"],
  m: nativeToCel({ a: 1n, b: 2n }),
  o: nativeToCel({ name: "web", n: 3n, tags: ["x", "y"], nested: { k: "v" } }),
};

// Hand-picked expressions (both modes) plus every binding-free, non-protobuf cel-spec conformance
// expression of the Kubernetes-relevant sections that cel-go type-checks, evaluated checked.
// Excluded: 3 whose cost depends on Go's random map iteration order or a has() corner case.
const ROWS = [...(golden as Row[]), ...(conformanceChecked as Row[])];

for (const row of ROWS) {
  test(`cel-go ${row.mode}: ${row.expr}`, () => {
    let prog: ReturnType<typeof plan>;
    if (row.mode === "check") {
      const c = env.compile(row.expr);
      if (isCompileFailure(c)) throw new Error(c.issues);
      prog = plan(c.ast, { functions, checked: c.checked });
    } else {
      const r = parse(row.expr);
      assert.ok(r.ast, r.errorText);
      prog = plan(r.ast, { functions });
    }
    const out = prog.eval(activation);
    if (row.error !== undefined) {
      assert.ok(out.value instanceof CelError, `want error ${row.error}, got ${canon(out.value)}`);
      assert.equal(out.value.message, row.error);
    } else {
      assert.equal(canon(out.value), row.value);
    }
    assert.equal(out.cost, row.cost, "runtime cost");
  });
}
