/**
 * Estimated rule costs (`CompilationResult.MaxCost`) against Kubernetes' TestCostEstimation table
 * (testdata/cost-estimation.json), with and without maxItems/maxProperties/maxLength.
 */
import * as assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { compileNodeRules } from "./compile.js";
import { schemaDeclType } from "./decl-type.js";
import { structural } from "./test-helpers.test-util.js";

interface CostCase {
  name: string;
  generator: string;
  args: (string | { item: string })[];
  setMaxElements: number;
  expectedCalcCost?: number;
  expectCalcCostExceedsLimit?: number;
  expectedSetCost?: number;
  expectedSetCostExceedsLimit?: number;
}

const data = JSON.parse(readFileSync(new URL("./testdata/cost-estimation.json", import.meta.url), "utf8")) as { cases: CostCase[] };

type Schema = Record<string, unknown>;
const put = (o: Schema, k: string, v: unknown): Schema => (v === undefined ? o : { ...o, [k]: v });

function leaf(t: string): Schema {
  if (t === "duration" || t === "date" || t === "date-time") return { type: "string", format: t };
  if (t === "int-or-string") return { "x-kubernetes-int-or-string": true };
  return { type: t };
}

const objectForMap = (): Schema => ({ type: "object", properties: { required: { type: "string" }, optional: { type: "string" } }, required: ["required"] });
const ITEMS: Record<string, () => Schema> = {
  genObjectForMap: objectForMap,
  genArrayForMap: () => ({ type: "array", items: { type: "number" } }),
  genMapForMap: () => ({ type: "object", additionalProperties: { type: "number" } }),
};

function generate(c: CostCase, max: number | undefined): Schema {
  const a = c.args;
  const rule = a[a.length - 1] as string;
  const xv = { "x-kubernetes-validations": [{ rule }] };
  switch (c.generator) {
    case "genArrayWithRule":
      return put({ type: "array", items: leaf(a[0] as string), ...xv }, "maxItems", max);
    case "genArrayOfArraysWithRule":
      return put({ type: "array", items: { type: "array", items: { type: a[0] } }, ...xv }, "maxItems", max);
    case "genObjectArrayWithRule":
      return put({ type: "array", items: objectForMap(), ...xv }, "maxItems", max);
    case "getMapArrayWithRule":
      return put({ type: "array", items: { type: "object", additionalProperties: { type: a[0] } }, ...xv }, "maxItems", max);
    case "genMapWithRule":
      return put({ type: "object", additionalProperties: leaf(a[0] as string), ...xv }, "maxProperties", max);
    case "genMapWithCustomItemRule":
      return put({ type: "object", additionalProperties: ITEMS[(a[0] as { item: string }).item]!(), ...xv }, "maxProperties", max);
    case "genStringWithRule":
      return put({ type: "string", ...xv }, "maxLength", max);
    case "genEnumWithRuleAndValues":
      return put({ type: "string", enum: a.slice(1), "x-kubernetes-validations": [{ rule: a[0] }] }, "maxLength", max);
    case "genBytesWithRule":
      return put({ type: "string", format: "byte", ...xv }, "maxLength", max);
    case "genNestedSpecWithRule":
      return put({ type: "object", additionalProperties: put({ type: "string" }, "maxLength", max), ...xv }, "maxProperties", max);
    case "genAllMaxNestedSpecWithRootRule":
      return put(
        { type: "array", items: put({ type: "object", additionalProperties: put(objectForMap(), "maxProperties", max) }, "maxProperties", max), ...xv },
        "maxItems",
        max,
      );
    case "genOneMaxNestedSpecWithRootRule":
      return { type: "array", items: put({ type: "object", additionalProperties: objectForMap() }, "maxProperties", max), ...xv };
  }
  throw new Error(`unknown generator ${c.generator}`);
}

function maxCost(schema: Schema): number {
  const s = structural(schema);
  const r = compileNodeRules(s, s.xValidations ?? [], schemaDeclType(s, false), { flavor: "new" });
  assert.ok(Array.isArray(r), "compiles");
  const c = r[0]!;
  assert.equal(c.error, undefined, c.error?.detail);
  return c.maxCost;
}

describe("TestCostEstimation (Kubernetes)", () => {
  for (const c of data.cases) {
    it(c.name, () => {
      const calc = maxCost(generate(c, undefined));
      if (c.expectedCalcCost !== undefined) assert.equal(calc, c.expectedCalcCost, "calc maxLength");
      if (c.expectCalcCostExceedsLimit !== undefined) assert.ok(calc >= c.expectCalcCostExceedsLimit, `calc ${calc} exceeds ${c.expectCalcCostExceedsLimit}`);
      const set = maxCost(generate(c, c.setMaxElements));
      if (c.expectedSetCost !== undefined) assert.equal(set, c.expectedSetCost, "set maxLength");
      if (c.expectedSetCostExceedsLimit !== undefined) assert.ok(set >= c.expectedSetCostExceedsLimit, `set ${set} exceeds ${c.expectedSetCostExceedsLimit}`);
    });
  }
});
