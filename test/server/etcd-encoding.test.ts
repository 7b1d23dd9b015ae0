/**
 * What crdkit writes to etcd is what kube-apiserver writes: keys `<--etcd-prefix>/<group>/<plural>/<ns>/<name>`
 * (CRDs under `apiextensions.k8s.io/customresourcedefinitions/`), values the object's JSON as Go's
 * `json.Encoder` writes an unstructured object (sorted keys, `\u003c` escapes, final newline) without
 * `metadata.resourceVersion`, whose value is the key's mod revision on read.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../src/server/server.js";
import { EtcdClient } from "../../src/storage/etcd/etcd-client.js";
import { EtcdStore } from "../../src/storage/etcd/etcd-store.js";
import { goJsonMarshal } from "../../src/go/json.js";
import { EtcdProcess } from "../storage/etcd-process.js";
import { api, widget, widgetCrd, WIDGETS } from "./client.js";

describe("etcd keys and encoding", { timeout: 60_000 }, () => {
  let etcd: EtcdProcess;
  let s: RunningServer;
  let raw: EtcdClient;
  before(async () => {
    etcd = await EtcdProcess.start();
    s = await startServer({ store: new EtcdStore({ servers: [etcd.url], prefix: "/kube-registry", compactionIntervalMs: 0 }) });
    raw = new EtcdClient({ servers: [etcd.url] });
  });
  after(async () => {
    raw?.close();
    await s?.close();
    await etcd?.cleanup();
  });

  it("stores custom resources and CRDs under the prefix as the API server's JSON", async () => {
    const crd = await api(s.url, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", widgetCrd());
    assert.equal(crd.status, 201);
    const w = await api(s.url, "POST", WIDGETS, widget("w-1", { color: "<red>", count: 3 }));
    assert.equal(w.status, 201);
    const got = await raw.range({ key: Buffer.from("/kube-registry/test.example.com/widgets/default/w-1") });
    const kv = got.kvs[0]!;
    assert.equal(String(kv.mod_revision), w.json.metadata.resourceVersion);
    const text = kv.value.toString("utf8");
    const stored = JSON.parse(text);
    assert.equal(text, `${goJsonMarshal(stored)}\n`);
    assert.ok(text.includes('"color":"\\u003cred\\u003e"'));
    assert.equal(stored.metadata.resourceVersion, undefined);
    const { resourceVersion, ...meta } = w.json.metadata;
    assert.equal(resourceVersion, String(kv.mod_revision));
    assert.deepEqual(stored, { ...w.json, metadata: meta });
    const crdKv = (await raw.range({ key: Buffer.from("/kube-registry/apiextensions.k8s.io/customresourcedefinitions/widgets.test.example.com") })).kvs[0]!;
    const storedCrd = JSON.parse(crdKv.value.toString("utf8"));
    assert.equal(storedCrd.metadata.resourceVersion, undefined);
    assert.equal(storedCrd.status.acceptedNames.plural, "widgets");
  });
});
