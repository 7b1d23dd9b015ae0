import * as assert from "node:assert/strict";
import { test } from "node:test";
import type { Structural } from "../structural/structural.js";
import { deepEqual } from "../value/json-value.js";
import { parseGoJson } from "../io/json-decode.js";
import { prune } from "./prune.js";
import { st } from "./structural-builder.js";

interface Case {
  name: string;
  json: string;
  isResourceRoot?: boolean;
  schema?: Structural;
  expectedObject: string;
  expectedPruned?: string[];
}

const obj = (properties: Record<string, Structural>, more: Parameters<typeof st>[0] = {}) =>
  st({ type: "object", properties, ...more });

const embeddedJson = (withNs: boolean) => {
  const meta = withNs
    ? `"metadata": {"name": "instance", "namespace": "myns", "labels": {"foo": "bar"}, "unspecified": "bar"}`
    : `"metadata": {"name": "instance", "unspecified": "bar"}`;
  const res = (extra: string) =>
    `{"apiVersion": "foo/v1", "kind": "Foo", "unspecified": "bar", ${meta}, "spec": {"unspecified": "bar"${extra}}}`;
  return `{"apiVersion": "foo/v1", "kind": "Foo", ${meta}, "unspecified": "bar",
    "pruned": ${res("")}, "preserving": ${res("")},
    "nested": ${res(`, "embedded": ${res("")}`)}}`;
};
const embeddedExpected = (withNs: boolean) => {
  const meta = withNs
    ? `"metadata": {"name": "instance", "namespace": "myns", "labels": {"foo": "bar"}, "unspecified": "bar"}`
    : `"metadata": {"name": "instance", "unspecified": "bar"}`;
  const root = withNs ? `"apiVersion": "foo/v1", "kind": "Foo", ${meta},` : "";
  return `{${root}
    "pruned": {"apiVersion": "foo/v1", "kind": "Foo", ${meta}, "spec": {}},
    "preserving": {"apiVersion": "foo/v1", "kind": "Foo", "unspecified": "bar", ${meta}, "spec": {"unspecified": "bar"}},
    "nested": {"apiVersion": "foo/v1", "kind": "Foo", ${meta}, "spec": {"embedded": {"apiVersion": "foo/v1", "kind": "Foo", ${meta}, "spec": {}}}}}`;
};
const embeddedPruned = [
  "nested.spec.embedded.spec.unspecified",
  "nested.spec.embedded.unspecified",
  "nested.spec.unspecified",
  "nested.unspecified",
  "pruned.spec.unspecified",
  "pruned.unspecified",
  "unspecified",
];
const object = st({ type: "object" });

// pkg/apiserver/schema/pruning/algorithm_test.go TestPrune
const cases: Case[] = [
  { name: "empty", json: "null", expectedObject: "null" },
  { name: "scalar", json: "4", schema: st(), expectedObject: "4" },
  { name: "scalar array", json: "[1,2]", schema: st({ items: st() }), expectedObject: "[1,2]" },
  {
    name: "object array",
    json: `[{"a":1},{"b":1},{"a":1,"b":2,"c":3}]`,
    schema: st({ items: st({ properties: { a: st(), c: st() } }) }),
    expectedObject: `[{"a":1},{},{"a":1,"c":3}]`,
    expectedPruned: ["[1].b", "[2].b"],
  },
  {
    name: "object array with nil schema",
    json: `[{"a":1},{"b":1},{"a":1,"b":2,"c":3}]`,
    expectedObject: `[{},{},{}]`,
    expectedPruned: ["[0].a", "[1].b", "[2].a", "[2].b", "[2].c"],
  },
  {
    name: "object array object",
    json: `{"array":[{"a":1},{"b":1},{"a":1,"b":2,"c":3}],"unspecified":{"a":1},"specified":{"a":1,"b":2,"c":3}}`,
    schema: st({
      properties: {
        array: st({ items: st({ properties: { a: st(), c: st() } }) }),
        specified: st({ properties: { a: st(), c: st() } }),
      },
    }),
    expectedObject: `{"array":[{"a":1},{},{"a":1,"c":3}],"specified":{"a":1,"c":3}}`,
    expectedPruned: ["array[1].b", "array[2].b", "specified.b", "unspecified"],
  },
  {
    name: "nested x-kubernetes-preserve-unknown-fields",
    json: `{"unspecified":"bar","alpha":"abc","beta":42.0,"unspecifiedObject":{"unspecified":"bar"},
      "pruning":{"unspecified":"bar","unspecifiedObject":{"unspecified":"bar"},"pruning":{"unspecified":"bar"},"apiVersion":"unknown","preserving":{"unspecified":"bar"}},
      "preserving":{"unspecified":"bar","unspecifiedObject":{"unspecified":"bar"},"pruning":{"unspecified":"bar"},"preserving":{"unspecified":"bar"},"preservingUnknownType":[{"foo":true},{"bar":true}]},
      "preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields":{"foo":{"specified":{"unspecified":"bar"},"unspecified":"bar"}},
      "preservingAdditionalPropertiesKeyPruneValues":{"foo":{"specified":{"unspecified":"bar"},"unspecified":"bar"}}}`,
    schema: obj(
      {
        alpha: st({ type: "string" }),
        beta: st({ type: "number" }),
        pruning: obj({ preserving: st({ type: "object", preserveUnknownFields: true }), pruning: object }),
        preserving: obj(
          {
            preserving: st({ type: "object", preserveUnknownFields: true }),
            preservingUnknownType: st({ preserveUnknownFields: true }),
            pruning: object,
          },
          { preserveUnknownFields: true },
        ),
        preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields: st({
          type: "object",
          preserveUnknownFields: true,
          additionalProperties: obj({ specified: object }),
        }),
        preservingAdditionalPropertiesKeyPruneValues: st({
          type: "object",
          additionalProperties: obj({ specified: object }),
        }),
      },
      { preserveUnknownFields: true },
    ),
    expectedObject: `{"unspecified":"bar","alpha":"abc","beta":42.0,"unspecifiedObject":{"unspecified":"bar"},
      "pruning":{"pruning":{},"preserving":{"unspecified":"bar"}},
      "preserving":{"unspecified":"bar","unspecifiedObject":{"unspecified":"bar"},"pruning":{},"preserving":{"unspecified":"bar"},"preservingUnknownType":[{"foo":true},{"bar":true}]},
      "preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields":{"foo":{"specified":{}}},
      "preservingAdditionalPropertiesKeyPruneValues":{"foo":{"specified":{}}}}`,
    expectedPruned: [
      "preserving.pruning.unspecified",
      "preservingAdditionalPropertiesKeyPruneValues.foo.specified.unspecified",
      "preservingAdditionalPropertiesKeyPruneValues.foo.unspecified",
      "preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields.foo.specified.unspecified",
      "preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields.foo.unspecified",
      "pruning.apiVersion",
      "pruning.pruning.unspecified",
      "pruning.unspecified",
      "pruning.unspecifiedObject",
    ],
  },
  {
    name: "additionalProperties with schema",
    json: `{"a":1,"b":1,"c":{"a":1,"b":2,"c":{"a":1}}}`,
    schema: st({ properties: { a: st(), c: st({ additionalProperties: st({ type: "integer" }) }) } }),
    expectedObject: `{"a":1,"c":{"a":1,"b":2,"c":{}}}`,
    expectedPruned: ["b", "c.c.a"],
  },
  {
    name: "additionalProperties with bool",
    json: `{"a":1,"b":1,"c":{"a":1,"b":2,"c":{"a":1, "apiVersion": "unknown"}}}`,
    schema: st({ properties: { a: st(), c: st({ additionalProperties: false }) } }),
    expectedObject: `{"a":1,"c":{"a":1,"b":2,"c":{}}}`,
    expectedPruned: ["b", "c.c.a", "c.c.apiVersion"],
  },
  {
    name: "x-kubernetes-embedded-resource",
    json: embeddedJson(false),
    schema: obj({
      pruned: obj({ spec: object }, { embeddedResource: true }),
      preserving: st({ type: "object", embeddedResource: true, preserveUnknownFields: true }),
      nested: obj(
        { spec: obj({ embedded: obj({ spec: object }, { embeddedResource: true }) }) },
        { embeddedResource: true },
      ),
    }),
    expectedObject: embeddedExpected(false),
    expectedPruned: embeddedPruned,
  },
  {
    name: "x-kubernetes-embedded-resource, with root=true",
    json: embeddedJson(true),
    isResourceRoot: true,
    schema: obj({
      metadata: object,
      pruned: obj({ metadata: object, spec: object }, { embeddedResource: true }),
      preserving: st({ type: "object", embeddedResource: true, preserveUnknownFields: true }),
      nested: obj(
        { spec: obj({ embedded: obj({ metadata: object, spec: object }, { embeddedResource: true }) }) },
        { embeddedResource: true },
      ),
    }),
    expectedObject: embeddedExpected(true),
    expectedPruned: embeddedPruned,
  },
];

for (const c of cases) {
  test(`TestPrune: ${c.name}`, () => {
    const input = parseGoJson(c.json);
    const want = parseGoJson(c.expectedObject);
    const pruned = prune(input, c.schema, c.isResourceRoot ?? false);
    assert.ok(deepEqual(input, want), `got ${JSON.stringify(input)}`);
    assert.deepEqual(pruned, c.expectedPruned ?? []);
    // a second run without tracking changes nothing and reports nothing
    assert.deepEqual(prune(input, c.schema, c.isResourceRoot ?? false, { trackUnknownFieldPaths: false }), []);
    assert.ok(deepEqual(input, want));
  });
}

test("root apiVersion/kind/metadata are kept at the resource root and dropped silently elsewhere at the top", () => {
  const a = parseGoJson(`{"apiVersion":"x/v1","kind":"K","metadata":{"a":1},"spec":{"x":1},"foo":1}`);
  assert.deepEqual(prune(a, st({ type: "object", properties: { spec: st({ type: "object" }) } }), true), [
    "foo",
    "spec.x",
  ]);
  assert.ok(deepEqual(a, parseGoJson(`{"apiVersion":"x/v1","kind":"K","metadata":{"a":1},"spec":{}}`)));
  const b = parseGoJson(`{"apiVersion":"x/v1","kind":"K","foo":1}`);
  assert.deepEqual(prune(b, st({ type: "object" }), false), ["foo"]);
  assert.ok(deepEqual(b, {}));
});

test("seed: CronTab someRandomField is pruned", () => {
  const schema = obj({
    spec: obj({ cronSpec: st({ type: "string" }), image: st({ type: "string" }), replicas: st({ type: "integer" }) }),
  });
  const o = parseGoJson(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"my-new-cron-object"},
    "spec":{"cronSpec":"* * * * */5","image":"my-awesome-cron-image","someRandomField":42}}`);
  assert.deepEqual(prune(o, schema, true), ["spec.someRandomField"]);
  assert.ok(
    deepEqual(
      o,
      parseGoJson(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"my-new-cron-object"},
    "spec":{"cronSpec":"* * * * */5","image":"my-awesome-cron-image"}}`),
    ),
  );
});

test("unknown paths are sorted bytewise like Go sort.Strings", () => {
  const o = parseGoJson(`{"b":1,"a":1,"B":1,"a.b":1,"[x]":1}`);
  assert.deepEqual(prune(o, st({ type: "object" }), false), ["B", "[x]", "a", "a.b", "b"]);
});

test("deeply nested input does not overflow with a finite schema", () => {
  let v: unknown = 1;
  for (let i = 0; i < 2000; i++) v = { x: v };
  const o = v as Parameters<typeof prune>[0];
  assert.deepEqual(prune(o, st({ type: "object" }), false), ["x"]);
});

test("deeply nested arrays without items schema are pruned iteratively (no stack overflow)", () => {
  const root: unknown[] = [];
  let cur = root;
  for (let i = 0; i < 100000; i++) {
    const next: unknown[] = [];
    cur.push(next);
    cur = next;
  }
  cur.push({ a: 1 });
  const o = { x: root } as unknown as Parameters<typeof prune>[0];
  const paths = prune(o, st({ type: "object", properties: { x: st({ type: "array" }) } }), false);
  assert.equal(paths.length, 1);
  assert.ok(paths[0]!.startsWith("x[0][0][0]") && paths[0]!.endsWith("[0].a"));
  assert.equal(paths[0]!.length, "x".length + 3 * 100001 + ".a".length);
  // the same shape as nested arrays of objects, siblings and indices
  const small = parseGoJson(`{"x":[[{"a":1},[{"b":2}]],{"c":3},[[]]]}`);
  assert.deepEqual(prune(small, st({ type: "object", properties: { x: st({ type: "array" }) } }), false), [
    "x[0][0].a",
    "x[0][1][0].b",
    "x[1].c",
  ]);
  assert.ok(deepEqual(small, parseGoJson(`{"x":[[{},[{}]],{},[[]]]}`)));
});
