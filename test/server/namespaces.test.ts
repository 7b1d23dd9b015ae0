/**
 * Namespaces as objects: discovery of the core group, the system namespaces, the strategies (phase,
 * finalizer, name label, DNS-1123 label names), NamespaceLifecycle admission and the namespace controller's
 * deletion of a namespace's custom resources (finalizers respected, conditions as Kubernetes sets them).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { runServe } from "../../src/cli/serve.js";
import { startServer, type RunningServer } from "../../src/server/server.js";
import { api, widget, widgetCrd } from "./client.js";
import { listeningUrl } from "./listening.js";

const NS = "/api/v1/namespaces";
const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const widgets = (ns: string) => `/apis/test.example.com/v1/namespaces/${ns}/widgets`;
const MERGE = { "Content-Type": "application/merge-patch+json" };
const AGGREGATED = { Accept: "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList" };

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  let v = await probe();
  for (let i = 0; i < 400 && !ok(v); i++) {
    await new Promise((r) => setTimeout(r, 25));
    v = await probe();
  }
  return v;
}

const namespace = (name: string, extra: Record<string, unknown> = {}) => ({ apiVersion: "v1", kind: "Namespace", metadata: { name }, ...extra });

type Cond = { type: string; status: string; reason: string; message: string };

describe("Namespaces", () => {
  let s: RunningServer;
  before(async () => {
    // The controller starts at once here (Kubernetes waits 5 s first; tested below).
    s = await startServer({ ui: false, namespaceDeletionDelayMs: 0 });
    assert.equal((await api(s.url, "POST", CRDS, widgetCrd())).status, 201);
  });
  after(async () => {
    await s.close();
  });

  it("serves the core group under /api and not under /apis", async () => {
    const core = await api(s.url, "GET", "/api");
    assert.deepEqual(core.json.versions, ["v1"]);
    assert.equal(core.json.kind, "APIVersions");
    const v1 = await api(s.url, "GET", "/api/v1");
    assert.equal(v1.json.groupVersion, "v1");
    assert.equal(v1.json.apiVersion, undefined);
    assert.deepEqual(
      v1.json.resources.map((r: { name: string; verbs: string[] }) => [r.name, r.verbs.join(",")]),
      [
        ["namespaces", "create,delete,get,list,patch,update,watch"],
        ["namespaces/finalize", "update"],
        ["namespaces/status", "get,patch,update"],
      ],
    );
    assert.equal(v1.json.resources[0].storageVersionHash, "Q3oi5N2YM8M=");
    assert.deepEqual(v1.json.resources[0].shortNames, ["ns"]);
    const agg = await api(s.url, "GET", "/api", undefined, AGGREGATED);
    assert.equal(agg.json.items.length, 1);
    assert.deepEqual(agg.json.items[0].metadata, {});
    const ns = agg.json.items[0].versions[0].resources[0];
    assert.deepEqual([ns.resource, ns.scope, ns.responseKind], ["namespaces", "Cluster", { group: "", version: "", kind: "Namespace" }]);
    assert.deepEqual(
      ns.subresources.map((x: { subresource: string }) => x.subresource),
      ["finalize", "status"],
    );
    const apis = await api(s.url, "GET", "/apis");
    assert.ok(!apis.json.groups.some((g: { name: string }) => g.name === ""));
    assert.equal((await api(s.url, "GET", "/api/v2")).status, 404);
  });

  it("has the system namespaces, Active, with the kubernetes finalizer", async () => {
    const list = await api(s.url, "GET", NS);
    const names = list.json.items.map((n: { metadata: { name: string } }) => n.metadata.name);
    for (const n of ["default", "kube-node-lease", "kube-public", "kube-system"]) assert.ok(names.includes(n), n);
    const def = list.json.items.find((n: { metadata: { name: string } }) => n.metadata.name === "default");
    assert.deepEqual(def.spec, { finalizers: ["kubernetes"] });
    assert.deepEqual(def.status, { phase: "Active" });
    assert.deepEqual(def.metadata.labels, { "kubernetes.io/metadata.name": "default" });
  });

  it("creates a namespace as the strategy does, and refuses bad names", async () => {
    const c = await api(s.url, "POST", NS, namespace("team-a", { status: { phase: "Terminating" } }));
    assert.equal(c.status, 201, c.text);
    assert.deepEqual(c.json.spec, { finalizers: ["kubernetes"] });
    assert.deepEqual(c.json.status, { phase: "Active" });
    assert.equal(c.json.metadata.labels["kubernetes.io/metadata.name"], "team-a");
    assert.equal(c.json.metadata.generation, undefined);
    // The field manager records the request as decoded (the name label), not the finalizer the strategy adds.
    assert.deepEqual(c.json.metadata.managedFields[0].fieldsV1, { "f:metadata": { "f:labels": { ".": {}, "f:kubernetes.io/metadata.name": {} } } });
    const dots = await api(s.url, "POST", NS, namespace("a.b"));
    assert.equal(dots.status, 422);
    assert.equal(dots.json.message, `Namespace "a.b" is invalid: metadata.name: Invalid value: "a.b": must not contain dots`);
    const bad = await api(s.url, "POST", NS, namespace("Team_A"));
    assert.equal(bad.status, 422);
    assert.equal(
      bad.json.message,
      `Namespace "Team_A" is invalid: metadata.name: Invalid value: "Team_A": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
    );
    const fin = await api(s.url, "POST", NS, namespace("team-b", { spec: { finalizers: ["custom"] } }));
    assert.equal(fin.status, 422);
    assert.equal(fin.json.message, `Namespace "team-b" is invalid: spec.finalizers: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified`);
    const dup = await api(s.url, "POST", NS, namespace("team-a"));
    assert.equal(dup.status, 409);
    assert.equal(dup.json.message, `namespaces "team-a" already exists`);
    const strict = await api(s.url, "POST", `${NS}?fieldValidation=Strict`, namespace("team-c", { spec: { color: "red" } }));
    assert.equal(strict.status, 400);
    assert.equal(strict.json.message, `Namespace in version "v1" cannot be handled as a Namespace: strict decoding error: unknown field "spec.color"`);
  });

  it("keeps spec.finalizers and status on update; status and finalize have their own strategies", async () => {
    const p = await api(s.url, "PATCH", `${NS}/team-a`, { metadata: { labels: { tier: "x" } }, spec: { finalizers: [] }, status: { phase: "Terminating" } }, MERGE);
    assert.equal(p.status, 200, p.text);
    assert.deepEqual(p.json.spec, { finalizers: ["kubernetes"] });
    assert.deepEqual(p.json.status, { phase: "Active" });
    assert.equal(p.json.metadata.labels.tier, "x");
    const st = await api(s.url, "PATCH", `${NS}/team-a/status`, { status: { phase: "Terminating" } }, MERGE);
    assert.equal(st.status, 422);
    assert.equal(st.json.message, `Namespace "team-a" is invalid: status.Phase: Invalid value: "Terminating": may only be 'Active' if \`deletionTimestamp\` is empty`);
    assert.equal((await api(s.url, "GET", `${NS}/team-a/finalize`)).status, 405);
    // Namespaces allow unconditional updates (no resourceVersion in the body).
    const put = await api(s.url, "PUT", `${NS}/team-a`, namespace("team-a", { metadata: { name: "team-a", labels: { tier: "y" } } }));
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(put.json.metadata.labels, { tier: "y", "kubernetes.io/metadata.name": "team-a" });
    assert.equal((await api(s.url, "DELETE", NS)).status, 405);
  });

  it("NamespaceLifecycle: creates need an existing namespace; immortal namespaces stay", async () => {
    const missing = await api(s.url, "POST", widgets("nowhere"), widget("w"));
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.json, {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: `namespaces "nowhere" not found`,
      reason: "NotFound",
      details: { name: "nowhere", kind: "namespaces" },
      code: 404,
    });
    assert.equal((await api(s.url, "POST", widgets("team-a"), widget("w"))).status, 201);
    const del = await api(s.url, "DELETE", `${NS}/kube-system`);
    assert.equal(del.status, 403);
    assert.equal(del.json.message, `namespaces "kube-system" is forbidden: this namespace may not be deleted`);
  });

  it("deletes a namespace: Terminating, content removed (finalizers waited for), then gone", async () => {
    assert.equal((await api(s.url, "POST", NS, namespace("doomed"))).status, 201);
    assert.equal((await api(s.url, "POST", widgets("doomed"), widget("plain"))).status, 201);
    const role = { apiVersion: "rbac.authorization.k8s.io/v1", kind: "Role", metadata: { name: "reader" }, rules: [] };
    assert.equal((await api(s.url, "POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/doomed/roles", role)).status, 201);
    assert.equal((await api(s.url, "POST", widgets("doomed"), widget("held", {}, { finalizers: ["example.com/hold"] }))).status, 201);
    const d = await api(s.url, "DELETE", `${NS}/doomed`);
    assert.equal(d.status, 200, d.text);
    assert.equal(d.json.kind, "Namespace");
    assert.equal(d.json.status.phase, "Terminating");
    assert.match(d.json.metadata.deletionTimestamp, /Z$/);
    // New content is refused while the namespace terminates.
    const refused = await api(s.url, "POST", widgets("doomed"), widget("late"));
    assert.equal(refused.status, 403);
    assert.equal(refused.json.message, `widgets.test.example.com "late" is forbidden: unable to create new content in namespace doomed because it is being terminated`);
    assert.deepEqual(refused.json.details, {
      name: "late",
      group: "test.example.com",
      kind: "widgets",
      causes: [{ reason: "NamespaceTerminating", message: "namespace doomed is being terminated", field: "metadata.namespace" }],
    });
    // A second DELETE while the controller works is a conflict.
    const again = await api(s.url, "DELETE", `${NS}/doomed`);
    assert.equal(again.status, 409);
    assert.equal(
      again.json.message,
      `Operation cannot be fulfilled on namespaces "doomed": The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.`,
    );
    const plain = await until(() => api(s.url, "GET", `${widgets("doomed")}/plain`), (r) => r.status === 404);
    assert.equal(plain.status, 404);
    assert.equal((await api(s.url, "GET", "/apis/rbac.authorization.k8s.io/v1/namespaces/doomed/roles/reader")).status, 404);
    const ns = await until(
      async () => (await api(s.url, "GET", `${NS}/doomed`)).json,
      (n) => (n.status.conditions ?? []).some((c: Cond) => c.type === "NamespaceFinalizersRemaining" && c.status === "True"),
    );
    const conds = (ns.status.conditions as Cond[]).map((c) => [c.type, c.status, c.reason, c.message]);
    assert.deepEqual(conds, [
      ["NamespaceDeletionDiscoveryFailure", "False", "ResourcesDiscovered", "All resources successfully discovered"],
      ["NamespaceDeletionGroupVersionParsingFailure", "False", "ParsedGroupVersions", "All legacy kube types successfully parsed"],
      ["NamespaceDeletionContentFailure", "False", "ContentDeleted", "All content successfully deleted, may be waiting on finalization"],
      ["NamespaceContentRemaining", "True", "SomeResourcesRemain", "Some resources are remaining: widgets.test.example.com has 1 resource instances"],
      ["NamespaceFinalizersRemaining", "True", "SomeFinalizersRemain", "Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances"],
    ]);
    assert.deepEqual(ns.spec, { finalizers: ["kubernetes"] });
    const held = await api(s.url, "GET", `${widgets("doomed")}/held`);
    assert.match(held.json.metadata.deletionTimestamp, /Z$/);
    // Releasing the finalizer lets the object go, and then the namespace.
    assert.equal((await api(s.url, "PATCH", `${widgets("doomed")}/held`, { metadata: { finalizers: null } }, MERGE)).status, 200);
    const gone = await until(() => api(s.url, "GET", `${NS}/doomed`), (r) => r.status === 404);
    assert.equal(gone.status, 404);
    assert.equal(gone.json.message, `namespaces "doomed" not found`);
    // Objects of other namespaces are untouched.
    assert.equal((await api(s.url, "GET", `${widgets("team-a")}/w`)).status, 200);
  });

  it("PUT /finalize with no finalizers purges a terminating namespace at once (its content stays in storage)", async () => {
    assert.equal((await api(s.url, "POST", NS, namespace("stuck"))).status, 201);
    assert.equal((await api(s.url, "POST", widgets("stuck"), widget("held", {}, { finalizers: ["example.com/hold"] }))).status, 201);
    assert.equal((await api(s.url, "DELETE", `${NS}/stuck`)).status, 200);
    await until(() => api(s.url, "GET", `${widgets("stuck")}/held`), (r) => r.json.metadata.deletionTimestamp !== undefined);
    const cur = (await api(s.url, "GET", `${NS}/stuck`)).json;
    const bad = await api(s.url, "PUT", `${NS}/stuck/finalize`, { ...cur, spec: { finalizers: ["nope"] } });
    assert.equal(bad.status, 422);
    assert.equal(bad.json.message, `Namespace "stuck" is invalid: spec.finalizers[0]: Invalid value: "nope": name is neither a standard finalizer name nor is it fully qualified`);
    const fin = await api(s.url, "PUT", `${NS}/stuck/finalize`, { ...cur, spec: { finalizers: [] } });
    assert.equal(fin.status, 200, fin.text);
    assert.equal((await api(s.url, "GET", `${NS}/stuck`)).status, 404);
    // As in Kubernetes, the object left behind is not removed (it is still readable by name), and cannot be
    // updated until its namespace exists again.
    assert.equal((await api(s.url, "GET", `${widgets("stuck")}/held`)).status, 200);
    const orphan = await api(s.url, "PATCH", `${widgets("stuck")}/held`, { metadata: { finalizers: null } }, MERGE);
    assert.equal(orphan.status, 404);
    assert.equal(orphan.json.message, `namespaces "stuck" not found`);
    assert.equal((await api(s.url, "POST", NS, namespace("stuck"))).status, 201);
    assert.equal((await api(s.url, "PATCH", `${widgets("stuck")}/held`, { metadata: { finalizers: null } }, MERGE)).status, 200);
    assert.equal((await api(s.url, "GET", `${widgets("stuck")}/held`)).status, 404);
  });

  it("lists namespaces as a Table with kubectl's columns and filters on status.phase", async () => {
    const t = await api(s.url, "GET", `${NS}/team-a`, undefined, { Accept: "application/json;as=Table;v=v1;g=meta.k8s.io" });
    assert.deepEqual(
      t.json.columnDefinitions.map((c: { name: string }) => c.name),
      ["Name", "Status", "Age"],
    );
    assert.deepEqual(t.json.rows[0].cells.slice(0, 2), ["team-a", "Active"]);
    const active = await api(s.url, "GET", `${NS}?fieldSelector=status.phase%3DActive`);
    assert.ok(active.json.items.length >= 5);
    const term = await api(s.url, "GET", `${NS}?fieldSelector=status.phase%3DTerminating`);
    assert.deepEqual(term.json.items, []);
  });
});

describe("Namespace deletion grace period", () => {
  let s: RunningServer;
  before(async () => {
    // A grace period far longer than the test: what the API answers before the controller starts.
    s = await startServer({ ui: false, namespaceDeletionDelayMs: 600_000 });
    assert.equal((await api(s.url, "POST", CRDS, widgetCrd())).status, 201);
  });
  after(async () => {
    await s.close();
  });

  it("leaves the content of a Terminating namespace alone until the grace period ends", async () => {
    assert.equal((await api(s.url, "POST", NS, namespace("shop"))).status, 201);
    assert.equal((await api(s.url, "POST", widgets("shop"), widget("a"))).status, 201);
    assert.equal((await api(s.url, "POST", widgets("shop"), widget("b"))).status, 201);
    assert.equal((await api(s.url, "DELETE", `${NS}/shop`)).status, 200);
    // As `kubectl delete -f` of a file with the Namespace and its objects: the objects are still there.
    const a = await api(s.url, "DELETE", `${widgets("shop")}/a`);
    assert.equal(a.status, 200, a.text);
    assert.equal(a.json.status, "Success");
    const ns = await api(s.url, "GET", `${NS}/shop`);
    assert.equal(ns.json.status.phase, "Terminating");
    assert.equal(ns.json.status.conditions, undefined);
    assert.equal((await api(s.url, "GET", `${widgets("shop")}/b`)).status, 200);
  });
});

describe("Namespaces without the lifecycle admission", () => {
  let s: RunningServer;
  before(async () => {
    s = await startServer({ ui: false, namespaceLifecycle: false });
    assert.equal((await api(s.url, "POST", CRDS, widgetCrd())).status, 201);
  });
  after(async () => {
    await s.close();
  });

  it("accepts custom resources in any namespace name", async () => {
    assert.equal((await api(s.url, "POST", widgets("anywhere"), widget("w"))).status, 201);
    assert.equal((await api(s.url, "GET", `${NS}/anywhere`)).status, 404);
  });
});

describe("crdkit serve --namespace-lifecycle", () => {
  function capture() {
    const out: string[] = [];
    const err: string[] = [];
    return { io: { stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t) }, out, err };
  }

  it("rejects a value other than true or false", async () => {
    const c = capture();
    assert.equal(await runServe(["--namespace-lifecycle=no"], c.io), 2);
    assert.equal(c.err.join("").split("\n")[0], 'crdkit serve: invalid --namespace-lifecycle value "no": want true or false');
  });

  it("=false accepts namespaced objects in any namespace", async () => {
    const c = capture();
    const ac = new AbortController();
    const done = runServe(["--listen", "127.0.0.1:0", "--quiet", "--namespace-lifecycle=false"], c.io, ac.signal);
    try {
      const url = await listeningUrl(c.out, done, c.err);
      assert.equal((await api(url, "POST", CRDS, widgetCrd())).status, 201);
      const w = await api(url, "POST", widgets("elsewhere"), widget("w"));
      assert.equal(w.status, 201, w.text);
    } finally {
      ac.abort();
      assert.equal(await done, 0);
    }
  });
});
