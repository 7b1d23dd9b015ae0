/**
 * The CEL compilation hook of CRD validation (§1.4 step 16, §1.3 step 6) with a fake compiler: when it
 * is called, how its results become Kubernetes' errors (cost, compile errors, messageExpression errors,
 * oldSelf misuse, CRD-wide cost), and their order after schema errors.
 */
import { strict as assert } from "node:assert";
import { test } from "node:test";
import type { CelCompileRequest, CelCompiler, CelRuleResult } from "../../src/crdvalidation/cel-hook.js";
import { validateCrdCreate } from "../../src/crdvalidation/validate-crd.js";
import { errorString } from "../../src/errors/field-error.js";
import type { JsonObject } from "../../src/value/json-value.js";

function crd(schema: JsonObject): JsonObject {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "foos.example.com" },
    spec: {
      group: "example.com",
      scope: "Namespaced",
      names: { plural: "foos", kind: "Foo" },
      versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: schema } }],
    },
  };
}
const S = "spec.validation.openAPIV3Schema";

/** A compiler driven by the rule text: `cost:N`, `required:msg`, `invalid:msg`, `oldSelf`, `msgerr:msg`, `msgcost:N`. */
function fake(calls: CelCompileRequest[]): CelCompiler {
  return (req) => {
    calls.push(req);
    return req.rules.map((r): CelRuleResult => {
      const res: CelRuleResult = { maxCost: 1, maxCardinality: 1, usesOldSelf: r.rule.includes("oldSelf") };
      const m = /cost:(\d+)/.exec(r.rule);
      if (m) res.maxCost = Number(m[1]);
      const req2 = /required:(\w+)/.exec(r.rule);
      if (req2) res.error = { type: "Required", detail: req2[1]! };
      const inv = /invalid:(\w+)/.exec(r.rule);
      if (inv) res.error = { type: "Invalid", detail: inv[1]! };
      if (r.messageExpression) {
        const me = /msgerr:(\w+)/.exec(r.messageExpression);
        if (me) res.messageExpressionError = { detail: me[1]! };
        else {
          res.hasMessageExpression = true;
          const mc = /msgcost:(\d+)/.exec(r.messageExpression);
          res.messageExpressionMaxCost = mc ? Number(mc[1]) : 1;
        }
      }
      return res;
    });
  };
}

test("CEL: compiled per node in properties/items/additionalProperties, with cardinality from maxItems/maxProperties", () => {
  const calls: CelCompileRequest[] = [];
  const r = validateCrdCreate(
    crd({
      type: "object",
      "x-kubernetes-validations": [{ rule: "self.spec != null" }],
      properties: {
        spec: {
          type: "object",
          properties: {
            list: { type: "array", maxItems: 10, items: { type: "object", "x-kubernetes-validations": [{ rule: "cost:2000000" }], properties: { a: { type: "string" } } } },
            map: { type: "object", additionalProperties: { type: "string", "x-kubernetes-validations": [{ rule: "cost:10" }] } },
          },
        },
      },
    }),
    { celCompiler: fake(calls) },
  );
  assert.deepEqual(
    calls.map((c) => c.path.toString()),
    [`${S}.properties[spec].properties[list].items`, `${S}.properties[spec].properties[map].additionalProperties`, S],
  );
  assert.equal(calls[2]!.isResourceRoot, true);
  // 2,000,000 × 10 items = 20,000,000 > 10,000,000; the unbounded map uses the compiler's cardinality (1).
  assert.deepEqual(r.errors.map(errorString), [
    `${S}.properties[spec].properties[list].items.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 2.0x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
  ]);
});

test("CEL: not compiled when a schema error exists at the node or below, nor without a structural schema", () => {
  const calls: CelCompileRequest[] = [];
  const r = validateCrdCreate(
    crd({ type: "object", "x-kubernetes-validations": [{ rule: "x" }], properties: { a: { type: "array", items: { type: "string" }, uniqueItems: true } } }),
    { celCompiler: fake(calls) },
  );
  assert.equal(calls.length, 0);
  assert.equal(r.errors.length, 1);
  const calls2: CelCompileRequest[] = [];
  validateCrdCreate(crd({ "x-kubernetes-validations": [{ rule: "x" }] }), { celCompiler: fake(calls2) });
  assert.equal(calls2.length, 0);
});

test("CEL: compile errors, messageExpression errors and costs, oldSelf rules", () => {
  const r = validateCrdCreate(
    crd({
      type: "object",
      properties: {
        a: {
          type: "object",
          properties: { x: { type: "string" } },
          "x-kubernetes-validations": [
            { rule: "required:nope" },
            { rule: "invalid:bad", message: "m" },
            { rule: "self.x", messageExpression: "msgerr:oops" },
            { rule: "self.x", messageExpression: "msgcost:20000000" },
            { rule: "self.x", optionalOldSelf: true },
          ],
        },
        l: { type: "array", items: { type: "string", "x-kubernetes-validations": [{ rule: "self == oldSelf" }] } },
      },
    }),
    { celCompiler: fake([]) },
  );
  assert.deepEqual(r.errors.map(errorString), [
    `${S}.properties[a].x-kubernetes-validations[0].rule: Required value: nope`,
    `${S}.properties[a].x-kubernetes-validations[1].rule: Invalid value: {"Rule":"invalid:bad","Message":"m","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: bad`,
    `${S}.properties[a].x-kubernetes-validations[2].messageExpression: Invalid value: {"Rule":"self.x","Message":"","MessageExpression":"msgerr:oops","Reason":null,"FieldPath":"","OptionalOldSelf":null}: oops`,
    `${S}.properties[a].x-kubernetes-validations[3].messageExpression: Forbidden: estimated messageExpression cost exceeds budget by factor of 2.0x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
    `${S}.properties[a].x-kubernetes-validations[4].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule`,
    `${S}.properties[l].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ${S}.properties[l]`,
  ]);
});

test("CEL: the total cost of a schema is limited; the 4 most expensive expressions are named", () => {
  const props: JsonObject = {};
  for (let i = 0; i < 6; i++) props[`p${i}`] = { type: "string", "x-kubernetes-validations": [{ rule: `cost:${(i + 1) * 5000000}` }] };
  const r = validateCrdCreate(crd({ type: "object", properties: props }), { celCompiler: fake([]) });
  const rule = (i: number) => `${S}.properties[p${i}].x-kubernetes-validations[0].rule`;
  const over = (f: string) => `estimated rule cost exceeds budget by factor of ${f} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
  assert.deepEqual(r.errors.map(errorString), [
    `${rule(2)}: Forbidden: ${over("1.500000x").replace("1.500000x", "1.5x")}`,
    `${rule(3)}: Forbidden: ${over("2.0x")}`,
    `${rule(4)}: Forbidden: ${over("2.5x")}`,
    `${rule(5)}: Forbidden: ${over("3.0x")}`,
    `${rule(5)}: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
    `${rule(4)}: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
    `${rule(3)}: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
    `${rule(2)}: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
    `${S}: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 1.050000x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
  ]);
});

test("CEL: without a compiler rules are not compiled and produce no error", () => {
  const r = validateCrdCreate(crd({ type: "object", "x-kubernetes-validations": [{ rule: "this is not CEL" }] }));
  assert.deepEqual(r.errors, []);
});

test("CEL: a compiler that throws becomes an internal error at the node, not a crash", () => {
  const r = validateCrdCreate(crd({ type: "object", "x-kubernetes-validations": [{ rule: "x" }] }), {
    celCompiler: () => {
      throw new Error("boom");
    },
  });
  assert.deepEqual(r.errors.map(errorString), [`${S}.x-kubernetes-validations: Internal error: internal error: boom`]);
});

test("CEL: oldSelf is forbidden below a map of unrecognized map type", () => {
  const r = validateCrdCreate(
    crd({
      type: "object",
      properties: { m: { type: "object", "x-kubernetes-map-type": "other", properties: { f: { type: "string", "x-kubernetes-validations": [{ rule: "self == oldSelf" }] } } } },
    }),
    { celCompiler: fake([]) },
  );
  assert.deepEqual(r.errors.map(errorString), [
    `${S}.properties[m].x-kubernetes-map-type: Unsupported value: "other": supported values: "atomic", "granular"`,
    `${S}.properties[m].properties[f].x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ${S}.properties[m]`,
  ]);
});
