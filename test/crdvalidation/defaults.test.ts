/**
 * Default values at CRD time (ValidateDefaults, §3.2.3) with the engine's steps wired
 * (src/pipeline/crd-hooks.ts): unknown fields, value validation of the default, embedded metadata.
 * Translated from validation_test.go "invalid defaults with enabled feature gate, structural schema" and
 * "embedded metadata defaults".
 */
import { strict as assert } from "node:assert";
import { test } from "node:test";
import { validateCrdCreate } from "../../src/crdvalidation/validate-crd.js";
import { errorString } from "../../src/errors/field-error.js";
import { defaultsHooks } from "../../src/pipeline/crd-hooks.js";
import type { JsonObject } from "../../src/value/json-value.js";

function crd(schema: JsonObject): JsonObject {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "plural.group.com" },
    spec: {
      group: "group.com", scope: "Namespaced", names: { plural: "plural", singular: "singular", kind: "Plural", listKind: "PluralList" },
      versions: [{ name: "version", served: true, storage: true, schema: { openAPIV3Schema: schema } }],
    },
  };
}
const S = "spec.validation.openAPIV3Schema";
const str = { type: "string" };

test("invalid defaults, structural schema", () => {
  const r = validateCrdCreate(
    crd({
      type: "object",
      properties: {
        a: { type: "object", properties: { foo: str }, default: { foo: "abc", bar: 42 } },
        b: { type: "object", properties: { foo: str }, default: { foo: "abc" } },
        c: { type: "object", properties: { foo: str }, default: { foo: 42 } },
        d: { type: "object", properties: { good: { type: "string", pattern: "a" }, bad: { type: "string", pattern: "b" } }, default: { good: "a", bad: "a" } },
        e: {
          type: "object",
          "x-kubernetes-preserve-unknown-fields": true,
          properties: {
            preserveUnknownFields: { type: "object", default: { foo: "abc", bar: 42 } },
            nestedProperties: { type: "object", properties: { foo: str }, default: { foo: "abc", bar: 42 } },
          },
        },
        "embedded-fine": {
          type: "object", "x-kubernetes-embedded-resource": true, properties: { foo: str },
          default: { foo: "abc", apiVersion: "foo/v1", kind: "v1", metadata: { name: "foo" } },
        },
        "embedded-preserve": {
          type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true, properties: { foo: str },
          default: { foo: "abc", apiVersion: "foo/v1", kind: "v1", metadata: { name: "foo" }, bar: 42 },
        },
        "embedded-preserve-unpruned-objectmeta": {
          type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true, properties: { foo: str },
          default: { foo: "abc", apiVersion: "foo/v1", kind: "v1", metadata: { name: "foo", unspecified: "bar" }, bar: 42 },
        },
      },
    }),
    { defaultsHooks },
  );
  assert.deepEqual(r.errors.map(errorString), [
    `${S}.properties[a].default: Invalid value: {"bar":42,"foo":"abc"}: must not have unknown fields`,
    `${S}.properties[c].default.foo: Invalid value: "integer": foo in body must be of type string: "integer"`,
    `${S}.properties[d].default.bad: Invalid value: "a": bad in body should match 'b'`,
    `${S}.properties[e].properties[nestedProperties].default: Invalid value: {"bar":42,"foo":"abc"}: must not have unknown fields`,
    `${S}.properties[e].properties[preserveUnknownFields].default: Invalid value: {"bar":42,"foo":"abc"}: must not have unknown fields`,
  ]);
});

test("embedded metadata defaults must give valid metadata", () => {
  const r = validateCrdCreate(
    crd({
      type: "object",
      properties: {
        embedded: {
          type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true,
          properties: {
            apiVersion: { type: "string", default: "v1" },
            kind: { type: "string", default: "Pod" },
            metadata: { type: "object", "x-kubernetes-preserve-unknown-fields": true, properties: { name: { type: "string", default: "a/b" } } },
          },
        },
      },
    }),
    { defaultsHooks },
  );
  assert.deepEqual(r.errors.map(errorString), [
    `${S}.properties[embedded].properties[metadata].properties[name].default: Invalid value: "a/b": must result in valid metadata: metadata.name: Invalid value: "a/b": may not contain '/'`,
  ]);
});

test("object defaults of embedded resources: TypeMeta required, metadata coerced", () => {
  const embedded = (dflt: JsonObject): JsonObject => ({
    type: "object", "x-kubernetes-embedded-resource": true, properties: { something: str }, default: dflt,
  });
  const r = validateCrdCreate(
    crd({
      type: "object",
      properties: {
        "missing-typemeta": embedded({ metadata: { name: "foo" } }),
        "wrongly-typed-metadata": embedded({ apiVersion: "v1", kind: "Pod", metadata: "x" }),
        "fine-with-unknown-metadata": embedded({ apiVersion: "v1", kind: "Pod", metadata: { name: "foo", unknown: 42 } }),
        "unknown-field": embedded({ apiVersion: "v1", kind: "Pod", unknown: 42 }),
      },
    }),
    { defaultsHooks },
  );
  const texts = r.errors.map(errorString);
  assert.deepEqual(texts.map((t) => t.slice(0, t.indexOf(":"))), [
    `${S}.properties[missing-typemeta].default.apiVersion`,
    `${S}.properties[missing-typemeta].default.kind`,
    `${S}.properties[unknown-field].default`,
    `${S}.properties[wrongly-typed-metadata].default.metadata`,
  ]);
  assert.equal(texts[0], `${S}.properties[missing-typemeta].default.apiVersion: Required value`);
  assert.equal(texts[2], `${S}.properties[unknown-field].default: Invalid value: {"apiVersion":"v1","kind":"Pod","unknown":42}: must not have unknown fields`);
});
