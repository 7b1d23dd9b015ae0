/** HTTP-level behaviour of `crdkit serve`: discovery, errors, writes, tables, watch, subresources, OpenAPI. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../src/server/server.js";
import { SqliteStore } from "../../src/storage/sqlite-store.js";
import { api, assertCreateThenStatusEntries, watchEvents, widget, widgetCrd, WIDGETS } from "./client.js";

/** The built-in groups every server publishes before apiextensions.k8s.io (self reviews, RBAC). */
const BUILTIN_GROUPS = ["authentication.k8s.io", "authorization.k8s.io", "rbac.authorization.k8s.io"];

const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const AGG_V2 = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
const AGG_V2BETA1 = "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList";
const TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";

describe("crdkit serve HTTP API", () => {
  let s: RunningServer;
  before(async () => {
    s = await startServer({ store: new SqliteStore({ path: ":memory:", historySize: 50 }) });
    const r = await api(s.url, "POST", CRDS, widgetCrd());
    assert.equal(r.status, 201, r.text);
  });
  after(async () => {
    await s.close();
  });

  it("fills in CRD status: acceptedNames, conditions, storedVersions", async () => {
    const r = await api(s.url, "GET", `${CRDS}/widgets.test.example.com`);
    assert.deepEqual(r.json.status.acceptedNames, { plural: "widgets", singular: "widget", kind: "Widget", listKind: "WidgetList", shortNames: ["wd"], categories: ["all"] });
    assert.deepEqual(
      r.json.status.conditions.map((c: Record<string, string>) => [c.type, c.status, c.reason, c.message]),
      [
        ["NamesAccepted", "True", "NoConflicts", "no conflicts found"],
        ["Established", "True", "InitialNamesAccepted", "the initial names have been accepted"],
      ],
    );
    assert.deepEqual(r.json.status.storedVersions, ["v1"]);
    assert.equal(r.json.metadata.generation, 1);
  });

  it("reports a name conflict between CRDs of one group", async () => {
    const crd = widgetCrd();
    (crd as { metadata: { name: string } }).metadata.name = "gadgets.test.example.com";
    const spec = (crd as { spec: { names: Record<string, unknown> } }).spec;
    spec.names = { plural: "gadgets", singular: "gadget", kind: "Widget" };
    const r = await api(s.url, "POST", CRDS, crd);
    assert.equal(r.status, 201, r.text);
    // The create answers before the naming controller runs (as Kubernetes); its status write follows.
    assert.equal(r.json.status.conditions, null);
    const got = await api(s.url, "GET", `${CRDS}/gadgets.test.example.com`);
    // Each free name is accepted; the condition reports the last conflict (kind, then listKind).
    assert.deepEqual(got.json.status.acceptedNames, { kind: "", plural: "gadgets", singular: "gadget" });
    assert.deepEqual(
      got.json.status.conditions.map((c: Record<string, string>) => [c.type, c.status, c.reason, c.message]),
      [
        ["NamesAccepted", "False", "ListKindConflict", '"WidgetList" is already in use'],
        ["Established", "False", "NotAccepted", "not all names are accepted"],
      ],
    );
    assertCreateThenStatusEntries(got.json.metadata.managedFields);
    assert.equal((await api(s.url, "GET", "/apis/test.example.com/v1/namespaces/default/gadgets")).status, 404);
    assert.equal((await api(s.url, "DELETE", `${CRDS}/gadgets.test.example.com`)).status, 200);
  });

  it("a CRD deleted by the finalizer frees its names: the CRD that conflicted with it is accepted and established", async () => {
    const crd = (name: string, plural: string, kind: string) => {
      const c = widgetCrd() as { metadata: { name: string }; spec: { group: string; names: Record<string, unknown> } };
      c.metadata.name = `${name}.free.example.com`;
      c.spec.group = "free.example.com";
      c.spec.names = { plural, kind };
      return c;
    };
    assert.equal((await api(s.url, "POST", CRDS, crd("alphas", "alphas", "Alpha"))).status, 201);
    assert.equal((await api(s.url, "POST", CRDS, crd("betas", "betas", "Alpha"))).status, 201);
    const before = (await api(s.url, "GET", `${CRDS}/betas.free.example.com`)).json;
    assert.equal(before.status.conditions[0].reason, "ListKindConflict");
    assert.equal((await api(s.url, "DELETE", `${CRDS}/alphas.free.example.com`)).status, 200);
    // The finalizer deletes alphas in the background, then the naming pass re-checks the group.
    const established = (o: { status?: { conditions?: { type: string; status: string }[] } }) =>
      o.status?.conditions?.some((c) => c.type === "Established" && c.status === "True") === true;
    let after = (await api(s.url, "GET", `${CRDS}/betas.free.example.com`)).json;
    for (let i = 0; i < 400 && !established(after); i++) {
      await new Promise((r) => setTimeout(r, 25));
      after = (await api(s.url, "GET", `${CRDS}/betas.free.example.com`)).json;
    }
    assert.equal((await api(s.url, "GET", `${CRDS}/alphas.free.example.com`)).status, 404);
    assert.deepEqual(
      after.status.conditions.map((c: Record<string, string>) => [c.type, c.status, c.reason]),
      [
        ["NamesAccepted", "True", "NoConflicts"],
        ["Established", "True", "InitialNamesAccepted"],
      ],
    );
    assert.equal(after.status.acceptedNames.kind, "Alpha");
    assert.equal((await api(s.url, "GET", "/apis/free.example.com/v1/namespaces/default/alphas")).status, 404);
    assert.equal((await api(s.url, "GET", "/apis/free.example.com/v1/namespaces/default/betas")).status, 200);
    assert.equal((await api(s.url, "DELETE", `${CRDS}/betas.free.example.com`)).status, 200);
    for (let i = 0; i < 400 && (await api(s.url, "GET", `${CRDS}/betas.free.example.com`)).status !== 404; i++) {
      await new Promise((r) => setTimeout(r, 25));
    }
  });

  const discoveryCases: { accept: string; contentType: string; kind: string }[] = [
    { accept: `${AGG_V2},${AGG_V2BETA1},application/json`, contentType: AGG_V2, kind: "APIGroupDiscoveryList" },
    { accept: `${AGG_V2BETA1},application/json`, contentType: AGG_V2BETA1, kind: "APIGroupDiscoveryList" },
    { accept: "application/json, */*", contentType: "application/json", kind: "APIGroupList" },
  ];
  for (const c of discoveryCases) {
    it(`GET /apis with Accept ${c.accept.slice(0, 60)} answers ${c.kind}`, async () => {
      const r = await api(s.url, "GET", "/apis", undefined, { Accept: c.accept });
      assert.equal(r.headers.get("content-type"), c.contentType);
      assert.equal(r.json.kind, c.kind);
      if (c.kind === "APIGroupList") {
        assert.deepEqual(
          r.json.groups.map((g: { name: string }) => g.name),
          [...BUILTIN_GROUPS, "apiextensions.k8s.io", "test.example.com"],
        );
      } else {
        const res = r.json.items.find((g: { metadata: { name: string } }) => g.metadata.name === "test.example.com").versions[0].resources[0];
        assert.deepEqual(res.responseKind, { group: "test.example.com", version: "v1", kind: "Widget" });
        assert.equal(res.scope, "Namespaced");
        assert.deepEqual(res.shortNames, ["wd"]);
        assert.deepEqual(
          res.subresources.map((x: { subresource: string }) => x.subresource),
          ["status", "scale"],
        );
      }
    });
  }

  it("serves legacy group-version discovery", async () => {
    const r = await api(s.url, "GET", "/apis/test.example.com/v1");
    assert.deepEqual(
      r.json.resources.map((x: { name: string; kind: string }) => `${x.name}:${x.kind}`),
      ["widgets:Widget", "widgets/status:Widget", "widgets/scale:Scale"],
    );
    const g = await api(s.url, "GET", "/apis/test.example.com");
    assert.deepEqual(g.json.preferredVersion, { groupVersion: "test.example.com/v1", version: "v1" });
    const v = await api(s.url, "GET", "/version");
    assert.equal(v.json.minor, "32");
  });

  const errorCases: { name: string; method: string; path: string; body?: unknown; headers?: Record<string, string>; code: number; reason: string; message: string }[] = [
    { name: "missing object", method: "GET", path: `${WIDGETS}/nope`, code: 404, reason: "NotFound", message: 'widgets.test.example.com "nope" not found' },
    { name: "PUT on a collection", method: "PUT", path: WIDGETS, body: {}, code: 400, reason: "BadRequest", message: "name must be provided" },
    {
      name: "strategic merge patch",
      method: "PATCH",
      path: `${WIDGETS}/a`,
      body: {},
      headers: { "Content-Type": "application/strategic-merge-patch+json" },
      code: 415,
      reason: "UnsupportedMediaType",
      message: "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml",
    },
    {
      name: "a body over 3 MiB",
      method: "POST",
      path: WIDGETS,
      body: JSON.stringify(widget("big", { color: "x".repeat(3 * 1024 * 1024) })),
      code: 413,
      reason: "RequestEntityTooLarge",
      message: "Request entity too large: limit is 3145728",
    },
    {
      name: "a namespace mismatch",
      method: "POST",
      path: WIDGETS,
      body: widget("ns", {}, { namespace: "other" }),
      code: 400,
      reason: "BadRequest",
      message: "the namespace of the provided object does not match the namespace sent on the request",
    },
    {
      name: "a wrong apiVersion",
      method: "POST",
      path: WIDGETS,
      body: { ...widget("av"), apiVersion: "test.example.com/v2" },
      code: 400,
      reason: "BadRequest",
      message: "the API version in the data (test.example.com/v2) does not match the expected API version (test.example.com/v1)",
    },
    { name: "an unsupported field label", method: "GET", path: `${WIDGETS}?fieldSelector=spec.count%3D1`, code: 400, reason: "BadRequest", message: "field label not supported: spec.count" },
    {
      name: "a PUT without resourceVersion",
      method: "PUT",
      path: `${WIDGETS}/first`,
      body: widget("first", { count: 2 }),
      code: 422,
      reason: "Invalid",
      message: 'widgets.test.example.com "first" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update',
    },
    {
      name: "an invalid name",
      method: "POST",
      path: WIDGETS,
      body: widget("Bad_Name"),
      code: 422,
      reason: "Invalid",
      message:
        "Widget.test.example.com \"Bad_Name\" is invalid: metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    },
    {
      name: "a failing JSON patch test",
      method: "PATCH",
      path: `${WIDGETS}/first`,
      body: [{ op: "test", path: "/spec/count", value: 99 }],
      headers: { "Content-Type": "application/json-patch+json" },
      code: 422,
      reason: "Invalid",
      message: "the server rejected our request due to an error in our request",
    },
    {
      name: "an apply whose name differs from the URL",
      method: "PATCH",
      path: `${WIDGETS}/new-one?fieldManager=t`,
      body: widget("other-name"),
      headers: { "Content-Type": "application/apply-patch+yaml" },
      code: 400,
      reason: "BadRequest",
      message: "the name of the object (other-name) does not match the name on the URL (new-one)",
    },
    {
      name: "an apply patch without fieldManager",
      method: "PATCH",
      path: `${WIDGETS}/first`,
      body: widget("first"),
      headers: { "Content-Type": "application/apply-patch+yaml" },
      code: 422,
      reason: "Invalid",
      message: 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
    },
  ];
  describe("errors", () => {
    before(async () => {
      assert.equal((await api(s.url, "POST", WIDGETS, widget("first", { count: 1, color: "red" }, { labels: { app: "a" } }))).status, 201);
    });
    for (const c of errorCases) {
      it(`${c.name} → ${c.code} ${c.reason}`, async () => {
        const r = await api(s.url, c.method, c.path, c.body, c.headers);
        assert.equal(r.status, c.code, r.text);
        assert.equal(r.json.kind, "Status");
        assert.equal(r.json.reason, c.reason);
        assert.equal(r.json.message, c.message);
      });
    }
    it("an unknown group, version or resource → the mux's plain 404", async () => {
      for (const path of ["/apis/nope.example.com", "/apis/nope.example.com/v1/things", "/apis/test.example.com/v9", "/apis/test.example.com/v1/nothings"]) {
        const r = await api(s.url, "GET", path);
        assert.equal(r.status, 404, path);
        assert.equal(r.headers.get("content-type"), "text/plain; charset=utf-8");
        assert.equal(r.text, "404 page not found\n");
      }
    });
    it("a duplicate create → 409 AlreadyExists", async () => {
      const r = await api(s.url, "POST", WIDGETS, widget("first"));
      assert.equal(r.status, 409);
      assert.deepEqual(r.json.details, { name: "first", group: "test.example.com", kind: "widgets" });
      assert.equal(r.json.message, 'widgets.test.example.com "first" already exists');
    });
  });

  it("tracks generation: spec changes count, metadata and status do not", async () => {
    await api(s.url, "POST", WIDGETS, widget("gen", { count: 1 }));
    const p1 = await api(s.url, "PATCH", `${WIDGETS}/gen`, { metadata: { labels: { x: "y" } } }, { "Content-Type": "application/merge-patch+json" });
    assert.equal(p1.json.metadata.generation, 1);
    const p2 = await api(s.url, "PATCH", `${WIDGETS}/gen`, { spec: { count: 2 } }, { "Content-Type": "application/merge-patch+json" });
    assert.equal(p2.json.metadata.generation, 2);
    const p3 = await api(s.url, "PATCH", `${WIDGETS}/gen/status`, { status: { replicas: 3 }, spec: { count: 9 } }, { "Content-Type": "application/merge-patch+json" });
    assert.deepEqual([p3.json.metadata.generation, p3.json.spec.count, p3.json.status.replicas], [2, 2, 3]);
    const p4 = await api(s.url, "PATCH", `${WIDGETS}/gen`, { status: { replicas: 7 } }, { "Content-Type": "application/merge-patch+json" });
    assert.equal(p4.json.status.replicas, 3);
    const noop = await api(s.url, "PATCH", `${WIDGETS}/gen`, { spec: { count: 2 } }, { "Content-Type": "application/merge-patch+json" });
    assert.equal(noop.json.metadata.resourceVersion, p3.json.metadata.resourceVersion);
  });

  it("serves /scale as autoscaling/v1 Scale and accepts a PUT without Content-Type", async () => {
    await api(s.url, "POST", WIDGETS, widget("sc", { replicas: 2 }));
    const g = await api(s.url, "GET", `${WIDGETS}/sc/scale`);
    assert.deepEqual([g.json.kind, g.json.apiVersion, g.json.spec, g.json.status], ["Scale", "autoscaling/v1", { replicas: 2 }, { replicas: 0 }]);
    const res = await fetch(`${s.url}${WIDGETS}/sc/scale`, { method: "PUT", body: new TextEncoder().encode(JSON.stringify({ ...g.json, spec: { replicas: 4 } })) });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { spec: { replicas: number } }).spec.replicas, 4);
    const stale = await api(s.url, "PUT", `${WIDGETS}/sc/scale`, { ...g.json, spec: { replicas: 5 } });
    assert.equal(stale.status, 409);
    assert.equal((await api(s.url, "GET", `${WIDGETS}/sc`)).json.spec.replicas, 4);
  });

  it("selects by label, metadata.name and selectableFields; answers Tables", async () => {
    await api(s.url, "POST", WIDGETS, widget("blue-one", { color: "blue" }, { labels: { app: "b" } }));
    const names = async (q: string) => (await api(s.url, "GET", `${WIDGETS}?${q}`)).json.items.map((o: { metadata: { name: string } }) => o.metadata.name);
    assert.deepEqual(await names("labelSelector=app%3Db"), ["blue-one"]);
    assert.deepEqual(await names("labelSelector=app%20in%20(a%2Cb)"), ["blue-one", "first"]);
    assert.deepEqual(await names("fieldSelector=spec.color%3Dblue"), ["blue-one"]);
    assert.deepEqual(await names("fieldSelector=metadata.name%3Dfirst"), ["first"]);
    const all = await api(s.url, "GET", "/apis/test.example.com/v1/widgets?fieldSelector=spec.color%3Dred");
    assert.deepEqual(all.json.items.map((o: { metadata: { name: string } }) => o.metadata.name), ["first"]);
    const t = await api(s.url, "GET", `${WIDGETS}?labelSelector=app%3Db`, undefined, { Accept: TABLE });
    assert.equal(t.json.kind, "Table");
    assert.deepEqual(
      t.json.columnDefinitions.map((c: { name: string; type: string }) => `${c.name}:${c.type}`),
      ["Name:string", "Color:string"],
    );
    assert.deepEqual(t.json.rows[0].cells, ["blue-one", "blue"]);
    assert.equal(t.json.rows[0].object.kind, "PartialObjectMetadata");
    assert.match(t.json.metadata.resourceVersion, /^\d+$/);
  });

  it("watches from a resourceVersion with selector transitions, and 410 when compacted", async () => {
    const start = (await api(s.url, "GET", WIDGETS)).json.metadata.resourceVersion;
    const w = watchEvents(s.url, `${WIDGETS}?watch=true&resourceVersion=${start}&labelSelector=app%3Dw`, 4);
    await api(s.url, "POST", WIDGETS, widget("w1", {}, { labels: { app: "w" } }));
    await api(s.url, "POST", WIDGETS, widget("w2", {}, { labels: { app: "other" } }));
    await api(s.url, "PATCH", `${WIDGETS}/w1`, { spec: { count: 5 } }, { "Content-Type": "application/merge-patch+json" });
    await api(s.url, "PATCH", `${WIDGETS}/w1`, { metadata: { labels: { app: "gone" } } }, { "Content-Type": "application/merge-patch+json" });
    await api(s.url, "PATCH", `${WIDGETS}/w2`, { metadata: { labels: { app: "w" } } }, { "Content-Type": "application/merge-patch+json" });
    const events = await w.events;
    assert.deepEqual(
      events.map((e) => `${e.type} ${e.object.metadata["name"]}`),
      ["ADDED w1", "MODIFIED w1", "DELETED w1", "ADDED w2"],
    );
    for (let i = 0; i < 120; i++) await api(s.url, "POST", WIDGETS, widget(`bulk-${i}`));
    const old = watchEvents(s.url, `${WIDGETS}?watch=true&resourceVersion=${start}`, 1);
    const [err] = await old.events;
    assert.equal(err!.type, "ERROR");
    assert.equal(err!.object["code"], 410);
    assert.equal(err!.object["reason"], "Expired");
    assert.match(String(err!.object["message"]), /^too old resource version: \d+ \(\d+\)$/);
  });

  it("delete with finalizers sets deletionTimestamp; deletecollection honours selectors", async () => {
    await api(s.url, "POST", WIDGETS, widget("fin", {}, { finalizers: ["example.com/x"] }));
    const d = await api(s.url, "DELETE", `${WIDGETS}/fin`, { propagationPolicy: "Background" });
    // 200 with the object that stays (202 only for orphanDependents: false), as the API server.
    assert.equal(d.status, 200);
    assert.match(d.json.metadata.deletionTimestamp, /Z$/);
    const gone = await api(s.url, "PATCH", `${WIDGETS}/fin`, { metadata: { finalizers: null } }, { "Content-Type": "application/merge-patch+json" });
    assert.equal(gone.status, 200);
    assert.equal((await api(s.url, "GET", `${WIDGETS}/fin`)).status, 404);
    const dc = await api(s.url, "DELETE", `${WIDGETS}?labelSelector=app%3Db`);
    assert.deepEqual(dc.json.items.map((o: { metadata: { name: string } }) => o.metadata.name), ["blue-one"]);
    assert.equal((await api(s.url, "GET", `${WIDGETS}/blue-one`)).status, 404);
  });

  it("dryRun=All does not persist", async () => {
    const r = await api(s.url, "POST", `${WIDGETS}?dryRun=All`, widget("dry"));
    assert.equal(r.status, 201);
    assert.equal((await api(s.url, "GET", `${WIDGETS}/dry`)).status, 404);
  });

  it("server-side apply upserts (201 then 200) and tracks fields per manager", async () => {
    const h = { "Content-Type": "application/apply-patch+yaml" };
    const a = await api(s.url, "PATCH", `${WIDGETS}/ssa?fieldManager=test`, widget("ssa", { color: "green", count: 1 }, { labels: { l: "1" } }), h);
    assert.equal(a.status, 201, a.text);
    assert.deepEqual(
      a.json.metadata.managedFields.map((m: Record<string, unknown>) => [m["manager"], m["operation"], m["fieldsV1"]]),
      [["test", "Apply", { "f:metadata": { "f:labels": { "f:l": {} } }, "f:spec": { "f:color": {}, "f:count": {} } }]],
    );
    const same = await api(s.url, "PATCH", `${WIDGETS}/ssa?fieldManager=test`, widget("ssa", { color: "green", count: 1 }, { labels: { l: "1" } }), h);
    assert.equal(same.json.metadata.resourceVersion, a.json.metadata.resourceVersion);
    // A merge patch by someone else adds its Update entry (manager from the User-Agent, "node" for fetch).
    const p = await api(s.url, "PATCH", `${WIDGETS}/ssa`, { spec: { replicas: 2 } }, { "Content-Type": "application/merge-patch+json" });
    assert.deepEqual(
      p.json.metadata.managedFields.map((m: Record<string, unknown>) => [m["manager"], m["operation"], m["fieldsV1"]]),
      [
        ["test", "Apply", { "f:metadata": { "f:labels": { "f:l": {} } }, "f:spec": { "f:color": {}, "f:count": {} } }],
        ["node", "Update", { "f:spec": { "f:replicas": {} } }],
      ],
    );
    // Another applier owns count too; "test" drops color and count: color goes, count stays.
    await api(s.url, "PATCH", `${WIDGETS}/ssa?fieldManager=other`, widget("ssa", { count: 1 }), h);
    const b = await api(s.url, "PATCH", `${WIDGETS}/ssa?fieldManager=test`, widget("ssa", {}, { labels: { l: "1" } }), h);
    assert.equal(b.status, 200);
    assert.deepEqual(b.json.spec, { count: 1, replicas: 2 });
    assert.deepEqual(b.json.metadata.managedFields.map((m: Record<string, unknown>) => m["manager"]).sort(), ["node", "other", "test"]);
  });

  it("publishes OpenAPI v3 with GVK extensions and the fieldValidation parameter", async () => {
    const idx = await api(s.url, "GET", "/openapi/v3");
    const url = idx.json.paths["apis/test.example.com/v1"].serverRelativeURL;
    // kube-openapi's hash form: SHA-512 in upper-case hex
    assert.match(url, /^\/openapi\/v3\/apis\/test\.example\.com\/v1\?hash=[0-9A-F]{128}$/);
    const doc = (await api(s.url, "GET", url)).json;
    const patch = doc.paths["/apis/test.example.com/v1/namespaces/{namespace}/widgets/{name}"].patch;
    assert.deepEqual(patch["x-kubernetes-group-version-kind"], { group: "test.example.com", version: "v1", kind: "Widget" });
    assert.ok(patch.parameters.some((p: { name: string; in: string }) => p.name === "fieldValidation" && p.in === "query"));
    const model = doc.components.schemas["com.example.test.v1.Widget"];
    assert.deepEqual(model["x-kubernetes-group-version-kind"], [{ group: "test.example.com", kind: "Widget", version: "v1" }]);
    assert.deepEqual(model["x-kubernetes-selectable-fields"], [{ fieldPath: "spec.color" }]);
    assert.deepEqual(model.properties.metadata.allOf, [{ $ref: "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta" }]);
    assert.ok(doc.components.schemas["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"]);
    const v2 = await fetch(`${s.url}/openapi/v2`, { headers: { Accept: "application/com.github.proto-openapi.spec.v2@v1.0+protobuf" } });
    assert.equal(v2.status, 200);
  });

  it("deleting a CRD deletes its objects and unpublishes it", async () => {
    const r = await api(s.url, "DELETE", `${CRDS}/widgets.test.example.com`);
    assert.equal(r.status, 200);
    // The finalizer controller removes the objects, then the CRD (see crd-delete.test.ts for the steps).
    for (let i = 0; i < 200 && (await api(s.url, "GET", `${CRDS}/widgets.test.example.com`)).status !== 404; i++) {
      await new Promise((res) => setTimeout(res, 25));
    }
    assert.equal((await api(s.url, "GET", WIDGETS)).status, 404);
    const apis = await api(s.url, "GET", "/apis");
    assert.deepEqual(apis.json.groups.map((g: { name: string }) => g.name), [...BUILTIN_GROUPS, "apiextensions.k8s.io"]);
    assert.equal((await api(s.url, "GET", "/openapi/v3")).json.paths["apis/test.example.com/v1"], undefined);
    assert.deepEqual((await s.store.list("/registry/test.example.com/")).items, []);
  });
});

describe("stored values", () => {
  it("keep int64 values beyond 2^53 exactly", async () => {
    const s = await startServer({});
    try {
      const crd = widgetCrd();
      const props = (crd as { spec: { versions: { schema: { openAPIV3Schema: { properties: { spec: { properties: Record<string, unknown> } } } } }[] } }).spec.versions[0]!.schema
        .openAPIV3Schema.properties.spec.properties;
      props["big"] = { type: "integer", format: "int64" };
      assert.equal((await api(s.url, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd)).status, 201);
      const body = '{"apiVersion":"test.example.com/v1","kind":"Widget","metadata":{"name":"big"},"spec":{"big":9007199254740993}}';
      const c = await api(s.url, "POST", WIDGETS, body);
      assert.equal(c.status, 201, c.text);
      assert.match(c.text, /"big":9007199254740993/);
      assert.match((await api(s.url, "GET", `${WIDGETS}/big`)).text, /"big":9007199254740993/);
    } finally {
      await s.close();
    }
  });
});
