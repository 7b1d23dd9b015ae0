import * as assert from "node:assert/strict";
import { test } from "node:test";
import { errorString } from "../errors/field-error.js";
import { FieldPath } from "../errors/field-path.js";
import { parseGoJson } from "../io/json-decode.js";
import { st } from "../prune/structural-builder.js";
import type { Structural } from "../structural/structural.js";
import { deepEqual } from "../value/json-value.js";
import { coerce } from "./coerce.js";

const object = st({ type: "object" });
const obj = (properties: Record<string, Structural>, embedded = false) =>
  st({ type: "object", properties, embeddedResource: embedded });
const embeddedSchema = obj({
  pruned: obj({ spec: object }, true),
  preserving: st({ type: "object", embeddedResource: true, preserveUnknownFields: true }),
  nested: obj({ spec: obj({ embedded: obj({ spec: object }, true) }) }, true),
});
const meta = (full: boolean) => (full ? `"metadata": {"name": "instance", "unspecified": "bar"}` : `"metadata": {"name": "instance"}`);
const res = (m: string, extra = "") =>
  `{"apiVersion": "foo/v1", "kind": "Foo", "unspecified": "bar", ${m}, "spec": {"unspecified": "bar"${extra}}}`;
const embeddedJson = (rootMeta: boolean, innerMeta: boolean) => `{"apiVersion": "foo/v1", "kind": "Foo", ${meta(rootMeta)},
  "unspecified": "bar", "pruned": ${res(meta(innerMeta))}, "preserving": ${res(meta(innerMeta))},
  "nested": ${res(meta(innerMeta), `, "embedded": ${res(meta(innerMeta))}`)}}`;

interface Case {
  name: string;
  json: string;
  includeRoot?: boolean;
  drop?: boolean;
  schema?: Structural;
  expected: string;
  unknown?: string[];
}

// schema/objectmeta/algorithm_test.go TestCoerce (8 cases)
const cases: Case[] = [
  { name: "empty", json: "null", expected: "null" },
  { name: "scalar", json: "4", schema: st(), expected: "4" },
  { name: "scalar array", json: "[1,2]", schema: st({ items: st() }), expected: "[1,2]" },
  {
    name: "x-kubernetes-embedded-resource",
    json: embeddedJson(true, true),
    schema: embeddedSchema,
    expected: embeddedJson(true, false),
    unknown: [
      "nested.metadata.unspecified",
      "nested.spec.embedded.metadata.unspecified",
      "preserving.metadata.unspecified",
      "pruned.metadata.unspecified",
    ],
  },
  {
    name: "x-kubernetes-embedded-resource, with includeRoot=true",
    json: embeddedJson(true, true),
    includeRoot: true,
    schema: embeddedSchema,
    expected: embeddedJson(false, false),
    unknown: [
      "metadata.unspecified",
      "nested.metadata.unspecified",
      "nested.spec.embedded.metadata.unspecified",
      "preserving.metadata.unspecified",
      "pruned.metadata.unspecified",
    ],
  },
  {
    name: "without name",
    json: `{"apiVersion":"foo/v1","kind":"Foo","metadata":{"name":"instance"},"pruned":{"apiVersion":"foo/v1","kind":"Foo","metadata":{"namespace":"kube-system"}}}`,
    schema: obj({ pruned: st({ type: "object", embeddedResource: true }) }),
    expected: `{"apiVersion":"foo/v1","kind":"Foo","metadata":{"name":"instance"},"pruned":{"apiVersion":"foo/v1","kind":"Foo","metadata":{"namespace":"kube-system"}}}`,
  },
  {
    name: "x-kubernetes-embedded-resource, with dropInvalidFields=true",
    json: `{"apiVersion":"foo/v1","kind":"Foo","metadata":{"name":"instance"},"pruned":{"apiVersion":42,"kind":42,"metadata":{"name":"instance","namespace":["abc"],"labels":{"foo":42}}}}`,
    drop: true,
    schema: obj({ pruned: obj({ spec: object }, true) }),
    expected: `{"apiVersion":"foo/v1","kind":"Foo","metadata":{"name":"instance"},"pruned":{"metadata":{"name":"instance"}}}`,
  },
  {
    name: "invalid metadata type, with dropInvalidFields=true",
    json: `{"apiVersion":"foo/v1","kind":"Foo","metadata":{"name":"instance"},"pruned":{"apiVersion":42,"kind":42,"metadata":[42]}}`,
    drop: true,
    schema: obj({ pruned: st({ type: "object", embeddedResource: true }) }),
    expected: `{"apiVersion":"foo/v1","kind":"Foo","metadata":{"name":"instance"},"pruned":{"metadata":[42]}}`,
  },
];

for (const c of cases) {
  test(`TestCoerce: ${c.name}`, () => {
    const input = parseGoJson(c.json);
    const r = coerce(null, input, c.schema, c.includeRoot ?? false, {
      dropInvalidFields: c.drop ?? false,
      returnUnknownFieldPaths: true,
    });
    assert.equal(r.error, null);
    assert.ok(deepEqual(input, parseGoJson(c.expected)), JSON.stringify(input));
    assert.deepEqual(r.unknownPaths, c.unknown ?? []);
  });
}

const errCases: [string, string, string][] = [
  ["apiVersion not a string", `{"e":{"apiVersion":42}}`, "e.apiVersion: Invalid value: 42: must be a string"],
  ["kind not a string", `{"e":{"kind":{"a":1}}}`, `e.kind: Invalid value: {"a":1}: must be a string`],
  [
    "metadata type error",
    `{"e":{"metadata":{"labels":{"a":1}}}}`,
    `e.metadata: Invalid value: {"labels":{"a":1}}: json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string`,
  ],
  [
    "inside a list and a map",
    `{"list":[{"m":{"k":{"metadata":"x"}}}]}`,
    `list[0].m[k].metadata: Invalid value: "x": json: cannot unmarshal string into Go value of type v1.ObjectMeta`,
  ],
];
const errSchema = obj({
  e: st({ type: "object", embeddedResource: true }),
  list: st({ type: "array", items: obj({ m: st({ type: "object", additionalProperties: st({ type: "object", embeddedResource: true }) }) }) }),
});
for (const [name, json, want] of errCases) {
  test(`coerce error: ${name}`, () => {
    const r = coerce(null, parseGoJson(json), errSchema, false);
    assert.equal(r.error ? errorString(r.error) : null, want);
  });
}

test("coerce with a path prefix (default validation)", () => {
  const r = coerce(FieldPath.of("spec").child("default"), parseGoJson(`{"kind":1}`), st({ embeddedResource: true }), true);
  assert.equal(errorString(r.error!), "spec.default.kind: Invalid value: 1: must be a string");
});

test("coerce removes a zero creationTimestamp of embedded metadata and normalises times", () => {
  const o = parseGoJson(`{"e":{"metadata":{"name":"a","creationTimestamp":null,"deletionTimestamp":"2020-01-01T01:00:00+01:00"}}}`);
  coerce(null, o, errSchema, false);
  assert.ok(deepEqual(o, parseGoJson(`{"e":{"metadata":{"name":"a","deletionTimestamp":"2020-01-01T00:00:00Z"}}}`)));
});
