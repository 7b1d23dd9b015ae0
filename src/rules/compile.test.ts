/**
 * Rule compilation (cases from apiextensions compilation_test.go TestCelCompilation): type checking of
 * optional oldSelf, escaping, transition-rule detection, blank rules, result types, messageExpressions.
 */
import * as assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ValidationRule } from "../crd/types.js";
import { compileNodeRules } from "./compile.js";
import { schemaDeclType } from "./decl-type.js";
import { structural } from "./test-helpers.test-util.js";

/** Per rule: "ok", "ok transition", or a substring of the error detail. */
function compileAll(schema: unknown, rules: ValidationRule[]): string[] {
  const s = structural(schema);
  const r = compileNodeRules(s, rules, schemaDeclType(s, false), { flavor: "new" });
  assert.ok(Array.isArray(r));
  return r.map((c) => c.error?.detail ?? c.messageExpressionError?.detail ?? (c.usesOldSelf ? "ok transition" : "ok"));
}

const opt = (rule: string): ValidationRule => ({ rule, optionalOldSelf: true });

describe("TestCelCompilation (Kubernetes)", () => {
  it("optional primitive transition rule type checking", () => {
    const got = compileAll({ type: "integer" }, [
      opt("self >= oldSelf.value()"),
      opt("self >= oldSelf.orValue(1)"),
      opt("oldSelf.hasValue() ? self >= oldSelf.value() : true"),
      opt("self >= oldSelf"),
      opt("self >= oldSelf.orValue('')"),
    ]);
    assert.deepEqual(got.slice(0, 3), ["ok transition", "ok transition", "ok transition"]);
    assert.match(got[3]!, /compilation failed: .*optional/);
    assert.match(got[4]!, /compilation failed: .*orValue/);
  });
  it("optional complex transition rule type checking", () => {
    const leafs = { i: { type: "integer" }, b: { type: "boolean" }, s: { type: "string" }, a: { type: "array", items: { type: "integer" } } };
    const schema = { type: "object", properties: { ...leafs, o: { type: "object", properties: { ...leafs, o: { type: "object" } } } } };
    const got = compileAll(schema, [
      opt("self.i >= oldSelf.i.value()"),
      opt("self.s == oldSelf.s.value()"),
      opt("self.b == oldSelf.b.value()"),
      opt("self.o == oldSelf.o.value()"),
      opt("self.o.i >= oldSelf.o.i.value()"),
      opt("self.o.s == oldSelf.o.s.value()"),
      opt("self.o.b == oldSelf.o.b.value()"),
      opt("self.o.o == oldSelf.o.o.value()"),
      opt("self.o.i >= oldSelf.o.i.orValue(1)"),
      opt("oldSelf.hasValue() ? self.o.i >= oldSelf.o.i.value() : true"),
      opt("self.o.i >= oldSelf.o.i"),
      opt("self.o.i >= oldSelf.o.s.orValue(0)"),
    ]);
    assert.deepEqual(got.slice(0, 10), Array(10).fill("ok transition"));
    assert.match(got[10]!, /optional/);
    assert.match(got[11]!, /orValue/);
  });
  const valid: [string, unknown, string][] = [
    ["object", { type: "object", properties: { minReplicas: { type: "integer" }, maxReplicas: { type: "integer" } } }, "self.minReplicas < self.maxReplicas"],
    ["string", { type: "string" }, "self.startsWith('s')"],
    ["byte", { type: "string", format: "byte" }, "string(self).endsWith('s')"],
    ["boolean", { type: "boolean" }, "self == true"],
    ["integer", { type: "integer" }, "self > 0"],
    ["number", { type: "number" }, "self > 1.0"],
    ["nested object of object", { type: "object", properties: { nestedObj: { type: "object", properties: { val: { type: "integer" } } } } }, "self.nestedObj.val == 10"],
    ["nested object of array", { type: "object", properties: { nestedObj: { type: "array", items: { type: "array", items: { type: "string" } } } } }, "size(self.nestedObj[0]) == 10"],
    ["nested array of array", { type: "array", items: { type: "array", items: { type: "array", items: { type: "string" } } } }, "size(self[0][0]) == 10"],
    ["nested array of object", { type: "array", items: { type: "object", properties: { nestedObj: { type: "object", properties: { val: { type: "integer" } } } } } }, "self[0].nestedObj.val == 10"],
    ["map", { type: "object", additionalProperties: { type: "boolean" } }, "size(self) > 0"],
  ];
  for (const [name, schema, rule] of valid) it(`valid for ${name}`, () => assert.deepEqual(compileAll(schema, [{ rule }]), ["ok"]));
  it("invalid checking for number", () => {
    assert.match(compileAll({ type: "number" }, [{ rule: "size(self) == 10" }])[0]!, /^compilation failed: ERROR: <input>:1:5: found no matching overload for 'size' applied to '\(double\)'/);
  });
  it("escaping", () => {
    const schema = {
      type: "object",
      properties: { namespace: { type: "array", items: { type: "string", maxLength: 10 }, maxItems: 10 }, if: { type: "integer" }, self: { type: "integer" } },
    };
    assert.deepEqual(compileAll(schema, [{ rule: "size(self.__namespace__[0]) == 10" }, { rule: "self.__if__ == 10" }, { rule: "self.self == 10" }]), ["ok", "ok", "ok"]);
    const got = compileAll(schema, [{ rule: "size(self.namespace[0]) == 10" }, { rule: "self.if == 10" }, { rule: "self == 10" }]);
    assert.deepEqual(got.slice(0, 2), ["ok", "ok"]);
    assert.match(got[2]!, /found no matching overload/);
  });
  it("transition rule identified", () => {
    assert.deepEqual(compileAll({ type: "integer" }, [{ rule: "self > 0" }, { rule: "self >= oldSelf" }]), ["ok", "ok transition"]);
  });
  it("whitespace-only rule is skipped", () => {
    const s = structural({ type: "integer" });
    const r = compileNodeRules(s, [{ rule: " \t" }], schemaDeclType(s, false));
    assert.ok(Array.isArray(r) && r[0]!.program === undefined && r[0]!.error === undefined);
  });
  it("expression must evaluate to a bool", () => {
    assert.deepEqual(compileAll({ type: "integer" }, [{ rule: "42" }]), ["cel expression must evaluate to a bool"]);
  });
  it("messageExpressions", () => {
    assert.deepEqual(compileAll({ type: "string" }, [{ rule: "self.startsWith('s')", messageExpression: "'scoped field should start with \\'s\\''" }]), ["ok"]);
    assert.deepEqual(compileAll({ type: "integer" }, [{ rule: "self == 5", messageExpression: "42" }]), ["messageExpression must evaluate to a string"]);
    assert.match(compileAll({ type: "number" }, [{ rule: "self < 32.0", messageExpression: "'abc" }])[0]!, /^messageExpression compilation failed: ERROR: <input>:1:1: Syntax error/);
  });
  it("expressions may not use undeclared functions", () => {
    assert.match(compileAll({ type: "string" }, [{ rule: "fakeFunction('abc') == 'ABC'" }])[0]!, /undeclared reference to 'fakeFunction'/);
  });
  it("object types are named after their path (MaybeAssignTypeName), in error texts too", () => {
    const schema = {
      type: "object",
      properties: {
        spec: {
          type: "object",
          properties: {
            items: { type: "array", items: { type: "object", properties: { name: { type: "string" } } } },
            labels: { type: "object", additionalProperties: { type: "object", properties: { v: { type: "integer" } } } },
          },
        },
      },
    };
    const got = compileAll(schema, [
      { rule: "self.spec == 1" },
      { rule: "self.spec.items[0] == 1" },
      { rule: "self.spec.labels['a'] == 1" },
      { rule: "self.spec.items == 1" },
      { rule: "self.spec.nope == 1" },
      { rule: "self.spec.items[0].name == 'a' && self.spec.labels['a'].v == 1" },
    ]);
    const name = /'\((selfType\d+)\.spec, int\)'/.exec(got[0]!)?.[1];
    assert.ok(name, got[0]);
    assert.match(got[1]!, new RegExp(`found no matching overload for '_==_' applied to '\\(${name}\\.spec\\.items\\.@idx, int\\)'`));
    assert.match(got[2]!, new RegExp(`applied to '\\(${name}\\.spec\\.labels\\.@elem, int\\)'`));
    assert.match(got[3]!, new RegExp(`applied to '\\(list\\(${name}\\.spec\\.items\\.@idx\\), int\\)'`));
    assert.match(got[4]!, /undefined field 'nope'/);
    assert.equal(got[5], "ok");
  });
  it("includes (Lists v1, Kubernetes 1.37) only for stored expressions", () => {
    const s = structural({ type: "array", maxItems: 10, items: { type: "integer" } });
    const stored = compileNodeRules(s, [{ rule: "self.includes(1)" }], schemaDeclType(s, false), { flavor: "stored" });
    const fresh = compileNodeRules(s, [{ rule: "self.includes(1)" }], schemaDeclType(s, false), { flavor: "new" });
    assert.ok(Array.isArray(stored) && stored[0]!.error === undefined);
    assert.ok(Array.isArray(fresh));
    assert.match(fresh[0]!.error?.detail ?? "", /undeclared reference to 'includes'/);
  });
});
