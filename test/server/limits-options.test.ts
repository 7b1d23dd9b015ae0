/** The fieldManager option's limits (apimachinery `ValidateFieldManager`): 128 bytes, printable characters. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../src/server/server.js";
import { api, widget, widgetCrd, WIDGETS } from "./client.js";

describe("fieldManager option", () => {
  let srv: RunningServer;
  before(async () => {
    srv = await startServer();
    assert.equal((await api(srv.url, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", widgetCrd())).status, 201);
    assert.equal((await api(srv.url, "POST", WIDGETS, widget("w", { count: 1 }))).status, 201);
  });
  after(() => srv.close());

  const long = "m".repeat(129);
  it("more than 128 bytes → 422 for create, update and patch; nothing is written", async () => {
    const c = await api(srv.url, "POST", `${WIDGETS}?fieldManager=${long}`, widget("x"));
    assert.equal(c.status, 422);
    assert.equal(c.json.message, 'CreateOptions.meta.k8s.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes');
    assert.deepEqual(c.json.details, { causes: [{ field: "fieldManager", message: "Too long: may not be more than 128 bytes", reason: "FieldValueTooLong" }], group: "meta.k8s.io", kind: "CreateOptions" });
    assert.equal((await api(srv.url, "GET", `${WIDGETS}/x`)).status, 404);
    const cur = await api(srv.url, "GET", `${WIDGETS}/w`);
    const u = await api(srv.url, "PUT", `${WIDGETS}/w?fieldManager=${long}`, cur.json);
    assert.equal(u.json.message, 'UpdateOptions.meta.k8s.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes');
    const p = await api(srv.url, "PATCH", `${WIDGETS}/w?fieldManager=${long}`, { spec: { count: 2 } }, { "Content-Type": "application/merge-patch+json" });
    assert.equal(p.json.message, 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes');
    const a = await api(srv.url, "PATCH", `${WIDGETS}/w?fieldManager=${"ж".repeat(65)}`, JSON.stringify(widget("w")), { "Content-Type": "application/apply-patch+yaml" });
    assert.equal(a.status, 422);
    assert.equal((await api(srv.url, "GET", `${WIDGETS}/w`)).json.spec.count, 1);
    assert.equal((await api(srv.url, "POST", `${WIDGETS}?fieldManager=${"m".repeat(128)}`, widget("ok"))).status, 201);
  });

  it("non-printable characters → 422 naming each with its byte position", async () => {
    const r = await api(srv.url, "POST", `${WIDGETS}?fieldManager=a%07b%C2%A0c`, widget("y"));
    assert.equal(r.status, 422);
    assert.equal(
      r.json.message,
      'CreateOptions.meta.k8s.io "" is invalid: [fieldManager: Invalid value: "a\\ab\\u00a0c": invalid character U+0007 (at position 1), fieldManager: Invalid value: "a\\ab\\u00a0c": invalid character U+00A0 (at position 3)]',
    );
  });

  it("PatchOptions problems come together in one 422, before the patch is decoded", async () => {
    const r = await api(srv.url, "PATCH", `${WIDGETS}/w?force=true&fieldManager=${long}`, "{not json", { "Content-Type": "application/merge-patch+json" });
    assert.equal(r.status, 422);
    assert.equal(
      r.json.message,
      'PatchOptions.meta.k8s.io "" is invalid: [force: Forbidden: may not be specified for non-apply patch, fieldManager: Too long: may not be more than 128 bytes]',
    );
    const a = await api(srv.url, "PATCH", `${WIDGETS}/w`, "{not yaml", { "Content-Type": "application/apply-patch+yaml" });
    assert.equal(a.status, 422);
    assert.equal(a.json.message, 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch');
  });
});
