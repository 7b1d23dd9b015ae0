/** Several served versions (conversion strategy None), deprecation warnings (webhooks: conversion-webhook.test.ts). */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../src/server/server.js";
import { api, widgetCrd } from "./client.js";

const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

function twoVersionCrd(): Record<string, unknown> {
  const crd = widgetCrd() as { spec: { versions: Record<string, unknown>[]; conversion?: unknown } };
  const v1 = crd.spec.versions[0]!;
  crd.spec.versions = [{ ...v1, name: "v1beta1", storage: false, deprecated: true }, v1];
  return crd;
}

describe("multi-version CRDs", () => {
  let s: RunningServer;
  before(async () => {
    s = await startServer({});
  });
  after(async () => {
    await s.close();
  });

  it("serves every version with apiVersion rewritten and a deprecation warning", async () => {
    const c = await api(s.url, "POST", CRDS, twoVersionCrd());
    assert.equal(c.status, 201, c.text);
    const beta = "/apis/test.example.com/v1beta1/namespaces/default/widgets";
    const created = await api(s.url, "POST", beta, { apiVersion: "test.example.com/v1beta1", kind: "Widget", metadata: { name: "a" }, spec: { count: 1 } });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.headers.get("warning"), '299 - "test.example.com/v1beta1 Widget is deprecated; use test.example.com/v1 Widget"');
    const v1 = await api(s.url, "GET", "/apis/test.example.com/v1/namespaces/default/widgets/a");
    assert.equal(v1.json.apiVersion, "test.example.com/v1");
    assert.equal(v1.headers.get("warning"), null);
    const list = await api(s.url, "GET", beta);
    assert.equal(list.json.items[0].apiVersion, "test.example.com/v1beta1");
    const g = await api(s.url, "GET", "/apis/test.example.com");
    assert.deepEqual(g.json.versions.map((v: { version: string }) => v.version), ["v1", "v1beta1"]);
    assert.equal((await api(s.url, "DELETE", `${CRDS}/widgets.test.example.com`)).status, 200);
    // CRD deletion finishes asynchronously (the finalizer controller removes the instances first).
    for (const end = Date.now() + 60_000; (await api(s.url, "GET", `${CRDS}/widgets.test.example.com`)).status !== 404; ) {
      if (Date.now() > end) throw new Error("the CRD was not deleted within 60 s");
      await new Promise((r) => setTimeout(r, 20));
    }
  });
});
