/** FieldSet operations on tries: union, difference, intersection, FieldsV1 round trips. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { FieldSet } from "./fieldset.js";

const fs = (v: Record<string, unknown>) => FieldSet.fromFieldsV1(v as never);

describe("FieldSet", () => {
  const a = { "f:spec": { ".": {}, "f:replicas": {}, "f:ports": { 'k:{"port":80}': { ".": {}, "f:name": {} } } }, "f:status": { "f:phase": {} } };
  const b = { "f:spec": { "f:replicas": {}, "f:ports": { 'k:{"port":80}': { "f:name": {} } } }, "f:metadata": { "f:labels": { "f:x": {} } } };

  const cases: { op: "union" | "difference" | "intersection"; want: Record<string, unknown> }[] = [
    {
      op: "union",
      want: {
        "f:metadata": { "f:labels": { "f:x": {} } },
        "f:spec": { ".": {}, "f:ports": { 'k:{"port":80}': { ".": {}, "f:name": {} } }, "f:replicas": {} },
        "f:status": { "f:phase": {} },
      },
    },
    // Subtrees left with nothing are dropped (no `f:ports` without members below it).
    { op: "difference", want: { "f:spec": { ".": {}, "f:ports": { 'k:{"port":80}': {} } }, "f:status": { "f:phase": {} } } },
    { op: "intersection", want: { "f:spec": { "f:ports": { 'k:{"port":80}': { "f:name": {} } }, "f:replicas": {} } } },
  ];
  for (const c of cases) {
    it(`${c.op} keeps FieldsV1 order and prunes empty subtrees`, () => {
      const out = fs(a)[c.op](fs(b));
      assert.deepEqual(JSON.stringify(out.toFieldsV1()), JSON.stringify(c.want));
    });
  }

  it("results share no nodes with their inputs", () => {
    const x = fs(a);
    const y = fs(b);
    for (const out of [x.union(y), x.difference(y), x.intersection(y)]) {
      for (const p of out.paths()) out.insert([...p, { kind: "f", name: "added" }]);
    }
    assert.deepEqual(x.toFieldsV1(), fs(a).toFieldsV1());
    assert.deepEqual(y.toFieldsV1(), fs(b).toFieldsV1());
  });

  it("an empty difference is empty; `.` alone makes the parent a member", () => {
    assert.equal(fs(a).difference(fs(a)).empty(), true);
    assert.deepEqual(JSON.stringify(fs(a).difference(fs(a)).toFieldsV1()), "{}");
    const dot = fs({ "f:spec": { ".": {} } });
    assert.deepEqual(dot.paths(), [[{ kind: "f", name: "spec" }]]);
    assert.deepEqual(JSON.stringify(dot.toFieldsV1()), '{"f:spec":{}}');
  });

  it("drops top-level fields", () => {
    assert.deepEqual(JSON.stringify(fs(a).withoutTopFields(["status", "metadata"]).toFieldsV1()), JSON.stringify({ "f:spec": { ".": {}, "f:ports": { 'k:{"port":80}': { ".": {}, "f:name": {} } }, "f:replicas": {} } }));
  });

  // A set decoded from FieldsV1 is encoded from the decoded input only when that input is exactly the encoding;
  // any other spelling comes out as the encoder writes it (as Kubernetes re-encodes every set it decodes).
  const reencoded: [string, Record<string, unknown>, string][] = [
    ["the encoder's own form", { "f:spec": { ".": {}, "f:ports": { 'k:{"port":80}': { ".": {}, "f:name": {} } }, "f:replicas": {} } }, '{"f:spec":{".":{},"f:ports":{"k:{\\"port\\":80}":{".":{},"f:name":{}}},"f:replicas":{}}}'],
    ["keys out of order", { "f:spec": {}, "f:metadata": {} }, '{"f:metadata":{},"f:spec":{}}'],
    ["associative keys out of order", { 'k:{"port":80}': {}, 'k:{"port":443}': {} }, '{"k:{\\"port\\":443}":{},"k:{\\"port\\":80}":{}}'],
    ["a key not in its serialized form", { 'k:{"b":1,"a":2}': {} }, '{"k:{\\"a\\":2,\\"b\\":1}":{}}'],
    ["`.` alone", { "f:spec": { ".": {} } }, '{"f:spec":{}}'],
    ["`.` after other keys", { "f:spec": { "f:x": {}, ".": {} } }, '{"f:spec":{".":{},"f:x":{}}}'],
    ["`.` at the top", { ".": {}, "f:spec": {} }, '{"f:spec":{}}'],
    ["a leaf that is not an empty object", { "f:spec": { "f:x": true, "f:y": { ".": null, "f:z": {} } } }, '{"f:spec":{"f:x":{},"f:y":{".":{},"f:z":{}}}}'],
  ];
  for (const [name, input, want] of reencoded) {
    it(`encodes a decoded set as the encoder does: ${name}`, () => {
      assert.equal(JSON.stringify(fs(input).toFieldsV1()), want);
      assert.equal(JSON.stringify(fs(JSON.parse(want)).toFieldsV1()), want);
    });
  }

  it("sharesMember: whether a difference takes anything away", () => {
    assert.equal(fs(a).sharesMember(fs(b)), true);
    assert.equal(fs(a).sharesMember(fs({ "f:metadata": { "f:labels": {} } })), false);
    // `f:ports` is a child here and a member there: the difference keeps it.
    assert.equal(fs(a).sharesMember(fs({ "f:spec": { "f:ports": {} } })), false);
    assert.deepEqual(fs(a).difference(fs({ "f:spec": { "f:ports": {} } })).toFieldsV1(), fs(a).toFieldsV1());
    assert.equal(fs(a).sharesMember(fs({ "f:spec": { ".": {}, "f:other": {} } })), true);
  });

  it("refuses malformed FieldsV1", () => {
    assert.throws(() => fs({ "x:y": {} }), /invalid FieldsV1 key x:y/);
    assert.throws(() => FieldSet.fromFieldsV1("str"), /FieldsV1 must be an object/);
  });

  it("writes key and set values HTML-escaped, as smd does (the real server's k:{\"value\":\"a\\u003cb\"})", () => {
    // what smd wrote, parsed and written back: the same text
    const key = 'k:{"name":"eviction-hard","value":"nodefs.available\\u003c0%, a\\u0026b \\u003e c"}';
    assert.deepEqual(Object.keys(fs({ "f:args": { [key]: {} } }).toFieldsV1()["f:args"] as object), [key]);
    // a key sent unescaped is written escaped
    assert.deepEqual(Object.keys(fs({ "f:args": { 'k:{"value":"x<y"}': {}, 'v:"a&b"': {} } }).toFieldsV1()["f:args"] as object), ['k:{"value":"x\\u003cy"}', 'v:"a\\u0026b"']);
  });
});
