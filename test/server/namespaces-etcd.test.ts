/**
 * Namespaces in etcd as kube-apiserver keeps them: `<prefix>/namespaces/<name>` holding the object's JSON
 * (no resourceVersion); a Namespace written by another API server is served, admits content, and its
 * deletion by crdkit's namespace controller removes the content written before.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../src/server/server.js";
import { EtcdClient } from "../../src/storage/etcd/etcd-client.js";
import { EtcdStore } from "../../src/storage/etcd/etcd-store.js";
import { EtcdProcess } from "../storage/etcd-process.js";
import { api, widget, widgetCrd } from "./client.js";

const PREFIX = "/kube-registry";

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  let v = await probe();
  for (let i = 0; i < 400 && !ok(v); i++) {
    await new Promise((r) => setTimeout(r, 25));
    v = await probe();
  }
  return v;
}

describe("Namespaces in etcd", { timeout: 60_000 }, () => {
  let etcd: EtcdProcess;
  let s: RunningServer;
  let raw: EtcdClient;
  before(async () => {
    etcd = await EtcdProcess.start();
    s = await startServer({ ui: false, namespaceDeletionDelayMs: 0, store: new EtcdStore({ servers: [etcd.url], prefix: PREFIX, compactionIntervalMs: 0 }) });
    raw = new EtcdClient({ servers: [etcd.url] });
    assert.equal((await api(s.url, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", widgetCrd())).status, 201);
  });
  after(async () => {
    raw?.close();
    await s?.close();
    await etcd?.cleanup();
  });

  it("stores the system namespaces and created ones under <prefix>/namespaces/<name>", async () => {
    const c = await api(s.url, "POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: "team" } });
    assert.equal(c.status, 201);
    const kv = (await raw.range({ key: Buffer.from(`${PREFIX}/namespaces/team`) })).kvs[0]!;
    assert.equal(String(kv.mod_revision), c.json.metadata.resourceVersion);
    const stored = JSON.parse(kv.value.toString("utf8"));
    const { resourceVersion: _rv, ...meta } = c.json.metadata;
    assert.deepEqual(stored, { ...c.json, metadata: meta });
    for (const n of ["default", "kube-system", "kube-public", "kube-node-lease"]) {
      assert.equal((await raw.range({ key: Buffer.from(`${PREFIX}/namespaces/${n}`) })).kvs.length, 1, n);
    }
  });

  it("two replicas: a namespace created through one admits content through the other; both run the controller", async () => {
    const s2 = await startServer({ ui: false, namespaceDeletionDelayMs: 0, store: new EtcdStore({ servers: [etcd.url], prefix: PREFIX, compactionIntervalMs: 0 }) });
    try {
      assert.equal((await api(s2.url, "POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: "shared" } })).status, 201);
      await until(() => api(s.url, "GET", "/apis/test.example.com/v1"), (r) => r.status === 200);
      for (let i = 0; i < 5; i++) {
        const w = await api(i % 2 === 0 ? s.url : s2.url, "POST", "/apis/test.example.com/v1/namespaces/shared/widgets", widget(`w${i}`));
        assert.equal(w.status, 201, w.text);
      }
      const inShared = () =>
        raw.range({ key: Buffer.from(`${PREFIX}/test.example.com/widgets/shared/`), range_end: Buffer.from(`${PREFIX}/test.example.com/widgets/shared0`) });
      assert.equal((await inShared()).kvs.length, 5);
      assert.equal((await api(s.url, "DELETE", "/api/v1/namespaces/shared")).status, 200);
      const gone = await until(() => api(s2.url, "GET", "/api/v1/namespaces/shared"), (r) => r.status === 404);
      assert.equal(gone.status, 404);
      assert.equal((await inShared()).kvs.length, 0);
    } finally {
      await s2.close();
    }
  });

  it("serves a Namespace another API server wrote (Go struct order) and deletes its content", async () => {
    const text =
      '{"kind":"Namespace","apiVersion":"v1","metadata":{"name":"from-kube","uid":"6f1d3c1e-0000-4000-8000-000000000001","creationTimestamp":"2026-01-02T03:04:05Z","labels":{"kubernetes.io/metadata.name":"from-kube"}},"spec":{"finalizers":["kubernetes"]},"status":{"phase":"Active"}}\n';
    await raw.txn({ compare: [], success: [{ request_put: { key: Buffer.from(`${PREFIX}/namespaces/from-kube`), value: Buffer.from(text) } }], failure: [] });
    const got = await api(s.url, "GET", "/api/v1/namespaces/from-kube");
    assert.equal(got.status, 200);
    assert.equal(got.json.metadata.uid, "6f1d3c1e-0000-4000-8000-000000000001");
    assert.equal((await api(s.url, "POST", "/apis/test.example.com/v1/namespaces/from-kube/widgets", widget("w"))).status, 201);
    assert.equal((await api(s.url, "DELETE", "/api/v1/namespaces/from-kube")).status, 200);
    const gone = await until(() => api(s.url, "GET", "/api/v1/namespaces/from-kube"), (r) => r.status === 404);
    assert.equal(gone.status, 404);
    assert.equal((await raw.range({ key: Buffer.from(`${PREFIX}/test.example.com/widgets/from-kube/w`) })).kvs.length, 0);
  });
});
