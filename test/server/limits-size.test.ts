/**
 * Stored object size (issue 13): nothing larger than a default etcd accepts is stored, on any write path,
 * with the API server's answer (500, the etcd client's text); creates, updates and non-apply patches
 * retry without managedFields as the API server does; the 3 MiB body limit holds on every path.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../src/server/server.js";
import { api } from "./client.js";

const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const BAGS = "/apis/test.example.com/v1/namespaces/default/bags";
const TOO_LARGE = "etcdserver: request is too large";
const open = { type: "object", "x-kubernetes-preserve-unknown-fields": true };

function bagCrd(): unknown {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "bags.test.example.com" },
    spec: {
      group: "test.example.com",
      scope: "Namespaced",
      names: { plural: "bags", singular: "bag", kind: "Bag" },
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: "object", properties: { spec: open, status: open } } },
          subresources: { status: {}, scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas" } },
        },
      ],
    },
  };
}

function bag(name: string, spec: unknown = {}): Record<string, unknown> {
  return { apiVersion: "test.example.com/v1", kind: "Bag", metadata: { name }, spec };
}

/** The API server's Status for an error that is not a Status (etcd's). */
function unknownStatus(message: string): unknown {
  return { apiVersion: "v1", code: 500, kind: "Status", message, metadata: {}, status: "Failure" };
}

const MB = 1024 * 1024;
let srv: RunningServer;
before(async () => {
  srv = await startServer();
  assert.equal((await api(srv.url, "POST", CRDS, bagCrd())).status, 201);
});
after(() => srv.close());

describe("stored object size", () => {
  it("create: over etcd's 1.5 MiB request limit → 500 etcdserver: request is too large; over 2 MiB → the gRPC client's text", async () => {
    const r = await api(srv.url, "POST", BAGS, bag("big", { pad: "x".repeat(1.6 * MB) }));
    assert.equal(r.status, 500);
    assert.deepEqual(r.json, unknownStatus(TOO_LARGE));
    const r2 = await api(srv.url, "POST", BAGS, bag("bigger", { pad: "x".repeat(2.5 * MB) }));
    assert.equal(r2.status, 500);
    assert.match(r2.json.message, /^rpc error: code = ResourceExhausted desc = trying to send message larger than max \(26\d{5} vs\. 2097152\)$/);
    assert.equal((await api(srv.url, "GET", `${BAGS}/big`)).status, 404);
    const ok = await api(srv.url, "POST", BAGS, bag("fits", { pad: "x".repeat(1.4 * MB) }));
    assert.equal(ok.status, 201);
  });

  it("create and update drop managedFields and retry when only they make the object too large; apply does not", async () => {
    // 70,000 fields: ~0.8 MB of object, ~1 MB more of managedFields.
    const spec: Record<string, number> = {};
    for (let i = 0; i < 70_000; i++) spec[`k${String(i).padStart(5, "0")}`] = 1;
    const r = await api(srv.url, "POST", BAGS, bag("wide", spec));
    assert.equal(r.status, 201, r.text.slice(0, 300));
    assert.equal(r.json.metadata.managedFields, undefined);
    const got = await api(srv.url, "GET", `${BAGS}/wide`);
    assert.equal(Object.keys(got.json.spec).length, 70_000);
    assert.equal(got.json.metadata.managedFields, undefined);
    const put = await api(srv.url, "PUT", `${BAGS}/wide`, { ...bag("wide", { ...spec, extra: 1 }), metadata: { name: "wide", resourceVersion: got.json.metadata.resourceVersion } });
    assert.equal(put.status, 200, put.text.slice(0, 300));
    assert.equal(put.json.metadata.managedFields, undefined);
    const apply = await api(srv.url, "PATCH", `${BAGS}/wide2?fieldManager=m`, JSON.stringify(bag("wide2", spec)), { "Content-Type": "application/apply-patch+yaml" });
    assert.equal(apply.status, 500, apply.text.slice(0, 300));
    assert.deepEqual(apply.json, unknownStatus(TOO_LARGE));
  });

  it("update, merge/JSON/apply patches, /status and /scale cannot grow an object past the limit", async () => {
    const base = await api(srv.url, "POST", BAGS, bag("grow", { replicas: 1, pad: "y".repeat(0.75 * MB) }));
    assert.equal(base.status, 201);
    const rv = base.json.metadata.resourceVersion;
    const pad = "z".repeat(0.8 * MB);
    const attempts: [string, string, unknown, Record<string, string>][] = [
      ["PUT", `${BAGS}/grow`, { ...bag("grow", { replicas: 1, pad: "y".repeat(0.75 * MB), more: pad }), metadata: { name: "grow", resourceVersion: rv } }, {}],
      ["PATCH", `${BAGS}/grow`, { spec: { more: pad } }, { "Content-Type": "application/merge-patch+json" }],
      ["PATCH", `${BAGS}/grow`, [{ op: "copy", from: "/spec/pad", path: "/spec/more" }], { "Content-Type": "application/json-patch+json" }],
      ["PATCH", `${BAGS}/grow?fieldManager=m`, JSON.stringify({ apiVersion: "test.example.com/v1", kind: "Bag", metadata: { name: "grow" }, spec: { more: pad } }), { "Content-Type": "application/apply-patch+yaml" }],
      ["PUT", `${BAGS}/grow/status`, { ...bag("grow"), metadata: { name: "grow", resourceVersion: rv }, status: { more: pad } }, {}],
      ["PATCH", `${BAGS}/grow/status`, { status: { more: pad } }, { "Content-Type": "application/merge-patch+json" }],
      ["PATCH", `${BAGS}/grow/scale`, { spec: { replicas: 3 }, metadata: { annotations: { a: pad } } }, { "Content-Type": "application/merge-patch+json" }],
    ];
    for (const [method, path, body, headers] of attempts) {
      const r = await api(srv.url, method, path, body, headers);
      if (path.endsWith("/scale")) {
        // Scale carries only replicas: the object grows by nothing and is stored.
        assert.equal(r.status, 200, `${method} ${path}: ${r.text.slice(0, 200)}`);
        continue;
      }
      assert.equal(r.status, 500, `${method} ${path}: ${r.text.slice(0, 200)}`);
      assert.deepEqual(r.json, unknownStatus(TOO_LARGE), `${method} ${path}`);
    }
    const got = await api(srv.url, "GET", `${BAGS}/grow`);
    assert.equal(got.json.spec.more, undefined);
    assert.equal(got.json.status, undefined);
  });

  it("keeps the 3 MiB body limit on every write path", async () => {
    const huge = "w".repeat(3 * MB);
    const limit = "Request entity too large: limit is 3145728";
    const paths: [string, string, string][] = [
      ["POST", BAGS, "application/json"],
      ["PUT", `${BAGS}/fits`, "application/json"],
      ["PATCH", `${BAGS}/fits`, "application/merge-patch+json"],
      ["PATCH", `${BAGS}/fits`, "application/json-patch+json"],
      ["PATCH", `${BAGS}/fits?fieldManager=m`, "application/apply-patch+yaml"],
      ["PUT", `${BAGS}/fits/status`, "application/json"],
      ["PATCH", `${BAGS}/fits/scale`, "application/merge-patch+json"],
      ["DELETE", `${BAGS}/fits`, "application/json"],
    ];
    for (const [method, path, type] of paths) {
      const r = await api(srv.url, method, path, JSON.stringify({ pad: huge }), { "Content-Type": type });
      assert.equal(r.status, 413, `${method} ${path}`);
      assert.equal(r.json.message, limit);
    }
  });
});
