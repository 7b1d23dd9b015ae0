/**
 * CustomResourceDefinitions accept strategic merge patches, as the real server does for this built-in kind (kubectl
 * apply, edit, label and annotate send them once the published OpenAPI v3 document names the kind): ObjectMeta's
 * finalizers merge as a set, other lists (versions) are replaced.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../src/server/server.js";
import { api, widgetCrd } from "./client.js";

const CRD = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.test.example.com";
const SMP = { "Content-Type": "application/strategic-merge-patch+json" };

describe("strategic merge patch of a CRD", () => {
  let s: RunningServer;
  before(async () => {
    s = await startServer({ port: 0 });
    assert.equal((await api(s.url, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", widgetCrd())).status, 201);
  });
  after(() => s.close());

  it("merges labels and finalizers and removes with $deleteFromPrimitiveList", async () => {
    let r = await api(s.url, "PATCH", CRD, { metadata: { labels: { a: "1" }, finalizers: ["x.example.com/one"] } }, SMP);
    assert.equal(r.status, 200, r.text);
    r = await api(s.url, "PATCH", CRD, { metadata: { labels: { b: "2" }, finalizers: ["x.example.com/two"] } }, SMP);
    assert.equal(r.status, 200, r.text);
    const meta = (r.json as { metadata: { labels: Record<string, string>; finalizers: string[] } }).metadata;
    assert.deepEqual(meta.labels, { a: "1", b: "2" });
    assert.deepEqual(meta.finalizers, ["x.example.com/one", "x.example.com/two"]);
    r = await api(s.url, "PATCH", CRD, { metadata: { "$deleteFromPrimitiveList/finalizers": ["x.example.com/one", "x.example.com/two"] } }, SMP);
    assert.equal(r.status, 200, r.text);
    assert.equal((r.json as { metadata: { finalizers?: string[] } }).metadata.finalizers, undefined);
  });

  it("answers 415: go-restful's for a Content-Type that is no patch type, the handler's with the media types a built-in kind accepts", async () => {
    // the route consumes the four patch types (test/server-diff/sequences/36-fuzz-findings-3)
    let r = await api(s.url, "PATCH", CRD, "{}", { "Content-Type": "text/plain" });
    assert.equal(r.status, 415);
    assert.deepEqual(r.json, { kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message: "415: Unsupported Media Type", reason: "UnsupportedMediaType", details: {}, code: 415 });
    // a list of types gets past the route; the handler reads the first
    r = await api(s.url, "PATCH", CRD, "{}", { "Content-Type": "text/plain, application/merge-patch+json" });
    assert.equal(r.status, 415);
    assert.equal(
      (r.json as { message: string }).message,
      "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml",
    );
  });
});
