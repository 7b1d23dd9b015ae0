/**
 * `runtimeFunctions` (src/cel/env.ts) gives the implementations `Env.functions()` gives, without an
 * environment: the same overloads (ids, functions, call style, runtime argument tags), the custom ones
 * with the same implementations — for the Kubernetes libraries of both rule environments.
 */
import * as assert from "node:assert/strict";
import { test } from "node:test";
import { Env, type FunctionRegistry, runtimeFunctions } from "../../src/cel/index.js";
import { KUBE_OPAQUE_TYPES, kubeLibraryFunctions } from "../../src/rules/library/functions.js";

function shape(r: FunctionRegistry): string[] {
  return r
    .overloads()
    .map((o) => `${o.id} ${o.fn} ${o.receiver ? "member" : "global"} (${o.args.join(", ")})`)
    .sort();
}

const LIBS = kubeLibraryFunctions();

for (const [name, functions] of [
  ["stored", LIBS],
  ["new", LIBS.filter((f) => f.name !== "includes")],
  ["none", []],
] as const) {
  test(`runtimeFunctions matches Env.functions() (${name} libraries)`, () => {
    const options = { opaqueTypes: KUBE_OPAQUE_TYPES, functions };
    const fromEnv = new Env({ ...options, extendedValidations: true }).functions();
    const direct = runtimeFunctions(options);
    assert.deepEqual(shape(direct), shape(fromEnv));
    for (const f of functions) {
      for (const o of f.overloads) {
        if (o.impl === undefined) continue;
        assert.equal(direct.byOverloadId(o.id)?.impl, o.impl, o.id);
        assert.equal(fromEnv.byOverloadId(o.id)?.impl, o.impl, o.id);
      }
    }
    assert.ok(direct.overloads().length > 100);
  });
}

test("runtimeFunctions follows the strings library version", () => {
  for (const strings of [0, 1, 3]) {
    const libraries = { strings };
    assert.deepEqual(shape(runtimeFunctions({ libraries })), shape(new Env({ libraries }).functions()), `strings v${strings}`);
  }
});
