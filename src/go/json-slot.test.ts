/**
 * goJsonMarshalWithSlot: the text is goJsonMarshal of the object without the member, and filling the slot
 * gives goJsonMarshal of the object with it — whatever keys the inner object has around the member (none,
 * before, after, non-ASCII and surrogate keys, which sort in Go's UTF-8 order), and whatever the values are.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { Float64, type JsonObject, type JsonValue } from "../value/json-value.js";
import { fillJsonSlot, goJsonMarshal, goJsonMarshalWithSlot } from "./json.js";

function check(obj: JsonObject, value: JsonValue): void {
  const meta = obj["metadata"] as JsonObject;
  const slot = goJsonMarshalWithSlot(obj, "metadata", "resourceVersion");
  const without = { ...obj, metadata: Object.fromEntries(Object.entries(meta).filter(([k]) => k !== "resourceVersion")) };
  assert.equal(slot.text, goJsonMarshal(without));
  const withIt = { ...obj, metadata: { ...meta, resourceVersion: value } };
  assert.equal(fillJsonSlot(slot, "resourceVersion", goJsonMarshal(value)), goJsonMarshal(withIt));
}

test("the member's place among the inner object's keys", () => {
  const metas: JsonObject[] = [
    {},
    { name: "a" },
    { uid: "u" },
    { name: "a", namespace: "default", uid: "u" },
    { annotations: { "resourceVersion": "not this one" }, creationTimestamp: "2026-01-01T00:00:00Z", name: "x" },
    { resourceVersion: "old", name: "a", uid: "u" },
    { resourceVersionX: 1, resourceVersio: 2, "resourceVersion\u0000": 3 },
    { "é": 1, "\u{1F600}": 2, "\uFF61": 3, a: 4 },
    { managedFields: [{ manager: "m", fieldsV1: { "f:spec": { ".": {} } } }], labels: { "a/b": "<&>" } },
  ];
  for (const metadata of metas) {
    check({ apiVersion: "g/v1", kind: "K", metadata, spec: { n: 1, f: new Float64(2), s: "x\u2028y" } }, "42");
    check({ metadata }, "7");
  }
});

test("other top-level keys around the field, and deep values", () => {
  let deep: JsonValue = "leaf";
  for (let i = 0; i < 400; i++) deep = { d: deep };
  check({ a: 1, metadata: { name: "n", deep }, z: [deep], "\u{10400}": true, "\uE000": false }, "1");
});
