import assert from "node:assert/strict";
import { test } from "node:test";
import { Float64 } from "../../value/json-value.js";
import { typeOfSchema } from "./type-schema.js";
import { appliedTypeErrors, failsTypedConversion } from "./typed-validate.js";

test("a string schema types its value as a string only without a format or with format byte (kube-openapi schemaconv)", () => {
  const cases: [unknown, string | undefined][] = [
    [undefined, "expected string, got &value.valueUnstructured{Value:0.25}"],
    ["", "expected string, got &value.valueUnstructured{Value:0.25}"],
    ["byte", "expected string, got &value.valueUnstructured{Value:0.25}"],
    // any other format is an untyped scalar: a number passes, a map does not
    ["ipv4", undefined],
    ["date-time", undefined],
    ["int-or-string", undefined],
    ["nope", undefined],
  ];
  for (const [format, want] of cases) {
    const schema = format === undefined ? { type: "string" } : { type: "string", format };
    assert.equal(appliedTypeErrors(0.25, typeOfSchema(schema as never)), want, String(format));
  }
  assert.equal(appliedTypeErrors({ a: new Float64(1) }, typeOfSchema({ type: "string", format: "ipv4" })), "expected any scalar, got &{map[a:1]}");
  const list = (format?: string) => typeOfSchema({ type: "object", properties: { ips: { type: "array", items: format ? { type: "string", format } : { type: "string" } } } });
  assert.equal(appliedTypeErrors({ ips: [0.25] }, list("ipv4")), undefined);
  assert.equal(appliedTypeErrors({ ips: [0.25] }, list()), ".ips[0]: expected string, got &value.valueUnstructured{Value:0.25}");
});

test("a field the type has not is smd's `field not declared in schema`, and ends the walk of its map", () => {
  const t = typeOfSchema({ type: "object", properties: { spec: { type: "object", properties: { a: { type: "string" }, z: { type: "string" } } } } });
  assert.equal(appliedTypeErrors({ spec: { a: "x", nope: 1 } }, t), ".spec.nope: field not declared in schema");
  // keys after the unknown one (sorted) are not checked; keys before it are
  assert.equal(appliedTypeErrors({ spec: { a: 1, b: 1, z: 1 } }, t), "errors:\n  .spec.a: expected string, got &value.valueUnstructured{Value:1}\n  .spec.b: field not declared in schema");
  // maps with additionalProperties or preserve-unknown-fields take any key
  assert.equal(appliedTypeErrors({ m: { k: "v" } }, typeOfSchema({ type: "object", properties: { m: { type: "object", additionalProperties: { type: "string" } } } })), undefined);
  assert.equal(appliedTypeErrors({ m: { k: { x: 1 } } }, typeOfSchema({ type: "object", properties: { m: { type: "object", "x-kubernetes-preserve-unknown-fields": true } } })), undefined);
});

test("failsTypedConversion: the field manager's typing of a written object, duplicates allowed", () => {
  const t = typeOfSchema({
    type: "object",
    properties: { status: { type: "object", properties: { replicas: { type: "integer" }, tags: { type: "array", "x-kubernetes-list-type": "set", items: { type: "string" } } } } },
  } as never);
  assert.equal(failsTypedConversion({ status: { replicas: 1, tags: ["a", "b"] } }, t), false);
  assert.equal(failsTypedConversion({ status: { replicas: 1, tags: ["a", "a"] } }, t), false);
  assert.equal(appliedTypeErrors({ status: { replicas: 1, tags: ["a", "a"] } }, t), '.status.tags: duplicate entries for key [="a"]');
  assert.equal(failsTypedConversion({ status: { replicas: "1" } }, t), true);
  assert.equal(failsTypedConversion({ status: { replicas: [1] } }, t), true);
  assert.equal(failsTypedConversion({ status: "x" }, t), true);
});
