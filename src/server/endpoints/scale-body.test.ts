import assert from "node:assert/strict";
import { test } from "node:test";
import { ApiError } from "./errors.js";
import { decodeScaleBody } from "./scale-body.js";

const NOT_DECODED = 'no kind is registered for the type v1.Scale in scheme "pkg/runtime/scheme.go:111"';

function refused(value: unknown, mode: "Strict" | "Warn" | "Ignore" = "Warn"): string {
  try {
    decodeScaleBody(value as never, [], mode);
  } catch (e) {
    assert.ok(e instanceof ApiError);
    assert.equal(e.status.code, 400);
    return e.status.message;
  }
  assert.fail("decoded");
}

test("scale bodies: an autoscaling/v1 Scale (defaults for a missing apiVersion or kind), missing replicas as 0", () => {
  const meta = { name: "p1", namespace: "default", resourceVersion: "7" };
  assert.deepEqual(decodeScaleBody({ apiVersion: "autoscaling/v1", kind: "Scale", metadata: meta, spec: { replicas: 3 } }, [], "Warn"), {
    ...meta,
    replicas: 3,
    hasApiVersion: true,
    strictErrors: [],
  });
  // (without apiVersion the field manager cannot type the Scale: scale-write keeps the managed fields)
  assert.deepEqual(decodeScaleBody({ kind: "Scale", metadata: { name: "p1" }, spec: { replicas: 2 } }, [], "Warn").hasApiVersion, false);
  assert.equal(decodeScaleBody({ kind: "Scale", metadata: { name: "p1" }, spec: { replicas: 2 } }, [], "Warn").replicas, 2);
  assert.equal(decodeScaleBody({ apiVersion: "autoscaling/v1", metadata: { name: "p1" }, spec: { replicas: null } }, [], "Warn").replicas, 0);
  assert.deepEqual(decodeScaleBody(null, [], "Warn"), { name: "", namespace: "", resourceVersion: "", replicas: 0, hasApiVersion: false, strictErrors: [] });
});

test("scale bodies: what does not decode into a Scale is the handler's 400", () => {
  for (const v of [
    { apiVersion: "autoscaling/v2", kind: "Scale" },
    { apiVersion: "sp.example.com/v1", kind: "Pool" },
    { apiVersion: "v1", kind: "Status" },
    { kind: "Scale", spec: { replicas: "4" } },
    { kind: "Scale", spec: { replicas: 4.5 } },
    { kind: "Scale", spec: { replicas: 2 ** 31 } },
    { kind: "Scale", metadata: 5 },
    { kind: "Scale", status: { selector: 5 } },
    [],
  ]) {
    assert.equal(refused(v), NOT_DECODED, JSON.stringify(v));
  }
  assert.equal(refused({ kind: "Scale", spec: { replicas: 1, extra: 1 } }, "Strict"), NOT_DECODED);
});

test("scale bodies: unknown and duplicate fields are warnings under Warn, nothing under Ignore", () => {
  const body = { kind: "Scale", metadata: { name: "p1" }, spec: { replicas: 1, extra: 1 }, other: 2 };
  assert.deepEqual(decodeScaleBody(body, ['duplicate field "spec.replicas"'], "Warn").strictErrors, [
    'duplicate field "spec.replicas"',
    'unknown field "spec.extra"',
    'unknown field "other"',
  ]);
  // the unknown fields in the order the decoder meets them (the body's order, each field's own inside it)
  const later = { status: { x: 1 }, other: 2, metadata: { name: "p1", extra: "" }, kind: "Scale" };
  assert.deepEqual(decodeScaleBody(later, [], "Warn").strictErrors, ['unknown field "status.x"', 'unknown field "other"', 'unknown field "metadata.extra"']);
  assert.deepEqual(decodeScaleBody(body, [], "Ignore").strictErrors, []);
});
