import assert from "node:assert/strict";
import { test } from "node:test";
import { Float64 } from "../value/json-value.js";
import { goJsonMarshalStruct, goOmitEmptyCollections, goStruct, goStructAppend, type GoShape } from "./json-struct.js";

const INNER = goStruct(["z", "a"]);
const OUTER = goStruct(["kind", "apiVersion", ["items", INNER], ["labels", { map: "any" }], ["byName", { map: INNER }], "raw"]);

test("struct fields in declaration order, Go maps and untyped values sorted, absent fields left out", () => {
  const v = {
    raw: { y: 1, b: [{ d: 1, c: 2 }] },
    byName: { b: { a: 1, z: 2 }, a: { a: 3 } },
    labels: { "2": "x", b: "y", a: "z", "10": "w" },
    items: [{ a: 1, z: new Float64(2) }, { a: "<&>" }],
    apiVersion: "v1",
    kind: "K",
  };
  assert.equal(
    goJsonMarshalStruct(v as never, OUTER),
    '{"kind":"K","apiVersion":"v1","items":[{"z":2,"a":1},{"a":"\\u003c\\u0026\\u003e"}],"labels":{"10":"w","2":"x","a":"z","b":"y"},' +
      '"byName":{"a":{"a":3},"b":{"z":2,"a":1}},"raw":{"b":[{"c":2,"d":1}],"y":1}}',
  );
});

test("members a struct does not declare follow its fields, sorted; undefined members are left out", () => {
  assert.equal(goJsonMarshalStruct({ q: 1, a: 2, z: 3, p: undefined } as never, INNER), '{"z":3,"a":2,"q":1}');
  assert.equal(goJsonMarshalStruct({}, INNER), "{}");
});

test("non-object values under a struct shape, and pick", () => {
  assert.equal(goJsonMarshalStruct(null, INNER), "null");
  assert.equal(goJsonMarshalStruct([true, "s", 1.5], INNER), '[true,"s",1.5]');
  const pick: GoShape = { pick: (o) => (o["kind"] === "Typed" ? goStruct(["kind", "b", "a"]) : "any") };
  assert.equal(goJsonMarshalStruct([{ a: 1, b: 2, kind: "Typed" }, { kind: "Other", b: 2, a: 1 }], pick), '[{"kind":"Typed","b":2,"a":1},{"a":1,"b":2,"kind":"Other"}]');
});

test("deep nesting of a recursive struct", () => {
  const node = goStruct([]);
  goStructAppend(node, ["z", ["child", node]]);
  let v: Record<string, unknown> = { z: 0 };
  for (let i = 0; i < 3000; i++) v = { child: v, z: i };
  const text = goJsonMarshalStruct(v as never, node);
  let expected = '{"z":0}';
  // beyond 2,000 levels (i = 998 is level 2,001) the rest is written as an untyped value: sorted keys
  for (let i = 0; i < 3000; i++) expected = i <= 998 ? `{"child":${expected},"z":${i}}` : `{"z":${i},"child":${expected}}`;
  assert.equal(text, expected);
});

test("goOmitEmptyCollections drops the empty slices and maps of omitempty fields at every typed depth, nothing else", () => {
  const node = goStruct([]);
  goStructAppend(node, [["list", "any", "omitempty"], ["byName", { map: node }, "omitempty"], ["kids", node, "omitempty"], ["keep", "any"], "raw", ["s", "any", "omitempty"]]);
  const v = {
    list: [],
    keep: [],
    s: "",
    raw: { list: [], byName: {} },
    byName: { a: { list: [], byName: {}, kids: [{ list: [], keep: {} }] }, b: {} },
    kids: [{ kids: [], list: [1] }],
    undeclared: [],
  };
  goOmitEmptyCollections(v as never, node);
  assert.deepEqual(v, {
    keep: [],
    s: "",
    raw: { list: [], byName: {} },
    byName: { a: { kids: [{ keep: {} }] }, b: {} },
    kids: [{ list: [1] }],
    undeclared: [],
  });
});
