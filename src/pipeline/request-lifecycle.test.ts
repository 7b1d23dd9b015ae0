import * as assert from "node:assert/strict";
import { test } from "node:test";
import type { JsonObject } from "../value/json-value.js";
import { compileCrd } from "./compile.js";
import { createFromJson, updateFromJson } from "./request-body.js";

// Expectations recorded by the Kubernetes oracle (test/golden/objectmeta/request-lifecycle.json,
// test/golden/decoding/raw-bodies.json).
const crd: JsonObject = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "widgets.example.com" },
  spec: {
    group: "example.com",
    names: { plural: "widgets", singular: "widget", kind: "Widget", listKind: "WidgetList" },
    scope: "Namespaced",
    versions: [
      {
        name: "v1",
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: { openAPIV3Schema: { type: "object", properties: { spec: { type: "object", properties: { a: { type: "string" } } } } } },
      },
    ],
  },
};
const c = compileCrd(crd);
const w = (metadata: JsonObject, spec: JsonObject = {}): JsonObject => ({ apiVersion: "example.com/v1", kind: "Widget", metadata, spec });
const old = w({ name: "w1", namespace: "ns", resourceVersion: "1" });

test("create drops the server-managed metadata (WipeObjectMetaSystemFields)", () => {
  const md = { name: "w1", namespace: "ns", uid: "u", creationTimestamp: "2021-05-06T07:08:09Z", selfLink: "/x", deletionGracePeriodSeconds: 30 };
  const r = c.create(w(md));
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.object?.["metadata"], { generation: 1, name: "w1", namespace: "ns" });
  // a caller that manages them itself opts out (crdkit serve fills uid and creationTimestamp before admission)
  const kept = c.create(w(md), { wipeSystemFields: false }).object?.["metadata"] as JsonObject;
  assert.deepEqual([kept["uid"], kept["creationTimestamp"]], ["u", "2021-05-06T07:08:09Z"]);
});

const urlCases: [string, JsonObject, string | undefined][] = [
  ["rename", w({ name: "w2", namespace: "ns", resourceVersion: "1" }), "the name of the object (w2) does not match the name on the URL (w1)"],
  ["no name", w({ namespace: "ns", resourceVersion: "1" }), "the name of the object () does not match the name on the URL (w1)"],
  ["other namespace", w({ name: "w1", namespace: "other", resourceVersion: "1" }), "the namespace of the provided object does not match the namespace sent on the request"],
  ["namespace filled from the stored object", w({ name: "w1", resourceVersion: "1" }), undefined],
];
for (const [name, body, want] of urlCases) {
  test(`update URL check: ${name}`, () => {
    const r = c.update(body, old);
    assert.equal(r.decodeError, want);
    if (want === undefined) assert.equal((r.object!["metadata"] as JsonObject)["namespace"], "ns");
  });
}

test("update URL check with an explicit request name", () => {
  assert.equal(c.update(w({ name: "w1", namespace: "ns", resourceVersion: "1" }), old, { name: "w9" }).decodeError, "the name of the object (w1) does not match the name on the URL (w9)");
});

const TM = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';
const U = "the object provided is unrecognized (must be of type Widget): ";
const bodies: [string, string | undefined][] = [
  ["null", `${U}Object 'Kind' is missing in 'null' (6e756c6c)`],
  ["[1,2]", `${U}couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type ${TM} (5b312c325d)`],
  ["{not json", `${U}couldn't get version/kind; json parse error: invalid character 'n' looking for beginning of object key string ({not json)`],
  [
    '{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1"}} x',
    `${U}couldn't get version/kind; json parse error: invalid character 'x' after top-level value ({"apiVersion":"example.com/v1" ...)`,
  ],
  ['{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1","namespace":"ns"},"spec":{"a":"x"}}', undefined],
];
for (const [body, want] of bodies) {
  test(`raw create body ${body.slice(0, 30)}`, () => assert.equal(createFromJson(c, body, { fieldValidation: "Strict" }).decodeError, want));
}

test("raw body: repeated keys are strict decoding errors", () => {
  const body = '{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1","namespace":"ns","resourceVersion":"1"},"spec":{"a":"x","a":"y"}}';
  assert.equal(
    updateFromJson(c, body, old, { fieldValidation: "Strict" }).decodeError,
    'Widget in version "v1" cannot be handled as a Widget: strict decoding error: duplicate field "spec.a"',
  );
  const warn = createFromJson(c, body, { fieldValidation: "Warn" });
  assert.deepEqual(warn.warnings, ['duplicate field "spec.a"']);
  assert.deepEqual(warn.object?.["spec"], { a: "y" });
});
