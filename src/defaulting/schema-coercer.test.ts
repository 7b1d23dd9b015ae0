import * as assert from "node:assert/strict";
import { test } from "node:test";
import { parseGoJson } from "../io/json-decode.js";
import { st } from "../prune/structural-builder.js";
import { type JsonObject, deepEqual } from "../value/json-value.js";
import { applyDefaults } from "./default.js";
import { applySchemaCoercion } from "./schema-coercer.js";

const schema = st({
  type: "object",
  properties: {
    spec: st({
      type: "object",
      properties: {
        cronSpec: st({ type: "string" }),
        replicas: st({ type: "integer", default: 1 }),
        foo: st({ type: "string" }),
        template: st({ type: "object", embeddedResource: true, preserveUnknownFields: true }),
      },
    }),
  },
});
const opts = { group: "stable.example.com", kind: "CronTab", schemaFor: (v: string) => (v === "v1" ? schema : undefined), returnUnknownFieldPaths: true };
const o = (json: string) => parseGoJson(json) as JsonObject;

test("decoder order: metadata parsed first, prune, drop nulls, coerce embedded, restore; defaults later", () => {
  const obj = o(`{"apiVersion":"stable.example.com/v1","kind":"CronTab",
    "metadata":{"name":"x","zzz":1,"creationTimestamp":null},
    "spec":{"cronSpec":"* * * * */5","someRandomField":42,"foo":null,"template":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","bad":1},"x":1}}}`);
  const r = applySchemaCoercion(obj, opts);
  assert.deepEqual(r, { unknownFieldPaths: ["metadata.zzz", "spec.someRandomField", "spec.template.metadata.bad"] });
  applyDefaults(obj, schema);
  assert.ok(
    deepEqual(
      obj,
      o(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"x"},
        "spec":{"cronSpec":"* * * * */5","replicas":1,"template":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"x":1}}}`),
    ),
    JSON.stringify(obj),
  );
});

test("decode errors: metadata types, kind type, group/version, embedded metadata", () => {
  assert.deepEqual(applySchemaCoercion(o(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"labels":{"foo":42}}}`), opts), {
    unknownFieldPaths: [],
    error: "json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string",
  });
  assert.equal(applySchemaCoercion(o(`{"apiVersion":"stable.example.com/v1","kind":42}`), opts).error, ".kind accessor error: 42 is of the type int64, expected string");
  assert.equal(applySchemaCoercion(o(`{"apiVersion":"a/b/c","kind":"CronTab"}`), opts).error, "unexpected GroupVersion string: a/b/c");
  assert.equal(
    applySchemaCoercion(o(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","spec":{"template":{"kind":1}}}`), opts).error,
    "spec.template.kind: Invalid value: 1: must be a string",
  );
});

test("other kinds pass untouched except metadata normalisation; storage repair of generation", () => {
  const other = o(`{"apiVersion":"x/v1","kind":"DeleteOptions","foo":1,"metadata":{"name":"a","q":1}}`);
  assert.deepEqual(applySchemaCoercion(other, opts), { unknownFieldPaths: ["metadata.q"] });
  assert.ok(deepEqual(other, o(`{"apiVersion":"x/v1","kind":"DeleteOptions","foo":1,"metadata":{"name":"a"}}`)));
  const stored = o(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"a","labels":{"x":1}}}`);
  assert.deepEqual(applySchemaCoercion(stored, { ...opts, dropInvalidMetadata: true, repairGeneration: true, returnUnknownFieldPaths: false }), {
    unknownFieldPaths: [],
  });
  assert.ok(deepEqual(stored, o(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"a","generation":1}}`)));
});
