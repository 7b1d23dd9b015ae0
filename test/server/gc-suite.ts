/**
 * The garbage collector through HTTP, as a cluster's kube-controller-manager behaves
 * (test/e2e/apimachinery/garbage_collector.go, test/integration/garbagecollector): background, foreground
 * (blockOwnerDeletion waited for) and orphan propagation, dangling references removed while an owner is left,
 * an owner recreated with another uid, an owner in another namespace, cycles, many dependents, unresolvable
 * kinds, restarts mid-deletion. Run on SQLite (gc-sqlite.test.ts) and etcd (gc-etcd.test.ts).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type LogRecord, type RunningServer, type ServerOptions, startServer } from "../../src/server/server.js";
import type { Store } from "../../src/storage/types.js";
import { api, type ApiResponse, widget, widgetCrd, until, WIDGETS } from "./client.js";

/** How a suite gets its stores: `open()` a fresh store on the suite's backend (the same data each call). */
export interface GcBackend {
  /** A store on the suite's data (each call: a new client of the same data, for restarts). */
  open(): Store;
  cleanup(): Promise<void>;
}

const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const PLANETS = "/apis/test.example.com/v1/planets";

const gone = (base: string, path: string) => until(() => api(base, "GET", path), (r) => r.status === 404, `${path} deleted`);

function ref(owner: ApiResponse, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: owner.json.apiVersion, kind: owner.json.kind, name: owner.json.metadata.name, uid: owner.json.metadata.uid, ...extra };
}

async function create(base: string, path: string, body: Record<string, unknown>): Promise<ApiResponse> {
  const r = await api(base, "POST", path, body);
  assert.equal(r.status, 201, r.text);
  return r;
}

function planetCrd(): Record<string, unknown> {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "planets.test.example.com" },
    spec: {
      group: "test.example.com",
      scope: "Cluster",
      names: { plural: "planets", singular: "planet", kind: "Planet" },
      versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } } }],
    },
  };
}

export function gcSuite(name: string, backend: () => Promise<GcBackend>, skip: string | false = false): void {
  describe(`garbage collector (${name})`, { timeout: 240_000, skip }, () => {
    let b: GcBackend;
    let s: RunningServer;
    const logs: LogRecord[] = [];
    const serve = (opts: ServerOptions = {}) => startServer({ ui: false, store: b.open(), log: (r) => logs.push(r), logRequests: false, ...opts });
    before(async () => {
      b = await backend();
      s = await serve();
      assert.equal((await api(s.url, "POST", CRDS, widgetCrd())).status, 201);
      assert.equal((await api(s.url, "POST", CRDS, planetCrd())).status, 201);
      await until(() => api(s.url, "GET", WIDGETS), (r) => r.status === 200, "widgets served");
      await until(() => api(s.url, "GET", PLANETS), (r) => r.status === 200, "planets served");
      assert.equal((await api(s.url, "POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: "other" } })).status, 201);
    });
    after(async () => {
      await s?.close();
      await b?.cleanup();
    });

    it("background (the default): the dependents of a deleted owner are deleted", async () => {
      const owner = await create(s.url, WIDGETS, widget("bg-owner"));
      await create(s.url, WIDGETS, widget("bg-dep1", {}, { ownerReferences: [ref(owner)] }));
      await create(s.url, WIDGETS, widget("bg-dep2", {}, { ownerReferences: [ref(owner, { controller: true, blockOwnerDeletion: true })] }));
      const d = await api(s.url, "DELETE", `${WIDGETS}/bg-owner`);
      assert.equal(d.status, 200);
      assert.equal(d.json.kind, "Status");
      assert.equal(d.json.status, "Success");
      await gone(s.url, `${WIDGETS}/bg-dep1`);
      await gone(s.url, `${WIDGETS}/bg-dep2`);
    });

    it("a dependent with another owner left loses only the dangling reference (as an update of kube-controller-manager)", async () => {
      const a = await create(s.url, WIDGETS, widget("two-a"));
      const bo = await create(s.url, WIDGETS, widget("two-b"));
      const dep = await create(s.url, `${WIDGETS}?fieldManager=maker`, widget("two-dep", {}, { ownerReferences: [ref(a), ref(bo)] }));
      assert.equal((await api(s.url, "DELETE", `${WIDGETS}/two-a`)).status, 200);
      const left = await until(() => api(s.url, "GET", `${WIDGETS}/two-dep`), (r) => r.json?.metadata?.ownerReferences?.length === 1, "dangling reference removed");
      assert.deepEqual(left.json.metadata.ownerReferences, [ref(bo)]);
      assert.ok(Number(left.json.metadata.resourceVersion) > Number(dep.json.metadata.resourceVersion));
      // Only "maker" owns fields: the collector removed a list item and owns nothing itself.
      assert.deepEqual(
        left.json.metadata.managedFields.map((m: { manager: string }) => m.manager),
        ["maker"],
      );
      assert.deepEqual(left.json.metadata.managedFields[0].fieldsV1["f:metadata"]["f:ownerReferences"], {
        ".": {},
        // An OwnerReference is an atomic struct: owned whole.
        [`k:{"uid":"${bo.json.metadata.uid}"}`]: {},
      });
      assert.equal((await api(s.url, "DELETE", `${WIDGETS}/two-b`)).status, 200);
      await gone(s.url, `${WIDGETS}/two-dep`);
    });

    it("foreground: the owner waits (foregroundDeletion) for its blocking dependents, then goes", async () => {
      const owner = await create(s.url, WIDGETS, widget("fg-owner"));
      await create(s.url, WIDGETS, widget("fg-free", {}, { ownerReferences: [ref(owner)] }));
      await create(s.url, WIDGETS, widget("fg-block", {}, { ownerReferences: [ref(owner, { blockOwnerDeletion: true })], finalizers: ["example.com/hold"] }));
      const d = await api(s.url, "DELETE", `${WIDGETS}/fg-owner`, { kind: "DeleteOptions", apiVersion: "v1", propagationPolicy: "Foreground" });
      assert.equal(d.status, 200);
      assert.deepEqual(d.json.metadata.finalizers, ["foregroundDeletion"]);
      assert.equal(typeof d.json.metadata.deletionTimestamp, "string");
      await gone(s.url, `${WIDGETS}/fg-free`);
      // The blocking dependent is marked (its finalizer holds it); the owner waits for it.
      const held = await until(() => api(s.url, "GET", `${WIDGETS}/fg-block`), (r) => typeof r.json?.metadata?.deletionTimestamp === "string", "blocking dependent marked");
      assert.deepEqual(held.json.metadata.finalizers, ["example.com/hold"]);
      const o = await api(s.url, "GET", `${WIDGETS}/fg-owner`);
      assert.equal(o.status, 200);
      assert.deepEqual(o.json.metadata.finalizers, ["foregroundDeletion"]);
      assert.equal((await api(s.url, "PATCH", `${WIDGETS}/fg-block`, { metadata: { finalizers: null } }, { "Content-Type": "application/merge-patch+json" })).status, 200);
      await gone(s.url, `${WIDGETS}/fg-block`);
      await gone(s.url, `${WIDGETS}/fg-owner`);
    });

    it("orphan: the dependents lose the owner's reference, then the owner goes", async () => {
      const owner = await create(s.url, WIDGETS, widget("or-owner"));
      const other = await create(s.url, WIDGETS, widget("or-other"));
      await create(s.url, WIDGETS, widget("or-dep1", {}, { ownerReferences: [ref(owner)] }));
      await create(s.url, WIDGETS, widget("or-dep2", {}, { ownerReferences: [ref(owner), ref(other)] }));
      const d = await api(s.url, "DELETE", `${WIDGETS}/or-owner?propagationPolicy=Orphan`);
      assert.equal(d.status, 200);
      assert.deepEqual(d.json.metadata.finalizers, ["orphan"]);
      await gone(s.url, `${WIDGETS}/or-owner`);
      const d1 = await api(s.url, "GET", `${WIDGETS}/or-dep1`);
      assert.equal(d1.status, 200);
      assert.equal(d1.json.metadata.ownerReferences, undefined);
      const d2 = await api(s.url, "GET", `${WIDGETS}/or-dep2`);
      assert.deepEqual(d2.json.metadata.ownerReferences, [ref(other)]);
    });

    it("orphanDependents: false answers 202 while the owner waits; true orphans", async () => {
      const owner = await create(s.url, WIDGETS, widget("legacy-owner"));
      await create(s.url, WIDGETS, widget("legacy-dep", {}, { ownerReferences: [ref(owner)] }));
      const d = await api(s.url, "DELETE", `${WIDGETS}/legacy-owner`, { kind: "DeleteOptions", apiVersion: "v1", orphanDependents: true });
      assert.equal(d.status, 200);
      assert.deepEqual(d.json.metadata.finalizers, ["orphan"]);
      await gone(s.url, `${WIDGETS}/legacy-owner`);
      assert.equal((await api(s.url, "GET", `${WIDGETS}/legacy-dep`)).json.metadata.ownerReferences, undefined);
      const o2 = await create(s.url, WIDGETS, widget("legacy-owner2", {}, { finalizers: ["example.com/hold"] }));
      const d2 = await api(s.url, "DELETE", `${WIDGETS}/legacy-owner2`, { kind: "DeleteOptions", apiVersion: "v1", orphanDependents: false });
      assert.equal(d2.status, 202);
      assert.deepEqual(d2.json.metadata.finalizers, ["example.com/hold"]);
      assert.equal(o2.json.metadata.generation, 1);
      assert.equal(d2.json.metadata.generation, 2);
      assert.equal((await api(s.url, "PATCH", `${WIDGETS}/legacy-owner2`, { metadata: { finalizers: null } }, { "Content-Type": "application/merge-patch+json" })).status, 200);
      await gone(s.url, `${WIDGETS}/legacy-owner2`);
    });

    it("an owner recreated with the same name (another uid) is absent: the dependent goes", async () => {
      const first = await create(s.url, WIDGETS, widget("again"));
      assert.equal((await api(s.url, "DELETE", `${WIDGETS}/again`)).status, 200);
      const second = await create(s.url, WIDGETS, widget("again"));
      assert.notEqual(second.json.metadata.uid, first.json.metadata.uid);
      await create(s.url, WIDGETS, widget("again-dep", {}, { ownerReferences: [ref(first)] }));
      await gone(s.url, `${WIDGETS}/again-dep`);
      assert.equal((await api(s.url, "GET", `${WIDGETS}/again`)).status, 200);
    });

    it("a namespaced dependent's owner is looked up in its own namespace", async () => {
      const owner = await create(s.url, WIDGETS, widget("ns-owner"));
      const OTHER = "/apis/test.example.com/v1/namespaces/other/widgets";
      await create(s.url, OTHER, widget("ns-dep", {}, { ownerReferences: [ref(owner)] }));
      await gone(s.url, `${OTHER}/ns-dep`);
      assert.equal((await api(s.url, "GET", `${WIDGETS}/ns-owner`)).status, 200);
      // A cluster-scoped owner is found from any namespace.
      const planet = await create(s.url, PLANETS, { apiVersion: "test.example.com/v1", kind: "Planet", metadata: { name: "earth" } });
      await create(s.url, OTHER, widget("moon", {}, { ownerReferences: [ref(planet)] }));
      assert.equal((await api(s.url, "DELETE", `${PLANETS}/earth`)).status, 200);
      await gone(s.url, `${OTHER}/moon`);
    });

    it("a cluster-scoped dependent naming a namespaced owner is left alone (the reference is invalid)", async () => {
      const owner = await create(s.url, WIDGETS, widget("ns-owner2"));
      await create(s.url, PLANETS, { apiVersion: "test.example.com/v1", kind: "Planet", metadata: { name: "mars", ownerReferences: [ref(owner)] } });
      assert.equal((await api(s.url, "DELETE", `${WIDGETS}/ns-owner2`)).status, 200);
      await until(
        async () => ({ status: logs.some((l) => l["msg"] === "garbage collector: invalid owner reference" && String(l["error"]).includes("mars")) ? 200 : 0 }) as ApiResponse,
        (r) => r.status === 200,
        "invalid reference reported",
      );
      assert.equal((await api(s.url, "GET", `${PLANETS}/mars`)).status, 200);
    });

    it("an owner of a kind no served resource has: the dependent stays, retried", async () => {
      await create(s.url, WIDGETS, widget("unknown-kind", {}, { ownerReferences: [{ apiVersion: "nope.example.com/v1", kind: "Nope", name: "x", uid: "u-1" }] }));
      await until(
        async () =>
          ({ status: logs.some((l) => l["msg"] === "garbage collector: will retry" && String(l["error"]) === "unable to get REST mapping for nope.example.com/v1, Kind=Nope") ? 200 : 0 }) as ApiResponse,
        (r) => r.status === 200,
        "unresolvable kind reported",
      );
      assert.equal((await api(s.url, "GET", `${WIDGETS}/unknown-kind`)).status, 200);
    });

    it("a dependent created with an owner that does not exist is deleted", async () => {
      await create(s.url, WIDGETS, widget("no-owner", {}, { ownerReferences: [{ apiVersion: "test.example.com/v1", kind: "Widget", name: "ghost", uid: "0000-ghost" }] }));
      await gone(s.url, `${WIDGETS}/no-owner`);
    });

    it("a cycle of owners deleted in the foreground goes completely", async () => {
      const a = await create(s.url, WIDGETS, widget("cyc-a"));
      const bb = await create(s.url, WIDGETS, widget("cyc-b", {}, { ownerReferences: [ref(a, { blockOwnerDeletion: true })] }));
      const patched = await api(s.url, "PATCH", `${WIDGETS}/cyc-a`, { metadata: { ownerReferences: [ref(bb, { blockOwnerDeletion: true })] } }, { "Content-Type": "application/merge-patch+json" });
      assert.equal(patched.status, 200, patched.text);
      assert.equal((await api(s.url, "DELETE", `${WIDGETS}/cyc-a?propagationPolicy=Foreground`)).status, 200);
      await gone(s.url, `${WIDGETS}/cyc-a`);
      await gone(s.url, `${WIDGETS}/cyc-b`);
    });

    it("many dependents go with their owner", async () => {
      const owner = await create(s.url, WIDGETS, widget("many-owner"));
      for (let i = 0; i < 60; i++) await create(s.url, WIDGETS, widget(`many-${i}`, {}, { ownerReferences: [ref(owner)] }));
      assert.equal((await api(s.url, "DELETE", `${WIDGETS}/many-owner?propagationPolicy=Foreground`)).status, 200);
      await gone(s.url, `${WIDGETS}/many-owner`);
      const list = await api(s.url, "GET", `${WIDGETS}`);
      assert.deepEqual(
        list.json.items.map((i: { metadata: { name: string } }) => i.metadata.name).filter((n: string) => n.startsWith("many-")),
        [],
      );
    });

    it("a restart mid-deletion finishes the work (the graph is rebuilt from storage)", async () => {
      // A server without the collector sets the finalizers; the next one (with it) finishes.
      await s.close();
      s = await serve({ garbageCollectorController: false });
      const fg = await create(s.url, WIDGETS, widget("rs-fg"));
      await create(s.url, WIDGETS, widget("rs-fg-dep", {}, { ownerReferences: [ref(fg, { blockOwnerDeletion: true })] }));
      const or = await create(s.url, WIDGETS, widget("rs-or"));
      await create(s.url, WIDGETS, widget("rs-or-dep", {}, { ownerReferences: [ref(or)] }));
      const bg = await create(s.url, WIDGETS, widget("rs-bg"));
      await create(s.url, WIDGETS, widget("rs-bg-dep", {}, { ownerReferences: [ref(bg)] }));
      assert.equal((await api(s.url, "DELETE", `${WIDGETS}/rs-fg?propagationPolicy=Foreground`)).status, 200);
      assert.equal((await api(s.url, "DELETE", `${WIDGETS}/rs-or?propagationPolicy=Orphan`)).status, 200);
      assert.equal((await api(s.url, "DELETE", `${WIDGETS}/rs-bg`)).status, 200);
      assert.equal((await api(s.url, "GET", `${WIDGETS}/rs-bg-dep`)).status, 200);
      assert.deepEqual((await api(s.url, "GET", `${WIDGETS}/rs-fg`)).json.metadata.finalizers, ["foregroundDeletion"]);
      await s.close();
      s = await serve();
      await gone(s.url, `${WIDGETS}/rs-fg-dep`);
      await gone(s.url, `${WIDGETS}/rs-fg`);
      await gone(s.url, `${WIDGETS}/rs-bg-dep`);
      await gone(s.url, `${WIDGETS}/rs-or`);
      const kept = await api(s.url, "GET", `${WIDGETS}/rs-or-dep`);
      assert.equal(kept.status, 200);
      assert.equal(kept.json.metadata.ownerReferences, undefined);
    });

    it("--enable-garbage-collector=false: no GC finalizers, dependents stay", async () => {
      await s.close();
      s = await serve({ garbageCollector: false });
      const owner = await create(s.url, WIDGETS, widget("off-owner"));
      await create(s.url, WIDGETS, widget("off-dep", {}, { ownerReferences: [ref(owner)] }));
      const d = await api(s.url, "DELETE", `${WIDGETS}/off-owner?propagationPolicy=Foreground`);
      assert.equal(d.status, 200);
      assert.equal(d.json.kind, "Status");
      assert.equal((await api(s.url, "GET", `${WIDGETS}/off-owner`)).status, 404);
      await s.close();
      // Back with the collector: the dependent of the owner deleted meanwhile goes.
      s = await serve();
      await gone(s.url, `${WIDGETS}/off-dep`);
    });
  });
}
