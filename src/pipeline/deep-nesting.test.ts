/**
 * Objects nested as deep as Kubernetes accepts (10,000 levels of JSON) go through every pipeline stage
 * without stack overflows. Expectations were produced by tools/k8s-oracle (apiextensions-apiserver
 * v0.37.2); they are too large for golden files (a 10,000-level stored object).
 */
import * as assert from "node:assert/strict";
import { test } from "node:test";
import { errorString } from "../errors/field-error.js";
import { goJsonMarshal } from "../go/json.js";
import { deepEqual, type JsonObject } from "../value/json-value.js";
import { compileCrd } from "./compile.js";
import { createFromJson, updateFromJson } from "./request-body.js";

function crd(x: JsonObject, specRules: string[] = []): JsonObject {
  const spec: JsonObject = { type: "object", properties: { x: { "x-kubernetes-preserve-unknown-fields": true, ...x } } };
  if (specRules.length > 0) spec["x-kubernetes-validations"] = specRules.map((rule) => ({ rule }));
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "widgets.example.com" },
    spec: {
      group: "example.com",
      names: { plural: "widgets", singular: "widget", kind: "Widget", listKind: "WidgetList" },
      scope: "Cluster",
      versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object", properties: { spec } } } }],
    },
  };
}

/** The value of `spec.x` in {@link body}: `depth - 2` levels. */
function inner(depth: number, kind: "arr" | "obj"): string {
  const n = depth - 2;
  return kind === "arr" ? "[".repeat(n) + "1" + "]".repeat(n) : '{"a":'.repeat(n) + '"v"' + "}".repeat(n);
}

/** A body whose total nesting (body object, spec, x, ...) is `depth` levels. */
function body(depth: number, kind: "arr" | "obj"): string {
  return `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1"},"spec":{"x":${inner(depth, kind)}}}`;
}

for (const kind of ["arr", "obj"] as const) {
  test(`${kind}: 10000 levels are stored unchanged`, () => {
    const cc = compileCrd(crd({}));
    const r = createFromJson(cc, body(10000, kind), { fieldValidation: "Strict" });
    assert.equal(r.decodeError, undefined);
    assert.deepEqual(r.errors, []);
    const x = ((r.object as JsonObject)["spec"] as JsonObject)["x"];
    assert.equal(goJsonMarshal(x), inner(10000, kind));
  });

  test(`${kind}: 10001 levels are refused with encoding/json's text`, () => {
    const cc = compileCrd(crd({}));
    const r = createFromJson(cc, body(10001, kind), { fieldValidation: "Strict" });
    const c = kind === "arr" ? "[" : "{";
    assert.equal(
      r.decodeError,
      `the object provided is unrecognized (must be of type Widget): couldn't get version/kind; json parse error: invalid character '${c}' exceeded max depth ({"apiVersion":"example.com/v1" ...)`,
    );
  });

  test(`${kind}: enum error renders the deep value`, () => {
    const cc = compileCrd(crd({ enum: [1, 2] }));
    const r = createFromJson(cc, body(9998, kind), { fieldValidation: "Strict" });
    assert.equal(r.errors.length, 1);
    assert.ok(errorString(r.errors[0]!).startsWith("spec.x: Unsupported value: "));
    assert.ok(errorString(r.errors[0]!).endsWith(': supported values: "1", "2"'));
  });
}

test("CEL rules and ratcheting over a 10000-level object", () => {
  const withRv = (b: string) => b.replace('"name":"w1"', '"name":"w1","resourceVersion":"1"');
  const deep = withRv(body(10000, "obj"));
  const cc = compileCrd(crd({ type: "object" }, ["self.x == self.x"]));
  assert.deepEqual(createFromJson(cc, deep, { fieldValidation: "Strict" }).errors, []);
  const ratchet = compileCrd(crd({ type: "object", "x-kubernetes-validations": [{ rule: "self == oldSelf" }] }));
  const oldShallow = createFromJson(ratchet, withRv(body(3, "obj")), {}).object as JsonObject;
  const changed = updateFromJson(ratchet, deep, oldShallow, { fieldValidation: "Strict" });
  assert.deepEqual(changed.errors.map(errorString), ["spec.x: Invalid value: failed rule: self == oldSelf"]);
  const oldDeep = createFromJson(ratchet, deep, {}).object as JsonObject;
  const unchanged = updateFromJson(ratchet, deep, oldDeep, { fieldValidation: "Strict" });
  assert.deepEqual(unchanged.errors, []);
  assert.ok(deepEqual((unchanged.object as JsonObject)["spec"], oldDeep["spec"]));
});
