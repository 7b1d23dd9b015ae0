// Static cost estimates compared with cel-go's checker/cost_test.go table (translated to data in
// testdata/cel-go-cost-cases.json; the proto message TestAllTypes is declared as a field map).
import * as assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { Env, isCompileFailure } from "../env.js";
import { BytesType } from "../types/types.js";
import type { CostEstimator, SizeEstimate } from "./index.js";
import { estimateCost } from "./index.js";

interface Case {
  name: string;
  expr: string;
  vars: Record<string, string>;
  hints: Record<string, number>;
  min: string;
  max: string;
  presenceTestHasCost?: boolean;
}

const cases = JSON.parse(readFileSync(new URL("./testdata/cel-go-cost-cases.json", import.meta.url), "utf8")) as Case[];

function testEstimator(hints: Record<string, number>): CostEstimator {
  return {
    estimateSize(node): SizeEstimate | undefined {
      const key = (node.path ?? []).join(".");
      const h = hints[key];
      if (h !== undefined) return { min: 0n, max: BigInt(h) };
      if (node.type === BytesType || node.type.kind === "bytes") return { min: 0n, max: 12n };
      return undefined;
    },
    estimateCallCost(_fn, overloadId) {
      return overloadId === "timestamp_to_year" ? { min: 7n, max: 7n } : undefined;
    },
  };
}

for (const c of cases) {
  test(`cost: ${c.name}: ${c.expr}`, () => {
    const env = new Env({
      variables: c.vars,
      objectTypes: { "google.expr.proto3.test.TestAllTypes": { single_int32: "int", single_float: "double", single_string: "string" } },
      libraries: { strings: false, sets: false, lists: false, optional: false, twoVarComprehensions: false },
      crossTypeNumericComparisons: false,
    });
    const compiled = env.compile(c.expr);
    if (isCompileFailure(compiled)) {
      assert.fail(compiled.issues);
      return;
    }
    const est = estimateCost(
      compiled,
      testEstimator(c.hints),
      c.presenceTestHasCost === undefined ? {} : { presenceTestHasCost: c.presenceTestHasCost },
    );
    assert.deepEqual([est.min.toString(), est.max.toString()], [c.min, c.max]);
  });
}
