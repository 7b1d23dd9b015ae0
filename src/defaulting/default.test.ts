import * as assert from "node:assert/strict";
import { test } from "node:test";
import { parseGoJson } from "../io/json-decode.js";
import { prune } from "../prune/prune.js";
import { st } from "../prune/structural-builder.js";
import type { Structural } from "../structural/structural.js";
import { type JsonObject, deepEqual } from "../value/json-value.js";
import { applyDefaults } from "./default.js";
import { pruneNonNullableNullsWithoutDefaults } from "./prune-nulls.js";

type Case = [name: string, json: string, schema: Structural | undefined, expected: string];

// pkg/apiserver/schema/defaulting/algorithm_test.go TestDefault
const defaultCases: Case[] = [
  ["empty", "null", undefined, "null"],
  ["scalar", "4", st({ default: "foo" }), "4"],
  ["scalar array", "[1,2]", st({ items: st({ default: "foo" }) }), "[1,2]"],
  [
    "object array",
    `[{"a":1},{"b":1},{"c":1}]`,
    st({ items: st({ properties: { a: st({ default: "A" }), b: st({ default: "B" }), c: st({ default: "C" }) } }) }),
    `[{"a":1,"b":"B","c":"C"},{"a":"A","b":1,"c":"C"},{"a":"A","b":"B","c":1}]`,
  ],
  [
    "object array object",
    `{"array":[{"a":1},{"b":2}],"object":{"a":1},"additionalProperties":{"x":{"a":1},"y":{"b":2}}}`,
    st({
      properties: {
        array: st({ items: st({ properties: { a: st({ default: "A" }), b: st({ default: "B" }) } }) }),
        object: st({ properties: { a: st({ default: "N" }), b: st({ default: "O" }) } }),
        additionalProperties: st({
          additionalProperties: st({ properties: { a: st({ default: "alpha" }), b: st({ default: "beta" }) } }),
        }),
        foo: st({ default: "bar" }),
      },
    }),
    `{"array":[{"a":1,"b":"B"},{"a":"A","b":2}],"object":{"a":1,"b":"O"},"additionalProperties":{"x":{"a":1,"b":"beta"},"y":{"a":"alpha","b":2}},"foo":"bar"}`,
  ],
  [
    "empty and null",
    `[{},{"a":1},{"a":0},{"a":0.0},{"a":""},{"a":null},{"a":[]},{"a":{}}]`,
    st({ items: st({ properties: { a: st({ default: "A" }) } }) }),
    `[{"a":"A"},{"a":1},{"a":0},{"a":0.0},{"a":""},{"a":"A"},{"a":[]},{"a":{}}]`,
  ],
  [
    "null in nullable list",
    `[null]`,
    st({ nullable: true, items: st({ properties: { a: st({ default: "A" }) } }) }),
    `[null]`,
  ],
  ["null in non-nullable list", `[null]`, st({ items: st({ default: "A" }) }), `["A"]`],
  ["null in nullable object", `{"a": null}`, st({ properties: { a: st({ nullable: true, default: "A" }) } }), `{"a": null}`],
  ["null in non-nullable object", `{"a": null}`, st({ properties: { a: st({ default: "A" }) } }), `{"a": "A"}`],
  [
    "null in nullable object with additionalProperties",
    `{"a": null}`,
    st({ additionalProperties: st({ nullable: true, default: "A" }) }),
    `{"a": null}`,
  ],
  [
    "null in non-nullable object with additionalProperties",
    `{"a": null}`,
    st({ additionalProperties: st({ default: "A" }) }),
    `{"a": "A"}`,
  ],
  ["null unknown field", `{"a": null}`, st({ additionalProperties: true }), `{"a": null}`],
];

for (const [name, json, schema, expected] of defaultCases) {
  test(`TestDefault: ${name}`, () => {
    const input = parseGoJson(json);
    applyDefaults(input, schema);
    assert.ok(deepEqual(input, parseGoJson(expected)), `got ${JSON.stringify(input)}`);
  });
}

// pkg/apiserver/schema/defaulting/prunenulls_test.go
const nullCases: Case[] = [
  ["empty", "null", undefined, "null"],
  ["scalar", "4", st({ default: "foo" }), "4"],
  ["scalar array", "[1,null]", undefined, "[1,null]"],
  [
    "object array",
    `[{"a":null},{"b":null},{"c":null},{"d":null},{"e":null}]`,
    st({
      items: st({
        properties: {
          a: st({ default: "A" }),
          b: st({ nullable: true }),
          c: st({ default: "C", nullable: true }),
          d: st(),
        },
      }),
    }),
    `[{"a":null},{"b":null},{"c":null},{},{"e":null}]`,
  ],
];

for (const [name, json, schema, expected] of nullCases) {
  test(`TestPruneNonNullableNullsWithoutDefaults: ${name}`, () => {
    const input = parseGoJson(json);
    pruneNonNullableNullsWithoutDefaults(input, schema);
    assert.ok(deepEqual(input, parseGoJson(expected)), `got ${JSON.stringify(input)}`);
  });
}

test("defaults are deep copies (mutating the result does not change the schema)", () => {
  const schema = st({ properties: { a: st({ default: { x: [1] } }) } });
  const o1 = {} as JsonObject;
  const o2 = {} as JsonObject;
  applyDefaults(o1, schema);
  applyDefaults(o2, schema);
  ((o1.a as JsonObject).x as number[]).push(2);
  assert.ok(deepEqual(o2, { a: { x: [1] } }));
  assert.ok(deepEqual(schema.properties!.get("a")!.default!, { x: [1] }));
});

test("defaults apply top-down: a defaulted object receives its children's defaults", () => {
  const schema = st({
    type: "object",
    properties: { spec: st({ type: "object", default: {}, properties: { replicas: st({ type: "integer", default: 1 }) } }) },
  });
  const o = parseGoJson(`{}`);
  applyDefaults(o, schema);
  assert.ok(deepEqual(o, parseGoJson(`{"spec":{"replicas":1}}`)));
});

// seed 003 (CRD docs, "Defaulting and Nullable"): foo pruned+defaulted, bar kept null, baz pruned.
test("seed: nullable example — prune nulls, then default", () => {
  const schema = st({
    type: "object",
    properties: {
      spec: st({
        type: "object",
        properties: {
          foo: st({ type: "string", nullable: false, default: "default" }),
          bar: st({ type: "string", nullable: true }),
          baz: st({ type: "string" }),
        },
      }),
    },
  });
  const o = parseGoJson(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"x"},"spec":{"foo":null,"bar":null,"baz":null}}`);
  assert.deepEqual(prune(o, schema, true), []);
  pruneNonNullableNullsWithoutDefaults(o, schema);
  applyDefaults(o, schema);
  assert.ok(deepEqual((o as JsonObject).spec, parseGoJson(`{"foo":"default","bar":null}`)));
});

// seed 003 (CRD docs, "Defaulting"): cronSpec/image missing get defaults, replicas default 1.
test("seed: CronTab defaults", () => {
  const schema = st({
    type: "object",
    properties: {
      spec: st({
        type: "object",
        properties: {
          cronSpec: st({ type: "string", default: "5 0 * * *" }),
          image: st({ type: "string" }),
          replicas: st({ type: "integer", default: 1 }),
        },
      }),
    },
  });
  const o = parseGoJson(`{"spec":{"image":"my-awesome-cron-image"}}`);
  applyDefaults(o, schema);
  assert.ok(deepEqual(o, parseGoJson(`{"spec":{"image":"my-awesome-cron-image","cronSpec":"5 0 * * *","replicas":1}}`)));
});
