import * as assert from "node:assert/strict";
import { test } from "node:test";
import { parseGoJson } from "../io/json-decode.js";
import { st } from "../prune/structural-builder.js";
import { deepEqual } from "../value/json-value.js";
import { cloneStructuralForDefaults, pruneDefaults } from "./prune-defaults.js";
import { SurroundingObject } from "./surrounding-object.js";

test("SurroundingObject wraps and reads back (surroundingobject.go examples)", () => {
  const f = SurroundingObject.root().index().child("foo").child("bar").index();
  // the root must be an object
  assert.deepEqual(f.wrap(1), { error: "object root default value must be of object type" });
  const g = SurroundingObject.root().child("a").index().child("b");
  const w = g.wrap(5);
  assert.ok("obj" in w && deepEqual(w.obj, parseGoJson(`{"a":[{"b":5}]}`)));
  assert.deepEqual(g.access(parseGoJson(`{"a":[{"b":6}]}`) as never), { found: true, value: 6 });
  assert.deepEqual(g.access(parseGoJson(`{"a":[]}`) as never), { found: false });
  assert.deepEqual(g.access(parseGoJson(`{"a":[3]}`) as never), { found: false, error: ".b must be of object type" });
  assert.deepEqual(g.access(parseGoJson(`{"a":{}}`) as never), { found: false, error: ".b[] must be of array type" });
  const t = SurroundingObject.root().withTypeMeta("validation/v1", "Validation").child("metadata");
  const tw = t.wrap({ name: "x" });
  assert.ok("obj" in tw && deepEqual(tw.obj, { metadata: { name: "x" }, kind: "Validation", apiVersion: "validation/v1" }));
});

test("PruneDefaults drops unknown fields in defaults (properties, items, additionalProperties)", () => {
  const x = st({ type: "object", properties: { x: st({ type: "integer" }) } });
  const a = st({ ...{ type: "object" }, properties: { x: st({ type: "integer" }) }, default: parseGoJson(`{"x":1,"y":2}`) });
  const items = st({ type: "array", items: x, default: parseGoJson(`[{"x":1,"z":1}]`) });
  const ap = st({ type: "object", additionalProperties: x, default: parseGoJson(`{"k":{"x":2,"q":3}}`) });
  const root = st({ type: "object", properties: { spec: st({ type: "object", properties: { a, items, ap } }) } });
  const r = pruneDefaults(root);
  assert.deepEqual(r, { changed: true });
  assert.ok(deepEqual(a.default!, { x: 1 }));
  assert.ok(deepEqual(items.default!, [{ x: 1 }]));
  assert.ok(deepEqual(ap.default!, { k: { x: 2 } }));
  assert.deepEqual(pruneDefaults(root), { changed: false });
});

test("PruneDefaults normalises embedded metadata in defaults and keeps apiVersion/kind", () => {
  const emb = st({
    type: "object",
    embeddedResource: true,
    properties: { spec: st({ type: "object" }) },
    default: parseGoJson(`{"apiVersion":"v1","kind":"K","metadata":{"name":"n","foo":1,"creationTimestamp":null},"spec":{"u":1},"extra":1}`),
  });
  const root = st({ type: "object", properties: { e: emb, metadata: st({ type: "object", default: parseGoJson(`{"labels":{"a":"b"},"bogus":1}`) }) } });
  assert.deepEqual(pruneDefaults(root), { changed: true });
  assert.ok(deepEqual(emb.default!, parseGoJson(`{"apiVersion":"v1","kind":"K","metadata":{"name":"n"},"spec":{}}`)), JSON.stringify(emb.default));
  assert.ok(deepEqual(root.properties!.get("metadata")!.default!, parseGoJson(`{"labels":{"a":"b"}}`)));
});

test("PruneDefaults: a non-object root default is an error", () => {
  assert.deepEqual(pruneDefaults(st({ type: "string", default: "x" })), {
    changed: false,
    error: "failed to prune default value: object root default value must be of object type",
  });
});

test("cloneStructuralForDefaults lets PruneDefaults run without touching the original schema", () => {
  const a = st({ type: "object", properties: { x: st({ type: "integer" }) }, default: parseGoJson(`{"x":1,"y":2}`) });
  const root = st({ type: "object", properties: { a } });
  const copy = cloneStructuralForDefaults(root);
  assert.deepEqual(pruneDefaults(copy), { changed: true });
  assert.ok(deepEqual(copy.properties!.get("a")!.default!, { x: 1 }));
  assert.ok(deepEqual(a.default!, parseGoJson(`{"x":1,"y":2}`)));
});
