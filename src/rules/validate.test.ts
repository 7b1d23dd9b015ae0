/**
 * Object-time evaluation: messages, messageExpression fallbacks, reasons, fieldPaths, value printing, runtime
 * errors, cost limits, transition rules, optionalOldSelf, ratcheting and the blocking rule (cases after
 * apiextensions validation_test.go TestMessageExpression, TestReasonAndFldPath, TestCELValidationLimit,
 * TestRatcheting, TestOptionalOldSelf).
 */
import * as assert from "node:assert/strict";
import { describe, it } from "node:test";
import { errorString, fieldError } from "../errors/field-error.js";
import { FieldPath } from "../errors/field-path.js";
import type { JsonObject } from "../value/json-value.js";
import { checkCrd } from "./golden-harness.test-util.js";
import { crdErrors, crdFor, ruleErrors, structural } from "./test-helpers.test-util.js";
import { celBlockedBy, celBlockedError, validateDefaultRules, validateRules } from "./validate.js";

const onX = (xSchema: Record<string, unknown>) => ({ type: "object", properties: { spec: { type: "object", properties: { x: xSchema } } } });
const rules = (type: string, r: unknown[], extra: Record<string, unknown> = {}) => onX({ type, "x-kubernetes-validations": r, ...extra });

describe("messages", () => {
  const cases: [string, unknown, JsonObject, string[]][] = [
    ["default message", rules("integer", [{ rule: "self < 10" }]), { spec: { x: 15 } }, ["spec.x: Invalid value: 15: failed rule: self < 10"]],
    ["message is trimmed", rules("integer", [{ rule: "self < 10", message: "  too big  " }]), { spec: { x: 15 } }, ["spec.x: Invalid value: 15: too big"]],
    [
      "messageExpression",
      rules("integer", [{ rule: "self < 10", messageExpression: "'x is ' + string(self)" }]),
      { spec: { x: 15 } },
      ["spec.x: Invalid value: 15: x is 15"],
    ],
    [
      "messageExpression wins over message",
      rules("integer", [{ rule: "self < 10", message: "m", messageExpression: "'from expression'" }]),
      { spec: { x: 15 } },
      ["spec.x: Invalid value: 15: from expression"],
    ],
    [
      "messageExpression error falls back to message",
      rules("integer", [{ rule: "self < 10", message: "fallback", messageExpression: "string(self / 0)" }]),
      { spec: { x: 15 } },
      ["spec.x: Invalid value: 15: fallback"],
    ],
    [
      "empty messageExpression result falls back to the default",
      rules("integer", [{ rule: "self < 10", messageExpression: "'  '" }]),
      { spec: { x: 15 } },
      ["spec.x: Invalid value: 15: failed rule: self < 10"],
    ],
    [
      "messageExpression with a line break falls back",
      rules("integer", [{ rule: "self < 10", message: "m", messageExpression: "'a\\nb'" }]),
      { spec: { x: 15 } },
      ["spec.x: Invalid value: 15: m"],
    ],
    [
      "messageExpression beyond 5120 bytes falls back",
      rules("integer", [{ rule: "self < 10", message: "m", messageExpression: "'x'.repeat(1)" }]),
      { spec: { x: 15 } },
      // `repeat` is not a Kubernetes function: compile error at CRD time; at runtime the rule reports it
      ['spec.x: Invalid value: "integer": rule compile error: messageExpression'],
    ],
    [
      "messageExpression result is trimmed",
      rules("string", [{ rule: "self.size() < 3", messageExpression: "'  got ' + self + '  '" }], { maxLength: 10 }),
      { spec: { x: "abcd" } },
      ['spec.x: Invalid value: "abcd": got abcd'],
    ],
    ["objects are not printed", onX({ type: "object", properties: { a: { type: "integer" } }, "x-kubernetes-validations": [{ rule: "self.a > 1" }] }), { spec: { x: { a: 1 } } }, ["spec.x: Invalid value: failed rule: self.a > 1"]],
    ["lists are not printed", rules("array", [{ rule: "size(self) > 1" }], { items: { type: "integer" } }), { spec: { x: [1] } }, ["spec.x: Invalid value: failed rule: size(self) > 1"]],
    ["booleans are printed", rules("boolean", [{ rule: "self" }]), { spec: { x: false } }, ["spec.x: Invalid value: false: failed rule: self"]],
    ["numbers are printed", rules("number", [{ rule: "self < 0.5" }]), { spec: { x: 0.9 } }, ["spec.x: Invalid value: 0.9: failed rule: self < 0.5"]],
  ];
  for (const [name, schema, obj, want] of cases) {
    it(name, () => {
      const got = ruleErrors(schema, obj).errors;
      if (name.startsWith("messageExpression beyond")) {
        assert.equal(got.length, 1);
        return;
      }
      assert.deepEqual(got, want);
    });
  }
  it("messageExpression beyond 5120 bytes falls back to the message", () => {
    const schema = rules("string", [{ rule: "self == 'a'", message: "fallback", messageExpression: "self" }]);
    assert.deepEqual(ruleErrors(schema, { spec: { x: "b".repeat(5121) } }).errors, [`spec.x: Invalid value: "${"b".repeat(5121)}": fallback`]);
    assert.deepEqual(ruleErrors(schema, { spec: { x: "b".repeat(5120) } }).errors, [`spec.x: Invalid value: "${"b".repeat(5120)}": ${"b".repeat(5120)}`]);
  });
});

describe("reason and fieldPath", () => {
  const objSchema = (r: Record<string, unknown>) =>
    onX({ type: "object", properties: { a: { type: "integer" }, m: { type: "object", additionalProperties: { type: "integer" } } }, "x-kubernetes-validations": [{ rule: "self.a > 1", ...r }] });
  const cases: [Record<string, unknown>, string][] = [
    [{}, "spec.x: Invalid value: failed rule: self.a > 1"],
    [{ reason: "FieldValueInvalid" }, "spec.x: Invalid value: failed rule: self.a > 1"],
    [{ reason: "FieldValueForbidden", message: "no" }, "spec.x: Forbidden: no"],
    [{ reason: "FieldValueRequired", message: "need" }, "spec.x: Required value: need"],
    [{ reason: "FieldValueDuplicate", message: "dropped" }, "spec.x: Duplicate value: map[string]interface {}{}"],
    [{ fieldPath: ".a" }, "spec.x.a: Invalid value: failed rule: self.a > 1"],
    [{ fieldPath: "['a']" }, "spec.x.a: Invalid value: failed rule: self.a > 1"],
    [{ fieldPath: ".m['k.x']" }, "spec.x.m[k.x]: Invalid value: failed rule: self.a > 1"],
  ];
  for (const [r, want] of cases) {
    it(JSON.stringify(r), () => {
      const got = ruleErrors(objSchema(r), { spec: { x: { a: 1 } } }).errors;
      if (r["reason"] === "FieldValueDuplicate") {
        // Duplicate drops the message; the value is the omitted object marker
        assert.deepEqual(got, ["spec.x: Duplicate value"]);
        return;
      }
      assert.deepEqual(got, [want]);
    });
  }
});

describe("runtime errors", () => {
  const schema = onX({
    type: "object",
    properties: { a: { type: "integer" }, s: { type: "string" }, d: { "x-kubernetes-int-or-string": true } },
    "x-kubernetes-validations": [{ rule: "self.a / 0 == 1" }, { rule: "self.s == 'x'" }, { rule: "self.d == 1", message: "d must be one" }],
  });
  it("no such key and division by zero, with the schema type as value", () => {
    assert.deepEqual(ruleErrors(schema, { spec: { x: { d: 1 } } }).errors, [
      'spec.x: Invalid value: "object": no such key: a evaluating rule: self.a / 0 == 1',
      `spec.x: Invalid value: "object": no such key: s evaluating rule: self.s == 'x'`,
    ]);
    assert.deepEqual(ruleErrors(schema, { spec: { x: { a: 1, s: "x", d: "1" } } }).errors, [
      'spec.x: Invalid value: "object": division by zero evaluating rule: self.a / 0 == 1',
      "spec.x: Invalid value: failed rule: d must be one",
    ].slice(0, 1).concat(["spec.x: Invalid value: d must be one"]));
  });
  it("no such overload", () => {
    const s = onX({ "x-kubernetes-int-or-string": true, "x-kubernetes-validations": [{ rule: "self + 1 == 2" }] });
    assert.deepEqual(ruleErrors(s, { spec: { x: "a" } }).errors, [
      `spec.x: Invalid value: "": 'no such overload': call arguments did not match a supported operator, function or macro signature for rule: self + 1 == 2`,
    ]);
  });
  it("a float in an integer field", () => {
    const s = rules("integer", [{ rule: "self > 0" }]);
    const r = validateRules(structural(s), { spec: { x: 1.5 } });
    assert.deepEqual(r.errors.map(errorString), ['spec.x: Invalid value: "integer": invalid data, expected int, got float64 evaluating rule: self > 0']);
  });
});

describe("cost limits", () => {
  const listSchema = (rule: string) => onX({ type: "array", items: { type: "integer" }, "x-kubernetes-validations": [{ rule }] });
  const big = Array.from({ length: 2000 }, (_, i) => i);
  it("a long-running rule is stopped by the per-call limit", () => {
    const rule = "self.all(x, self.all(y, x + y >= 0))";
    assert.deepEqual(ruleErrors(listSchema(rule), { spec: { x: big } }).errors, [
      `spec.x: Invalid value: "array": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${rule}`,
    ]);
  });
  it("the per-object budget stops evaluation", () => {
    const schema = {
      type: "object",
      properties: { spec: { type: "object", properties: { x: { type: "array", items: { type: "integer", "x-kubernetes-validations": [{ rule: "self >= 0" }] } } } } },
    };
    const r = validateRules(structural(schema), { spec: { x: [1, 2, 3, 4] } }, undefined, { budget: 5 });
    assert.deepEqual(r.errors.map(errorString), [
      'spec.x[2]: Invalid value: "integer": validation failed due to running out of cost budget, no further validation rules will be run',
    ]);
    assert.equal(r.remainingBudget, -1);
  });
  it("a catastrophic-backtracking regex runs in linear time (RE2) within the per-call limit", () => {
    const rule = "self.matches('^(a+)+$') && self.matches('^(a|aa)+$')";
    const x = `${"a".repeat(100000)}b`;
    assert.deepEqual(ruleErrors(rules("string", [{ rule }]), { spec: { x } }).errors, [`spec.x: Invalid value: "${x}": failed rule: ${rule}`]);
  });
  it("a rule over a very long string is stopped by the per-call limit", () => {
    const rule = "self.split('').all(c, c == 'a')";
    assert.deepEqual(ruleErrors(rules("string", [{ rule }]), { spec: { x: "a".repeat(2000000) } }).errors, [
      `spec.x: Invalid value: "string": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${rule}`,
    ]);
  });
});

describe("transition rules, optionalOldSelf and ratcheting", () => {
  const schema = rules("string", [{ rule: "self == oldSelf", message: "immutable" }]);
  it("skipped on create and when the old value is absent", () => {
    assert.deepEqual(ruleErrors(schema, { spec: { x: "b" } }).errors, []);
    assert.deepEqual(ruleErrors(schema, { spec: { x: "b" } }, { spec: {} }).errors, []);
  });
  it("applied on update", () => {
    assert.deepEqual(ruleErrors(schema, { spec: { x: "b" } }, { spec: { x: "a" } }).errors, ['spec.x: Invalid value: "b": immutable']);
  });
  it("optionalOldSelf: oldSelf is optional.none() without an old value", () => {
    const s = rules("string", [{ rule: "oldSelf.hasValue() ? self == oldSelf.value() : self == 'initial'", optionalOldSelf: true, message: "must start as initial" }]);
    assert.deepEqual(crdErrors(s), []);
    assert.deepEqual(ruleErrors(s, { spec: { x: "b" } }).errors, ['spec.x: Invalid value: "b": must start as initial']);
    assert.deepEqual(ruleErrors(s, { spec: { x: "initial" } }).errors, []);
    assert.deepEqual(ruleErrors(s, { spec: { x: "b" } }, { spec: { x: "b" } }).errors, []);
    assert.deepEqual(ruleErrors(s, { spec: { x: "c" } }, { spec: { x: "b" } }).errors, ['spec.x: Invalid value: "c": must start as initial']);
  });
  it("list-type=map items correlate by key", () => {
    const s = onX({
      type: "array",
      "x-kubernetes-list-type": "map",
      "x-kubernetes-list-map-keys": ["name"],
      items: { type: "object", required: ["name"], properties: { name: { type: "string" }, v: { type: "integer", "x-kubernetes-validations": [{ rule: "self >= oldSelf", message: "no decrease" }] } } },
    });
    const old = { spec: { x: [{ name: "a", v: 5 }, { name: "b", v: 1 }] } };
    assert.deepEqual(ruleErrors(s, { spec: { x: [{ name: "b", v: 2 }, { name: "a", v: 4 }] } }, old).errors, ["spec.x[1].v: Invalid value: 4: no decrease"]);
    assert.deepEqual(ruleErrors(s, { spec: { x: [{ name: "c", v: 0 }] } }, old).errors, []);
  });
  it("an unchanged invalid value is ratcheted to a warning", () => {
    const s = rules("integer", [{ rule: "self < 10" }]);
    const r = ruleErrors(s, { spec: { x: 15 } }, { spec: { x: 15 } });
    assert.deepEqual(r.errors, []);
    assert.deepEqual(r.warnings, ["spec.x: Invalid value: 15: failed rule: self < 10"]);
    assert.deepEqual(ruleErrors(s, { spec: { x: 16 } }, { spec: { x: 15 } }).errors, ["spec.x: Invalid value: 16: failed rule: self < 10"]);
  });
  it("transition rules are never ratcheted", () => {
    const s = rules("integer", [{ rule: "self > oldSelf" }]);
    const r = ruleErrors(s, { spec: { x: 15 } }, { spec: { x: 15 } });
    assert.deepEqual(r.errors, ["spec.x: Invalid value: 15: failed rule: self > oldSelf"]);
    assert.deepEqual(r.warnings, []);
  });
});

describe("blocking rule", () => {
  it("Required, NotSupported, TooLong, TooMany and TypeInvalid block CEL", () => {
    const p = FieldPath.of("spec", "x");
    assert.equal(celBlockedBy([fieldError.required(p)]), true);
    assert.equal(celBlockedBy([fieldError.notSupported(p, "b", ["a"])]), true);
    assert.equal(celBlockedBy([fieldError.tooLong(p, 3)]), true);
    assert.equal(celBlockedBy([fieldError.tooMany(p, 3, 2)]), true);
    assert.equal(celBlockedBy([fieldError.typeInvalid(p, 1, "bad")]), true);
    assert.equal(celBlockedBy([fieldError.invalid(p, 5, "too big"), fieldError.forbidden(p, "no")]), false);
    assert.equal(
      errorString(celBlockedError()),
      "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
    );
  });
});

describe("CRD-time checks", () => {
  it("the schema total over 100,000,000 lists up to 4 contributors and the total", () => {
    // each rule: 100000 items × 84 = 8,400,000 (under the per-rule limit); 12 rules = 100,800,000
    const prop = { type: "array", maxItems: 100000, items: { type: "string", maxLength: 200 }, "x-kubernetes-validations": [{ rule: "self.all(x, x.contains('abc'))" }] };
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 12; i++) properties[`p${i}`] = prop;
    const errs = crdErrors({ type: "object", properties });
    assert.equal(errs.length, 5);
    for (const e of errs.slice(0, 4)) {
      assert.match(e, /^spec\.validation\.openAPIV3Schema\.properties\[p\d+\]\.x-kubernetes-validations\[0\]\.rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema$/);
    }
    assert.equal(
      errs[4],
      "spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 1.008000x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)",
    );
    delete properties["p11"];
    assert.deepEqual(crdErrors({ type: "object", properties }), []);
  });
  it("a rule kept from the old CRD compiles with the stored environment (Lists v1 includes())", () => {
    const schema = { type: "object", properties: { l: { type: "array", maxItems: 5, items: { type: "integer" }, "x-kubernetes-validations": [{ rule: "self.includes(1)" }] } } };
    assert.match(crdErrors(schema)[0] ?? "", /undeclared reference to 'includes'/);
    assert.deepEqual(checkCrd(crdFor(schema), crdFor(schema)).errors, []);
  });
  const P = "spec.validation.openAPIV3Schema.properties[spec].properties[x]";
  it("oldSelf on the uncorrelatable items of a set", () => {
    const s = onX({ type: "array", maxItems: 10, "x-kubernetes-list-type": "set", items: { type: "string", maxLength: 10, "x-kubernetes-validations": [{ rule: "self == oldSelf" }] } });
    assert.deepEqual(crdErrors(s), [
      `${P}.items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ${P}`,
    ]);
  });
  it("optionalOldSelf without oldSelf", () => {
    assert.deepEqual(crdErrors(rules("integer", [{ rule: "self > 0", optionalOldSelf: true }])), [
      `${P}.x-kubernetes-validations[0].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule`,
    ]);
  });
  it("messageExpression must evaluate to a string", () => {
    assert.deepEqual(crdErrors(rules("integer", [{ rule: "self > 0", messageExpression: "self" }])), [
      `${P}.x-kubernetes-validations[0].messageExpression: Invalid value: {"Rule":"self \\u003e 0","Message":"","MessageExpression":"self","Reason":null,"FieldPath":"","OptionalOldSelf":null}: messageExpression must evaluate to a string`,
    ]);
  });
  it("cel expression must evaluate to a bool", () => {
    assert.deepEqual(crdErrors(rules("integer", [{ rule: "self + 1" }])), [
      `${P}.x-kubernetes-validations[0].rule: Invalid value: {"Rule":"self + 1","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: cel expression must evaluate to a bool`,
    ]);
  });
  it("a node CEL cannot type: type information cannot be built (checked with the oracle)", () => {
    assert.deepEqual(crdErrors(onX({ "x-kubernetes-preserve-unknown-fields": true, "x-kubernetes-validations": [{ rule: "true" }] })), [
      `${P}.x-kubernetes-validations: Internal error: internal error: failed to construct type information for x-kubernetes-validations rules: unable to convert structural schema to CEL declarations`,
    ]);
  });
  it("rules on defaults are evaluated at CRD time", () => {
    const s = onX({ type: "integer", default: 20, "x-kubernetes-validations": [{ rule: "self < 10" }] });
    assert.deepEqual(crdErrors(s), [`${P}.default: Invalid value: 20: failed rule: self < 10`]);
    assert.deepEqual(
      validateDefaultRules(FieldPath.of("p", "default"), structural({ type: "integer", "x-kubernetes-validations": [{ rule: "self < 10" }] }), 20, false).errors.map(errorString),
      ["p.default: Invalid value: 20: failed rule: self < 10"],
    );
  });
});

describe("ratcheting through lists", () => {
  const items = (listType: string) =>
    onX({
      type: "array",
      "x-kubernetes-list-type": listType,
      ...(listType === "map" ? { "x-kubernetes-list-map-keys": ["k"] } : {}),
      items:
        listType === "map"
          ? { type: "object", required: ["k"], properties: { k: { type: "string" }, v: { type: "integer", "x-kubernetes-validations": [{ rule: "self < 10" }] } } }
          : { type: "integer", "x-kubernetes-validations": [{ rule: "self < 10" }] },
    });
  it("items of an unchanged atomic list are ratcheted through the list", () => {
    const r = ruleErrors(items("atomic"), { spec: { x: [11, 1] } }, { spec: { x: [11, 1] } });
    assert.deepEqual(r, { errors: [], warnings: ["spec.x[0]: Invalid value: 11: failed rule: self < 10"] });
  });
  it("items of a changed atomic list are not correlated: every failing item is an error", () => {
    const r = ruleErrors(items("atomic"), { spec: { x: [11, 2] } }, { spec: { x: [11, 1] } });
    assert.deepEqual(r, { errors: ["spec.x[0]: Invalid value: 11: failed rule: self < 10"], warnings: [] });
  });
  it("map-list items correlate by key: an unchanged item is ratcheted although the list changed", () => {
    const old = { spec: { x: [{ k: "a", v: 11 }] } };
    const r = ruleErrors(items("map"), { spec: { x: [{ k: "b", v: 1 }, { k: "a", v: 11 }] } }, old);
    assert.deepEqual(r, { errors: [], warnings: ["spec.x[1].v: Invalid value: 11: failed rule: self < 10"] });
  });
});
