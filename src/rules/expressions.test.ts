/**
 * Rules over typed custom-resource data (cases from apiextensions validation_test.go
 * TestValidationExpressions): type/object meta, embedded resources, preserve-unknown-fields, nulls,
 * int-or-string, maps and list-type=map lookups. Valid rules must pass; error rules must fail (at compile
 * time or at runtime) with a message containing the given text.
 */
import * as assert from "node:assert/strict";
import { describe, it } from "node:test";
import { errorString } from "../errors/field-error.js";
import type { JsonObject } from "../value/json-value.js";
import { structural } from "./test-helpers.test-util.js";
import { validateRules } from "./validate.js";

const str = { type: "string" };
const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: "object", properties, ...extra });
const META = { apiVersion: "v1", kind: "Pod", metadata: { name: "foo", generateName: "pickItForMe", namespace: "xyz" } };

interface Case {
  name: string;
  schema: Record<string, unknown>;
  obj: JsonObject;
  isRoot?: boolean;
  valid: string[];
  errors?: Record<string, string>;
}

const CASES: Case[] = [
  {
    name: "typemeta and objectmeta access specified",
    schema: obj({ kind: str, apiVersion: str, metadata: obj({ name: str, generateName: str }) }),
    obj: META,
    valid: ["self.kind == 'Pod'", "self.apiVersion == 'v1'", "self.metadata.name == 'foo'", "self.metadata.generateName == 'pickItForMe'"],
    errors: { "has(self.metadata.namespace)": "undefined field 'namespace'" },
  },
  {
    name: "typemeta and objectmeta access not specified",
    isRoot: true,
    schema: obj({ spec: obj({ field1: str }) }),
    obj: { ...META, spec: { field1: "a" } },
    valid: ["self.kind == 'Pod'", "self.apiVersion == 'v1'", "self.metadata.name == 'foo'", "self.metadata.generateName == 'pickItForMe'", "self.spec.field1 == 'a'"],
    errors: { "has(self.metadata.namespace)": "undefined field 'namespace'" },
  },
  {
    name: "embedded object",
    schema: obj({ embedded: { type: "object", "x-kubernetes-embedded-resource": true } }),
    obj: { embedded: { ...META, spec: { field1: "a" } } },
    valid: ["self.embedded.kind == 'Pod'", "self.embedded.apiVersion == 'v1'", "self.embedded.metadata.name == 'foo'", "self.embedded.metadata.generateName == 'pickItForMe'"],
    errors: { "has(self.embedded.metadata.namespace)": "undefined field 'namespace'", "has(self.embedded.spec)": "undefined field 'spec'" },
  },
  {
    name: "embedded object with properties",
    schema: obj({
      embedded: obj(
        { kind: str, apiVersion: str, metadata: obj({ name: str, generateName: str }), spec: obj({ field1: str }) },
        { "x-kubernetes-embedded-resource": true },
      ),
    }),
    obj: { embedded: { ...META, spec: { field1: "a" } } },
    valid: ["self.embedded.kind == 'Pod'", "self.embedded.metadata.generateName == 'pickItForMe'", "self.embedded.spec.field1 == 'a'"],
    errors: { "has(self.embedded.metadata.namespace)": "undefined field 'namespace'" },
  },
  {
    name: "embedded object with usage of reserved keywords",
    schema: obj({
      embedded: obj(
        { kind: str, apiVersion: str, metadata: obj({ name: str, generateName: str, namespace: str }), spec: obj({ if: str }) },
        { "x-kubernetes-embedded-resource": true },
      ),
    }),
    obj: { embedded: { ...META, metadata: { ...META.metadata, namespace: "reserved_keyword_namespace" }, spec: { if: "reserved_keyword_if" } } },
    valid: [
      "has(self.embedded.metadata.namespace)",
      "self.embedded.metadata.namespace == 'reserved_keyword_namespace'",
      "has(self.embedded.spec.if)",
      "self.embedded.spec.if == 'reserved_keyword_if'",
      "self.embedded.spec.__if__ == 'reserved_keyword_if'",
    ],
  },
  {
    name: "embedded object with preserve unknown",
    schema: obj({ embedded: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } }),
    obj: { embedded: { ...META, spec: { field1: "a" } } },
    valid: ["self.embedded.kind == 'Pod'", "self.embedded.metadata.name == 'foo'", "has(self.embedded)"],
    errors: { "has(self.embedded.spec)": "undefined field 'spec'" },
  },
  {
    name: "string in intOrString",
    schema: obj({ something: { "x-kubernetes-int-or-string": true } }),
    obj: { something: "25%" },
    valid: ["type(self.something) == string", "self.something == '25%'", "self.something != 25", "type(self.something) == string && self.something.endsWith('%')"],
  },
  {
    name: "int in intOrString",
    schema: obj({ something: { "x-kubernetes-int-or-string": true } }),
    obj: { something: 1 },
    valid: ["type(self.something) == int", "self.something == 1", "self.something != 'some string'"],
  },
  {
    name: "null in intOrString",
    schema: obj({ something: { "x-kubernetes-int-or-string": true, nullable: true } }),
    obj: { something: null },
    valid: ["!has(self.something)"],
    errors: { "type(self.something) == int": "no such key" },
  },
  {
    name: "null valued fields are absent",
    schema: obj({
      setPlainStr: str,
      setDefaultedStr: { type: "string", default: "default value" },
      setNullableStr: { type: "string", nullable: true },
      setToNullNullableStr: { type: "string", nullable: true },
      unsetPlainStr: str,
      unsetDefaultedStr: { type: "string", default: "default value" },
      unsetNullableStr: { type: "string", nullable: true },
    }),
    obj: { setPlainStr: "v1", setDefaultedStr: "v2", setNullableStr: "v3", setToNullNullableStr: null },
    valid: [
      "!has(self.unsetPlainStr)",
      "!has(self.unsetDefaultedStr)",
      "!has(self.unsetNullableStr)",
      "has(self.setPlainStr) && self.setPlainStr == 'v1'",
      "has(self.setNullableStr) && self.setNullableStr == 'v3'",
      "type(self.setNullableStr) != null_type",
      "!has(self.setToNullNullableStr)",
    ],
    errors: {
      "self.unsetPlainStr == null": "no matching overload for '_==_' applied to '(string, null)",
      "self.unsetDefaultedStr != null": "no matching overload for '_!=_' applied to '(string, null)",
      "self.setNullableStr != null": "no matching overload for '_!=_' applied to '(string, null)",
    },
  },
  {
    name: "maps and list maps",
    schema: obj({
      val: { type: "object", additionalProperties: { type: "integer" } },
      listMap: {
        type: "array",
        "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["k"],
        items: obj({ k: str, v: str, v2: str }, { required: ["k"] }),
      },
      array: { type: "array", items: { type: "integer" } },
    }),
    obj: { val: { a: 1, b: 2 }, listMap: [{ k: "a", v: "x" }, { k: "b", v: "y", v2: "z" }], array: [1, 2] },
    valid: ["self.val['a'] == 1", "'b' in self.val", "self.listMap.exists(m, m.k == 'b' && m.v2 == 'z')", "self.array[1] == 2", "size(self.listMap) == 2"],
    errors: {
      "self.val['c'] == 1": "no such key: c",
      "self.listMap.all(m, m.v2 == 'z')": "no such key: v2",
      "self.listMap.filter(m, m.v2 == 'z').size() == 1": "no such key: v2",
      "self.array[100] == 0": "index out of bounds: 100",
    },
  },
  {
    name: "preserve unknown fields: unknown data is not accessible",
    schema: obj(
      { withUnknown: { type: "object", "x-kubernetes-preserve-unknown-fields": true }, field1: str },
      { "x-kubernetes-preserve-unknown-fields": true },
    ),
    obj: { field1: "a", withUnknown: { field1: "x" }, anyvalField2: "a" },
    valid: ["self.field1 == 'a'", "has(self.withUnknown)"],
    errors: { "has(self.withUnknown.field1)": "undefined field 'field1'", "has(self.anyvalField2)": "undefined field 'anyvalField2'" },
  },
];

function run(c: Case, rule: string): string[] {
  const schema = { ...c.schema, "x-kubernetes-validations": [{ rule }] };
  return validateRules(structural(schema), c.obj, undefined, { isResourceRoot: c.isRoot === true }).errors.map(errorString);
}

describe("TestValidationExpressions (Kubernetes, selected cases)", () => {
  for (const c of CASES) {
    describe(c.name, () => {
      for (const rule of c.valid) it(`valid: ${rule}`, () => assert.deepEqual(run(c, rule), []));
      for (const [rule, want] of Object.entries(c.errors ?? {})) {
        it(`error: ${rule}`, () => {
          const errs = run(c, rule);
          assert.equal(errs.length, 1, errs.join("\n"));
          assert.ok(errs[0]!.includes(want), `${errs[0]} should contain ${want}`);
        });
      }
    });
  }
});
