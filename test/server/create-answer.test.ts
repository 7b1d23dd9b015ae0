/**
 * A create's JSON answer is what reading the stored object back answers (Kubernetes decodes the bytes it
 * wrote), also where crdkit builds it from the stored encoding (rest-common.ts encodeWrite): compared, as
 * text, with the same object in a list (decoded from the store every time). Read defaults (a status default
 * after the create's status reset), a float -0 (read back as int64 0), metadata keys of any kind, and a
 * cluster-scoped object (no namespace before the resourceVersion) each take the path they need.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { goJsonMarshal } from "../../src/go/json.js";
import { type RunningServer, startServer } from "../../src/server/server.js";
import { MemoryStore } from "../../src/storage/memory-store.js";
import { api } from "./client.js";

const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

function crd(plural: string, scope: "Namespaced" | "Cluster", schema: Record<string, unknown>, status = false): Record<string, unknown> {
  const kind = plural[0]!.toUpperCase() + plural.slice(1, -1);
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${plural}.answers.example.com` },
    spec: {
      group: "answers.example.com",
      scope,
      names: { plural, singular: plural.slice(0, -1), kind },
      versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: schema }, ...(status ? { subresources: { status: {} } } : {}) }],
    },
  };
}

describe("create answers", () => {
  let s: RunningServer;
  before(async () => {
    s = await startServer({ store: new MemoryStore(), ui: false });
    const open = { type: "object", properties: { spec: { type: "object", "x-kubernetes-preserve-unknown-fields": true } } };
    const defaulted = {
      type: "object",
      properties: {
        spec: { type: "object", properties: { size: { type: "string", default: "m" } } },
        status: { type: "object", default: { phase: "New" }, properties: { phase: { type: "string" } } },
      },
    };
    for (const c of [crd("plains", "Namespaced", open), crd("defaulteds", "Namespaced", defaulted, true), crd("globals", "Cluster", open)]) {
      const r = await api(s.url, "POST", CRDS, c);
      assert.equal(r.status, 201, r.text);
    }
  });
  after(() => s.close());

  /** Creates `body` in `path` and checks the answer against the object as a list decodes it. */
  async function created(path: string, body: unknown): Promise<string> {
    const r = await api(s.url, "POST", path, body);
    assert.equal(r.status, 201, r.text);
    const list = await api(s.url, "GET", path);
    const item = (list.json.items as { metadata: { name: string } }[]).find((o) => o.metadata.name === r.json.metadata.name);
    assert.ok(item, "the created object is listed");
    assert.equal(r.text, goJsonMarshal(item));
    return r.text;
  }

  it("answers the stored object with its resourceVersion, whatever its metadata holds", async () => {
    const text = await created("/apis/answers.example.com/v1/namespaces/default/plains", {
      apiVersion: "answers.example.com/v1",
      kind: "Plain",
      metadata: { name: "p1", labels: { "a/b": "x" }, annotations: { resourceVersion: "not this", z: "é<&>\u{1F600}" }, finalizers: ["example.com/f"] },
      spec: { n: 1, f: 1.5, big: 2 ** 60, s: "line\u2028sep", "é": 1, "\u{1F600}": 2 },
    });
    assert.match(text, /"resourceVersion":"\d+","uid":/);
    await created("/apis/answers.example.com/v1/globals", { apiVersion: "answers.example.com/v1", kind: "Global", metadata: { name: "g1" }, spec: {} });
  });

  it("applies read defaults the create did not store (a status default after the status reset)", async () => {
    const text = await created("/apis/answers.example.com/v1/namespaces/default/defaulteds", {
      apiVersion: "answers.example.com/v1",
      kind: "Defaulted",
      metadata: { name: "d1" },
      spec: {},
      status: { phase: "Set" },
    });
    assert.match(text, /"spec":\{"size":"m"\},"status":\{"phase":"New"\}/);
  });

  it("answers a float -0 as the 0 it reads back", async () => {
    const text = await created("/apis/answers.example.com/v1/namespaces/default/plains", '{"apiVersion":"answers.example.com/v1","kind":"Plain","metadata":{"name":"z1"},"spec":{"zero":-0.0,"list":[-0.0]}}');
    assert.match(text, /"spec":\{"list":\[0\],"zero":0\}/);
  });
});
