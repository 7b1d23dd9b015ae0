import assert from "node:assert/strict";
import { test } from "node:test";
import { jsonPatch } from "./patch.js";
import type { JsonObject } from "../../value/json-value.js";
import { patchNotDecodable } from "./patch-not-decodable.js";
import { decodePatchedScale, goOrderedScale, markJsonPatchPaths, marshalPatched, mergePatchSorted } from "./scale-patch.js";

const scale: JsonObject = {
  kind: "Scale",
  apiVersion: "autoscaling/v1",
  metadata: { name: "w1", namespace: "default", uid: "u-1", resourceVersion: "9", creationTimestamp: "2026-11-28T05:00:00Z" },
  spec: { replicas: 7 },
  status: { replicas: 0 },
};
const managed: JsonObject[] = [
  { manager: "merger", operation: "Update", apiVersion: "autoscaling/v1", fieldsType: "FieldsV1", fieldsV1: { "f:spec": { "f:replicas": {} } }, subresource: "scale" },
];
const META =
  '"metadata":{"name":"w1","namespace":"default","uid":"u-1","resourceVersion":"9","creationTimestamp":"2026-11-28T05:00:00Z",' +
  '"managedFields":[{"manager":"merger","operation":"Update","apiVersion":"autoscaling/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{}}},"subresource":"scale"}]}';

test("a merge patch of the Scale prints as json-patch v4 does: Go's struct order where it did not merge", () => {
  const sorted = new WeakSet<object>();
  const doc = mergePatchSorted(goOrderedScale(scale, managed), { spec: { replicas: "8", extra: { b: 1, a: null } } }, sorted);
  assert.equal(marshalPatched(doc, sorted), `{"apiVersion":"autoscaling/v1","kind":"Scale",${META},"spec":{"extra":{"b":1},"replicas":"8"},"status":{"replicas":0}}`);
  assert.deepEqual(decodePatchedScale(doc, sorted), { error: "json: cannot unmarshal string into Go struct field ScaleSpec.spec.replicas of type int32" });
});

test("a JSON patch of the Scale: the objects on the operations' paths are printed sorted", () => {
  const sorted = new WeakSet<object>();
  const ops = [{ op: "add", path: "/spec/replicas", value: 4294967296 }];
  const doc = jsonPatch(goOrderedScale({ ...scale, status: { replicas: 2, selector: "a<b" } }, undefined), ops) as JsonObject;
  markJsonPatchPaths(doc, ops, sorted);
  const text = marshalPatched(doc, sorted);
  assert.equal(
    text,
    '{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"w1","namespace":"default","uid":"u-1","resourceVersion":"9","creationTimestamp":"2026-11-28T05:00:00Z"},' +
      '"spec":{"replicas":4294967296},"status":{"replicas":2,"selector":"a\\u003cb"}}',
  );
  const d = decodePatchedScale(doc, sorted);
  assert.deepEqual(d, { error: "json: cannot unmarshal number 4294967296 into Go struct field ScaleSpec.spec.replicas of type int32" });
  const err = patchNotDecodable(text, "error" in d ? d.error : "");
  assert.equal(err.status.code, 422);
  assert.equal(err.status.message, ` "" is invalid: patch: Invalid value: ${JSON.stringify(text)}: ${"error" in d ? d.error : ""}`);
  assert.deepEqual(err.status.details, { causes: [{ reason: "FieldValueInvalid", message: `Invalid value: ${JSON.stringify(text)}: ${"error" in d ? d.error : ""}`, field: "patch" }] });
});

test("decoding a patched Scale: the first type error in document order, unknown fields, replicas 0 when absent", () => {
  const decode = (doc: JsonObject) => decodePatchedScale(doc, new WeakSet());
  const base = goOrderedScale(scale, undefined);
  assert.deepEqual(decode({ ...base, spec: { replicas: 4.5 }, status: { replicas: "x" } }), {
    error: "json: cannot unmarshal number 4.5 into Go struct field ScaleSpec.spec.replicas of type int32",
  });
  assert.deepEqual(decode({ ...base, spec: "x" }), { error: "json: cannot unmarshal string into Go struct field Scale.spec of type v1.ScaleSpec" });
  assert.deepEqual(decode({ ...base, status: { replicas: 1, selector: 5 } }), {
    error: "json: cannot unmarshal number into Go struct field ScaleStatus.status.selector of type string",
  });
  assert.deepEqual(decode({ ...base, status: [] }), { error: "json: cannot unmarshal array into Go struct field Scale.status of type v1.ScaleStatus" });
  assert.deepEqual(decode({ ...base, spec: { replicas: 3, extra: 1 }, more: true }), {
    replicas: 3,
    resourceVersion: "9",
    unknownFields: ['unknown field "spec.extra"', 'unknown field "more"'],
  });
  assert.deepEqual(decode({ ...base, metadata: { labels: 5 }, spec: { replicas: "x" } }), {
    error: "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type map[string]string",
  });
  const noKind = (k: string, v: string) => ({ error: `no kind "${k}" is registered for version "${v}" in scheme "pkg/runtime/scheme.go:111"` });
  assert.deepEqual(decode({ ...base, kind: "Widget", spec: "x" }), noKind("Widget", "autoscaling/v1"));
  assert.deepEqual(decode({ ...base, apiVersion: "autoscaling/v2" }), noKind("Scale", "autoscaling/v2"));
  assert.deepEqual(decode({ ...base, apiVersion: "v1", kind: "" }), noKind("Scale", "v1"));
  assert.deepEqual(decode({ ...base, apiVersion: "a/b/c" }), { error: "unexpected GroupVersion string: a/b/c" });
  assert.deepEqual(decode({ metadata: {}, spec: { replicas: 2 } }), { replicas: 2, resourceVersion: "", unknownFields: [] });
  assert.deepEqual(decode({ ...base, metadata: "m" }), { error: "json: cannot unmarshal string into Go struct field Scale.metadata of type v1.ObjectMeta" });
  assert.deepEqual(decode({ ...base, metadata: { foo: 1, resourceVersion: "3" } }), { replicas: 7, resourceVersion: "3", unknownFields: ['unknown field "metadata.foo"'] });
  assert.deepEqual(decode({ ...base, spec: { replicas: null } }), { replicas: 0, resourceVersion: "9", unknownFields: [] });
  assert.deepEqual(decode({ ...base, spec: {} }), { replicas: 0, resourceVersion: "9", unknownFields: [] });
});

test("Go omits a Scale's zero replicas and empty selector, and keeps status replicas", () => {
  const sorted = new WeakSet<object>();
  const doc = goOrderedScale({ ...scale, metadata: { name: "w1", creationTimestamp: "t" }, spec: {}, status: { replicas: 0, selector: "" } }, []);
  assert.equal(marshalPatched(doc, sorted), '{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"w1","creationTimestamp":"t"},"spec":{},"status":{"replicas":0}}');
});
