import assert from "node:assert/strict";
import { test } from "node:test";
import { goStruct, goStructAppend } from "../../go/json-struct.js";
import { CRD_SHAPE } from "../registry/crd-go-order.js";
import { decodeWithDuplicates } from "./duplicate-fields.js";

test("duplicate fields decode into the earlier occurrence as Go decodes a struct", () => {
  const node = goStruct([]);
  goStructAppend(node, [
    "s", ["n", "any", "nullable"], ["sub", node], ["ptr", node, "nullable"], ["own", node, "nullable", "replaces"],
    ["m", { map: node }, "nullable"], ["list", node, "nullable"], "raw",
  ]);
  const cases: [string, unknown][] = [
    // a string keeps its value on null, a pointer is set to nil
    ['{"s":"a","n":1,"s":null,"n":null}', { s: "a", n: null }],
    ['{"s":"a","s":"b"}', { s: "b" }],
    // structs and pointers to structs are decoded into, a type with its own UnmarshalJSON is replaced
    ['{"sub":{"s":"a","n":1},"sub":{"n":2},"ptr":{"s":"a"},"ptr":{"n":3},"own":{"s":"a"},"own":{"n":4}}', { sub: { s: "a", n: 2 }, ptr: { s: "a", n: 3 }, own: { n: 4 } }],
    ['{"sub":{"s":"a"},"sub":null,"ptr":{"s":"a"},"ptr":null}', { sub: { s: "a" }, ptr: null }],
    // a map keeps its other keys, each element is new; a slice decodes into its elements; untyped values are replaced
    ['{"m":{"a":{"s":"x"},"b":{"s":"y"}},"m":{"a":{"n":1}}}', { m: { a: { n: 1 }, b: { s: "y" } } }],
    ['{"list":[{"s":"a","n":1},{"s":"b"}],"list":[{"n":2}]}', { list: [{ s: "a", n: 2 }] }],
    ['{"raw":{"a":1,"b":2},"raw":{"a":3}}', { raw: { a: 3 } }],
    // duplicates inside a repeated struct, and unknown fields (last wins)
    ['{"sub":{"s":"a","s":"b"},"x":1,"x":2,"sub":{"sub":{"s":"c"}}}', { sub: { s: "b", sub: { s: "c" } }, x: 2 }],
  ];
  for (const [text, want] of cases) assert.deepEqual(decodeWithDuplicates(text, node), want, text);
});

test("a CRD body repeating spec fields (as recorded in test/golden/server/45-fuzz-findings-6.json)", () => {
  const text = '{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"a.b.c"},"spec":{"group":"b.c","scope":"Namespaced","names":{"plural":"a","kind":"A"},"versions":[{"name":"v1","served":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"x":{"type":"string"}}}}}],"scope":null,"versions":[{"served":false}]},"metadata":{}}';
  assert.deepEqual(decodeWithDuplicates(text, CRD_SHAPE), {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "a.b.c" },
    spec: {
      group: "b.c",
      scope: "Namespaced",
      names: { plural: "a", kind: "A" },
      versions: [{ name: "v1", served: false, schema: { openAPIV3Schema: { type: "object", properties: { x: { type: "string" } } } } }],
    },
  });
});
