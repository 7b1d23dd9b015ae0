/** CRD deletion: cleanup finalizer, Terminating condition, shrinking verbs, refused creates, then removal. */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../src/server/server.js";
import { api, widget, widgetCrd, WIDGETS } from "./client.js";

const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const NAME = "widgets.test.example.com";
const MERGE = { "Content-Type": "application/merge-patch+json" };

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  let v = await probe();
  for (let i = 0; i < 400 && !ok(v); i++) {
    await new Promise((r) => setTimeout(r, 25));
    v = await probe();
  }
  return v;
}

type Cond = { type: string; status: string; reason: string; message: string };
const terminating = (crd: { status: { conditions: Cond[] } }) => {
  const c = crd.status.conditions.find((x) => x.type === "Terminating");
  return c ? [c.status, c.reason, c.message] : undefined;
};

describe("CRD deletion", () => {
  let s: RunningServer;
  before(async () => {
    s = await startServer({});
    assert.equal((await api(s.url, "POST", CRDS, widgetCrd())).status, 201);
    assert.equal((await api(s.url, "POST", WIDGETS, widget("plain"))).status, 201);
    assert.equal((await api(s.url, "POST", WIDGETS, widget("held", {}, { finalizers: ["example.com/hold"] }))).status, 201);
  });
  after(async () => {
    await s.close();
  });

  it("marks the CRD: deletionTimestamp, cleanup finalizer, Terminating=True", async () => {
    const d = await api(s.url, "DELETE", `${CRDS}/${NAME}`);
    assert.equal(d.status, 200, d.text);
    assert.match(d.json.metadata.deletionTimestamp, /Z$/);
    assert.deepEqual(d.json.metadata.finalizers, ["customresourcecleanup.apiextensions.k8s.io"]);
    assert.deepEqual(terminating(d.json), [
      "True",
      "InstanceDeletionPending",
      "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon",
    ]);
    // The controller moves on and deletes what it can; the object with a finalizer is waited for.
    const crd = await until(
      async () => (await api(s.url, "GET", `${CRDS}/${NAME}`)).json,
      (c) => terminating(c)?.[1] === "InstanceDeletionInProgress",
    );
    assert.deepEqual(terminating(crd), ["True", "InstanceDeletionInProgress", "CustomResource deletion is in progress"]);
    const plain = await until(() => api(s.url, "GET", `${WIDGETS}/plain`), (r) => r.status === 404);
    assert.equal(plain.status, 404);
    const held = await until(() => api(s.url, "GET", `${WIDGETS}/held`), (r) => r.json.metadata.deletionTimestamp !== undefined);
    assert.match(held.json.metadata.deletionTimestamp, /Z$/);
  });

  it("lists only the read and delete verbs in discovery while terminating", async () => {
    const r = await api(s.url, "GET", "/apis/test.example.com/v1");
    const main = r.json.resources.find((x: { name: string }) => x.name === "widgets");
    assert.deepEqual(main.verbs, ["delete", "deletecollection", "get", "list", "watch"]);
  });

  it("refuses creates (POST and apply) with 403 and Kubernetes' text; updates still work", async () => {
    const c = await api(s.url, "POST", WIDGETS, widget("new-one"));
    assert.equal(c.status, 403);
    assert.deepEqual(c.json, {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: 'widgets.test.example.com "new-one" is forbidden: create not allowed while custom resource definition is terminating',
      reason: "Forbidden",
      details: { name: "new-one", group: "test.example.com", kind: "widgets" },
      code: 403,
    });
    const a = await api(s.url, "PATCH", `${WIDGETS}/applied?fieldManager=m`, widget("applied"), { "Content-Type": "application/apply-patch+yaml" });
    assert.equal(a.status, 403);
    assert.equal(a.json.message, 'widgets.test.example.com "applied" is forbidden: create not allowed while custom resource definition is terminating');
    const u = await api(s.url, "PATCH", `${WIDGETS}/held`, { spec: { color: "red" } }, MERGE);
    assert.equal(u.status, 200);
  });

  it("removes the CRD once the last instance is gone", async () => {
    assert.equal((await api(s.url, "GET", `${CRDS}/${NAME}`)).status, 200);
    const p = await api(s.url, "PATCH", `${WIDGETS}/held`, { metadata: { finalizers: null } }, MERGE);
    assert.equal(p.status, 200);
    const gone = await until(() => api(s.url, "GET", `${CRDS}/${NAME}`), (r) => r.status === 404);
    assert.equal(gone.status, 404);
    assert.equal((await api(s.url, "GET", WIDGETS)).status, 404);
    assert.deepEqual((await s.store.list("/registry/test.example.com/")).items, []);
  });

  it("keeps a CRD with other finalizers (Terminating=False, InstanceDeletionCompleted) until they are removed", async () => {
    const crd = widgetCrd();
    (crd as { metadata: Record<string, unknown> }).metadata["finalizers"] = ["example.com/keep"];
    assert.equal((await api(s.url, "POST", CRDS, crd)).status, 201);
    assert.equal((await api(s.url, "DELETE", `${CRDS}/${NAME}`)).status, 200);
    const done = await until(
      async () => (await api(s.url, "GET", `${CRDS}/${NAME}`)).json,
      (c) => terminating(c)?.[0] === "False",
    );
    assert.deepEqual(terminating(done), ["False", "InstanceDeletionCompleted", "removed all instances"]);
    assert.deepEqual(done.metadata.finalizers, ["example.com/keep"]);
    const p = await api(s.url, "PATCH", `${CRDS}/${NAME}`, { metadata: { finalizers: null } }, MERGE);
    assert.equal(p.status, 200, p.text);
    assert.equal((await api(s.url, "GET", `${CRDS}/${NAME}`)).status, 404);
  });
});

describe("CRD deletion across a restart", () => {
  it("resumes the cleanup of a terminating CRD when the server starts again", async () => {
    const dir = mkdtempSync(join(tmpdir(), "crdkit-crd-delete-"));
    try {
      const a = await startServer({ dataDir: dir });
      assert.equal((await api(a.url, "POST", CRDS, widgetCrd())).status, 201);
      assert.equal((await api(a.url, "POST", WIDGETS, widget("held", {}, { finalizers: ["example.com/hold"] }))).status, 201);
      assert.equal((await api(a.url, "DELETE", `${CRDS}/${NAME}`)).status, 200);
      await until(() => api(a.url, "GET", `${WIDGETS}/held`), (r) => r.json.metadata.deletionTimestamp !== undefined);
      await a.close();
      const b = await startServer({ dataDir: dir });
      try {
        const crd = (await api(b.url, "GET", `${CRDS}/${NAME}`)).json;
        assert.deepEqual(terminating(crd), ["True", "InstanceDeletionInProgress", "CustomResource deletion is in progress"]);
        assert.equal((await api(b.url, "PATCH", `${WIDGETS}/held`, { metadata: { finalizers: null } }, MERGE)).status, 200);
        const gone = await until(() => api(b.url, "GET", `${CRDS}/${NAME}`), (r) => r.status === 404);
        assert.equal(gone.status, 404);
      } finally {
        await b.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
