/**
 * Request limits on patches and nesting (issue 13): json-patch's accumulated `copy` size and operation
 * count with the API server's texts, and no request path builds an object deeper than the decoder allows
 * or lets a stack overflow reach the client.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../src/server/server.js";
import { api, widget, widgetCrd, WIDGETS } from "./client.js";

const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const JSON_PATCH = { "Content-Type": "application/json-patch+json" };
const MERGE_PATCH = { "Content-Type": "application/merge-patch+json" };
const APPLY = { "Content-Type": "application/apply-patch+yaml" };
const YAML = { "Content-Type": "application/yaml" };

/** A CRD whose spec keeps unknown fields, so deep values reach storage. */
function openCrd(): Record<string, unknown> {
  const crd = widgetCrd() as { metadata: { name: string }; spec: { names: Record<string, unknown>; versions: { schema: unknown; subresources?: unknown; selectableFields?: unknown; additionalPrinterColumns?: unknown }[] } };
  crd.metadata.name = "blobs.test.example.com";
  crd.spec.names = { plural: "blobs", singular: "blob", kind: "Blob" };
  const v = crd.spec.versions[0]!;
  v.schema = { openAPIV3Schema: { type: "object", properties: { spec: { type: "object", "x-kubernetes-preserve-unknown-fields": true } } } };
  delete v.subresources;
  delete v.selectableFields;
  delete v.additionalPrinterColumns;
  return crd;
}
const BLOBS = "/apis/test.example.com/v1/namespaces/default/blobs";

/** `{"a":{"a":…{}}}` with `levels` objects. */
function nested(levels: number): unknown {
  let v: unknown = {};
  for (let i = 1; i < levels; i++) v = { a: v };
  return v;
}

let srv: RunningServer;
before(async () => {
  srv = await startServer();
  assert.equal((await api(srv.url, "POST", CRDS, widgetCrd())).status, 201);
  assert.equal((await api(srv.url, "POST", CRDS, openCrd())).status, 201);
});
after(() => srv.close());

describe("JSON patch limits", () => {
  it("caps the accumulated size of copy operations at 3 MiB (json-patch's text, 422)", async () => {
    const color = "x".repeat(1500);
    assert.equal((await api(srv.url, "POST", WIDGETS, widget("copier", { color }))).status, 201);
    // Each copy doubles spec; json-patch adds the copied value's JSON size to the total before adding it.
    const ops: unknown[] = [];
    const spec: Record<string, unknown> = { color };
    let total = 0;
    let expected = 0;
    for (let i = 0; i < 24; i++) {
      ops.push({ op: "copy", from: "/spec", path: `/spec/d${i}` });
      const size = JSON.stringify(spec).length;
      if (expected === 0 && total + size > 3 * 1024 * 1024) expected = total + size;
      total += size;
      spec[`d${i}`] = JSON.parse(JSON.stringify(spec));
      if (expected !== 0) break;
    }
    const r = await api(srv.url, "PATCH", `${WIDGETS}/copier`, ops, JSON_PATCH);
    assert.equal(r.status, 422, r.text.slice(0, 300));
    // The API server answers the generic 422 without the patch error (`NewGenericServerResponse` without
    // causes); json-patch's own text (`Unable to complete the copy, the accumulated size increase of copy is
    // ${expected}, exceeding the limit 3145728`) stays in the server.
    assert.deepEqual(r.json, {
      apiVersion: "v1",
      code: 422,
      details: {},
      kind: "Status",
      message: "the server rejected our request due to an error in our request",
      metadata: {},
      reason: "Invalid",
      status: "Failure",
    });
    // One copy fewer stays within the limit (a dry run: the result would be too large for etcd).
    const fits = await api(srv.url, "PATCH", `${WIDGETS}/copier?dryRun=All`, ops.slice(0, -1), JSON_PATCH);
    assert.equal(fits.status, 200);
    const got = await api(srv.url, "GET", `${WIDGETS}/copier`);
    assert.equal(got.json.spec.color, color);
    assert.equal(Object.keys(got.json.spec).length, 1);
  });

  it("counts each copy as its value's JSON: exactly 3 MiB passes, one byte more does not", async () => {
    // Three copies of a string of n bytes add 3 × (n + 2) bytes (the JSON string has its quotes).
    for (const [n, code] of [[1_048_574, 200], [1_048_575, 422]] as const) {
      const name = `copier-${n}`;
      assert.equal((await api(srv.url, "POST", WIDGETS, widget(name, { color: "y".repeat(n) }))).status, 201);
      const ops = Array.from({ length: 3 }, (_, i) => ({ op: "copy", from: "/spec/color", path: `/spec/c${i}` }));
      const r = await api(srv.url, "PATCH", `${WIDGETS}/${name}?dryRun=All`, ops, JSON_PATCH);
      assert.equal(r.status, code, `${n}: ${r.text.slice(0, 200)}`);
    }
  });

  it("refuses more than 10,000 operations with 413", async () => {
    assert.equal((await api(srv.url, "POST", WIDGETS, widget("many", { count: 1 }))).status, 201);
    const ops = Array.from({ length: 10_001 }, () => ({ op: "test", path: "/spec/count", value: 1 }));
    const r = await api(srv.url, "PATCH", `${WIDGETS}/many`, ops, JSON_PATCH);
    assert.equal(r.status, 413);
    assert.equal(r.json.reason, "RequestEntityTooLarge");
    assert.equal(r.json.message, "Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001");
    const ok = await api(srv.url, "PATCH", `${WIDGETS}/many`, ops.slice(1), JSON_PATCH);
    assert.equal(ok.status, 200);
  });
});

describe("nesting depth", () => {
  it("a JSON patch cannot nest an object 5,000 deep (422 as a patched document that fails to decode)", async () => {
    assert.equal((await api(srv.url, "POST", BLOBS, { apiVersion: "test.example.com/v1", kind: "Blob", metadata: { name: "deep" }, spec: {} })).status, 201);
    const value = nested(900);
    const deepPath = "/a".repeat(899);
    const ops = [{ op: "add", path: "/spec/v", value }];
    for (let i = 1; i < 6; i++) ops.push({ op: "add", path: `/spec/v${deepPath.repeat(i)}/a`, value });
    const r = await api(srv.url, "PATCH", `${BLOBS}/deep`, ops, JSON_PATCH);
    assert.equal(r.status, 422, r.text.slice(0, 300));
    assert.equal(r.json.reason, "Invalid");
    assert.match(r.json.message, /^ "" is invalid: patch: Invalid value: "\{\\"apiVersion\\":\\"test\.example\.com\/v1\\",/);
    assert.ok(r.json.message.endsWith(`": invalid character '{' exceeded max depth`), r.json.message.slice(-200));
    assert.equal(r.json.details.causes[0].field, "patch");
    assert.equal(r.json.details.name, undefined);
    assert.ok(!r.text.includes("call stack"));
    const got = await api(srv.url, "GET", `${BLOBS}/deep`);
    assert.deepEqual(got.json.spec, {});
  });

  it("moves and copies that nest deeper are refused too", async () => {
    // Each round moves spec.a under a fresh spec.b and renames b to a: one level deeper per 3 operations.
    const ops: unknown[] = [{ op: "add", path: "/spec/a", value: {} }];
    for (let i = 0; i < 1100; i++) {
      ops.push({ op: "add", path: "/spec/b", value: {} }, { op: "move", from: "/spec/a", path: "/spec/b/a" }, { op: "move", from: "/spec/b", path: "/spec/a" });
    }
    const r = await api(srv.url, "PATCH", `${BLOBS}/deep`, ops, JSON_PATCH);
    assert.equal(r.status, 422, r.text.slice(0, 300));
    assert.ok(r.json.message.endsWith(`": invalid character '{' exceeded max depth`));
    const copies: unknown[] = [{ op: "add", path: "/spec/a", value: nested(990) }];
    for (let i = 0; i < 20; i++) copies.push({ op: "copy", from: "/spec/a", path: `/spec/a${"/a".repeat(i)}/b` });
    const c = await api(srv.url, "PATCH", `${BLOBS}/deep`, copies, JSON_PATCH);
    assert.equal(c.status, 422, c.text.slice(0, 300));
    assert.ok(c.json.message.endsWith(`": invalid character '{' exceeded max depth`));
  });

  it("objects at the decoder's limit go through create, update, every patch type and apply", async () => {
    // Root object + metadata-free spec: the body nests exactly 1,000 levels.
    const body = { apiVersion: "test.example.com/v1", kind: "Blob", metadata: { name: "edge" }, spec: nested(999) };
    const created = await api(srv.url, "POST", BLOBS, body);
    assert.equal(created.status, 201, created.text.slice(0, 300));
    const tooDeep = await api(srv.url, "POST", BLOBS, { ...body, metadata: { name: "edge2" }, spec: { x: nested(999) } });
    assert.equal(tooDeep.status, 400);
    const put = await api(srv.url, "PUT", `${BLOBS}/edge`, { ...body, metadata: { name: "edge", resourceVersion: created.json.metadata.resourceVersion }, spec: { b: nested(998) } });
    assert.equal(put.status, 200, put.text.slice(0, 300));
    // managedFields (f:spec/f:b/f:a/…) nest 5 levels deeper than the fields they record, and JSON and
    // merge patches work on the stored document with managedFields: as in Kubernetes, such an object can
    // be replaced and applied to, but not patched.
    const merge = await api(srv.url, "PATCH", `${BLOBS}/edge`, { spec: { c: 1 } }, MERGE_PATCH);
    assert.equal(merge.status, 422, merge.text.slice(0, 300));
    assert.ok(merge.json.message.endsWith(`": invalid character '{' exceeded max depth`));
    const apply = await api(srv.url, "PATCH", `${BLOBS}/edge?fieldManager=m`, JSON.stringify({ apiVersion: "test.example.com/v1", kind: "Blob", metadata: { name: "edge" }, spec: { e: nested(990) } }), APPLY);
    assert.equal(apply.status, 200, apply.text.slice(0, 300));
    const applyCreate = await api(srv.url, "PATCH", `${BLOBS}/edge3?fieldManager=m`, JSON.stringify({ apiVersion: "test.example.com/v1", kind: "Blob", metadata: { name: "edge3" }, spec: nested(998) }), APPLY);
    assert.equal(applyCreate.status, 201, applyCreate.text.slice(0, 300));
    const got = await api(srv.url, "GET", `${BLOBS}/edge`);
    assert.equal(got.status, 200);
    assert.deepEqual(Object.keys(got.json.spec).sort(), ["b", "e"]);
    // 990 levels leave room for managedFields: every patch type works.
    const obj = { apiVersion: "test.example.com/v1", kind: "Blob", metadata: { name: "near" }, spec: { a: nested(985) } };
    assert.equal((await api(srv.url, "POST", BLOBS, obj)).status, 201);
    const m2 = await api(srv.url, "PATCH", `${BLOBS}/near`, { spec: { c: nested(985) } }, MERGE_PATCH);
    assert.equal(m2.status, 200, m2.text.slice(0, 300));
    const jp = await api(srv.url, "PATCH", `${BLOBS}/near`, [{ op: "copy", from: "/spec/c", path: "/spec/d" }], JSON_PATCH);
    assert.equal(jp.status, 200, jp.text.slice(0, 300));
    const ap = await api(srv.url, "PATCH", `${BLOBS}/near?fieldManager=m`, JSON.stringify({ ...obj, spec: { e: nested(985) } }), APPLY);
    assert.equal(ap.status, 200, ap.text.slice(0, 300));
  });

  it("YAML aliases cannot nest a body deeper than the limit", async () => {
    // Each anchor nests the previous one 300 levels down: 5 anchors are 1,500 levels deep.
    let yaml = "apiVersion: test.example.com/v1\nkind: Blob\nmetadata:\n  name: aliased\nspec:\n";
    for (let i = 0; i < 5; i++) {
      const inner = i === 0 ? "{}" : `*x${i - 1}`;
      yaml += `  k${i}: &x${i} ${"[".repeat(300)}${inner}${"]".repeat(300)}\n`;
    }
    const r = await api(srv.url, "POST", BLOBS, yaml, YAML);
    assert.equal(r.status, 400, r.text.slice(0, 300));
    assert.equal(r.json.message, "the object provided is unrecognized (must be of type Blob): couldn't get version/kind; json parse error: yaml: exceeded max depth of 1000");
  });
});
