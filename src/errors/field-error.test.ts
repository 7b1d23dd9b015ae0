import assert from "node:assert/strict";
import { test } from "node:test";
import { Float64 } from "../value/json-value.js";
import { FieldPath } from "./field-path.js";
import { aggregateMessage, errorString, fieldError, OMIT } from "./field-error.js";
import { invalidStatus } from "./status.js";

const p = FieldPath.of("spec");

const cases: [string, ReturnType<typeof fieldError.invalid>, string][] = [
  ["int value", fieldError.invalid(p.child("replicas"), 15, "spec.replicas in body should be less than or equal to 10"), "spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10"],
  ["string value quoted", fieldError.invalid(p.child("x"), 'a"b\n', "bad"), 'spec.x: Invalid value: "a\\"b\\n": bad'],
  ["float value %v", fieldError.invalid(p.child("x"), 0.5, "d"), "spec.x: Invalid value: 0.5: d"],
  ["integral float %v", fieldError.invalid(p.child("x"), new Float64(1e6), "d"), "spec.x: Invalid value: 1e+06: d"],
  ["object value as JSON", fieldError.invalid(p, { b: 1, a: "<" }, "d"), 'spec: Invalid value: {"a":"\\u003c","b":1}: d'],
  ["omitted value", fieldError.invalid(p, OMIT, "failed rule: x"), "spec: Invalid value: failed rule: x"],
  ["nil path", fieldError.invalid(null, null, "some validation rules were not checked"), "<nil>: Invalid value: null: some validation rules were not checked"],
  ["required", fieldError.required(p.child("a"), ""), "spec.a: Required value"],
  ["forbidden", fieldError.forbidden(p.child("a"), "not allowed"), "spec.a: Forbidden: not allowed"],
  ["too long", fieldError.tooLong(p.child("a"), 2), "spec.a: Too long: may not be more than 2 bytes"],
  ["too long 1", fieldError.tooLong(p.child("a"), 1), "spec.a: Too long: may not be more than 1 byte"],
  ["too many", fieldError.tooMany(p.child("a"), 3, 2), "spec.a: Too many: 3: must have at most 2 items"],
  ["not supported", fieldError.notSupported(p.child("a"), "qux", ["foo", "bar"]), 'spec.a: Unsupported value: "qux": supported values: "foo", "bar"'],
  ["duplicate", fieldError.duplicate(p.child("l").index(2), { name: "a" }), 'spec.l[2]: Duplicate value: {"name":"a"}'],
  ["map key path", fieldError.required(p.child("m").key("a.b").child("c")), "spec.m[a.b].c: Required value"],
  ["type invalid", fieldError.typeInvalid(p.child("a"), "string", 'spec.a in body must be of type object: "string"'), 'spec.a: Invalid value: "string": spec.a in body must be of type object: "string"'],
];

for (const [name, err, want] of cases) {
  test(`field.Error rendering: ${name}`, () => assert.equal(errorString(err), want));
}

test("aggregate de-duplicates and brackets", () => {
  const a = fieldError.required(p.child("a"));
  const b = fieldError.required(p.child("b"));
  assert.equal(aggregateMessage([a]), "spec.a: Required value");
  assert.equal(aggregateMessage([a, b, a]), "[spec.a: Required value, spec.b: Required value]");
});

test("422 Status object", () => {
  const s = invalidStatus("CronTab", "stable.example.com", "my-new-cron-object", [
    fieldError.invalid(p.child("replicas"), 15, "spec.replicas in body should be less than or equal to 10"),
  ]);
  assert.equal(
    s.message,
    'CronTab.stable.example.com "my-new-cron-object" is invalid: spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10',
  );
  assert.deepEqual(s.details?.causes, [
    { reason: "FieldValueInvalid", message: "Invalid value: 15: spec.replicas in body should be less than or equal to 10", field: "spec.replicas" },
  ]);
  assert.equal(s.code, 422);
});
