/** kubeCallCost's plan-time shapes agree with what it charges per call, for every overload Kubernetes rules can call. */
import * as assert from "node:assert/strict";
import { test } from "node:test";
import type { CelValue } from "../cel/index.js";
import type { CallCostShape } from "../cel/interpreter/functions.js";
import { kubeCallCost } from "./costs.js";
import { sharedRegistry } from "./env.js";

const SAMPLES: readonly CelValue[] = ["abc", "", ["a", "b"], 3n, "x".repeat(100)];

for (const flavor of ["stored", "new"] as const) {
  test(`kubeCallCost shape matches its per-call answers (${flavor} registry)`, () => {
    const shape = kubeCallCost.shape;
    assert.ok(shape !== undefined);
    let constants = 0;
    let defaults = 0;
    for (const ov of sharedRegistry(flavor).overloads()) {
      // the planner asks with the checker's overload id, or "" when dispatch is dynamic
      for (const id of [ov.id, ""]) {
        const sh: CallCostShape = shape(ov.fn, id);
        if (sh === "dynamic") continue;
        if (sh === "default") defaults++;
        else if (typeof sh === "number") constants++;
        for (const sample of SAMPLES) {
          const args = ov.args.map(() => sample);
          const got = kubeCallCost(ov.fn, id, args, sample);
          const want: number | undefined = sh === "default" ? undefined : typeof sh === "number" ? sh : sh.byOperands(args[0] ?? null, args[1] ?? null);
          assert.equal(got, want, `${ov.fn} ${id || "(dynamic dispatch)"}`);
        }
      }
    }
    // both kinds occur (standard functions are default, the quantity/IP/semver accessors constant)
    assert.ok(constants > 10 && defaults > 100, `${constants} constant, ${defaults} default`);
  });
}

test("kubeCallCost shape: priced functions are asked per call", () => {
  const shape = kubeCallCost.shape;
  assert.ok(shape !== undefined);
  // == is priced from its operands: the opaque-type answer and the default one, as per call
  const eq = shape("_==_", "equals");
  assert.ok(typeof eq === "object");
  const toQuantity = sharedRegistry("stored").byOverloadId("string_to_quantity");
  assert.ok(toQuantity !== undefined);
  const q = (toQuantity.impl as (s: string) => CelValue)("1Gi");
  assert.equal(eq.byOperands(q, ""), 1);
  assert.equal(eq.byOperands("abc", "abc"), undefined);
  assert.equal(eq.byOperands(3n, 3n), undefined);
  assert.equal(shape("matches", "matches_string"), "default");
  assert.equal(shape("indexOf", "string_index_of_string"), "dynamic");
  assert.equal(shape("add", "quantity_add"), 1);
  assert.equal(shape("isGreaterThan", "quantity_is_greater_than"), 1);
});

test("kubeCallCost: == costs 1 on a Kubernetes opaque left operand, else the default model", () => {
  const toQuantity = sharedRegistry("stored").byOverloadId("string_to_quantity");
  assert.ok(toQuantity !== undefined);
  const q = (toQuantity.impl as (s: string) => CelValue)("1Gi");
  assert.equal(kubeCallCost("_==_", "equals", [q, q], true), 1);
  // an empty right operand does not lower it (the default model would charge 0)
  assert.equal(kubeCallCost("_==_", "equals", [q, ""], false), 1);
  assert.equal(kubeCallCost("_==_", "equals", ["abc", "abc"], true), undefined);
  assert.equal(kubeCallCost("_==_", "equals", [3n, 3n], true), undefined);
});
