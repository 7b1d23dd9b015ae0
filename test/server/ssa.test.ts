/** Field ownership (managedFields) for updates and applies, apply conflicts and force, list merging. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../src/server/server.js";
import { FieldSet, pathString } from "../../src/server/ssa/fieldset.js";
import { rootType } from "../../src/server/ssa/type-schema.js";
import { compareValues, mergeValues, toFieldSet } from "../../src/server/ssa/typed.js";
import type { JsonObject } from "../../src/value/json-value.js";
import { api } from "./client.js";

const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const GV = "ssa.example.com/v1";
const THINGS = "/apis/ssa.example.com/v1/namespaces/default/things";
const APPLY = { "Content-Type": "application/apply-patch+yaml" };
const MERGE = { "Content-Type": "application/merge-patch+json" };

const SCHEMA = {
  type: "object",
  properties: {
    spec: {
      type: "object",
      properties: {
        replicas: { type: "integer" },
        image: { type: "string" },
        ports: {
          type: "array",
          "x-kubernetes-list-type": "map",
          "x-kubernetes-list-map-keys": ["port"],
          items: { type: "object", required: ["port"], properties: { port: { type: "integer" }, name: { type: "string" } } },
        },
        tags: { type: "array", "x-kubernetes-list-type": "set", items: { type: "string" } },
        args: { type: "array", items: { type: "string" } },
        env: { type: "object", additionalProperties: { type: "string" } },
      },
    },
    status: { type: "object", properties: { ready: { type: "boolean" } } },
  },
};

const crd = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "things.ssa.example.com" },
  spec: {
    group: "ssa.example.com",
    scope: "Namespaced",
    names: { plural: "things", singular: "thing", kind: "Thing" },
    versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: SCHEMA }, subresources: { status: {} } }],
  },
};

function thing(name: string, spec: Record<string, unknown>, meta: Record<string, unknown> = {}): JsonObject {
  return { apiVersion: GV, kind: "Thing", metadata: { name, ...meta }, spec } as JsonObject;
}

type Entry = { manager: string; operation: string; apiVersion: string; fieldsType: string; fieldsV1: unknown; time?: string; subresource?: string };
const owners = (obj: { metadata: { managedFields?: Entry[] } }) =>
  (obj.metadata.managedFields ?? []).map((e) => [e.manager, e.operation, e.subresource ?? "", e.fieldsV1]);

describe("field sets and typed operations", () => {
  const type = rootType(SCHEMA as unknown as JsonObject);
  it("builds FieldsV1 like structured-merge-diff (keys, set values, members with children)", () => {
    const set = toFieldSet(thing("a", { replicas: 1, ports: [{ port: 80, name: "http" }], tags: ["x"], args: ["a"], env: {} }, { labels: { app: "a" } }), type);
    assert.deepEqual(set.toFieldsV1(), {
      "f:apiVersion": {},
      "f:kind": {},
      "f:metadata": { "f:labels": { "f:app": {} }, "f:name": {} },
      "f:spec": {
        "f:args": {},
        "f:env": {},
        "f:ports": { 'k:{"port":80}': { ".": {}, "f:name": {}, "f:port": {} } },
        "f:replicas": {},
        "f:tags": { 'v:"x"': {} },
      },
    });
    assert.deepEqual(FieldSet.fromFieldsV1(set.toFieldsV1()).toFieldsV1(), set.toFieldsV1());
    assert.deepEqual(
      set.paths().map(pathString).filter((p) => p.startsWith(".spec")),
      [".spec.args", ".spec.env", ".spec.ports[port=80]", ".spec.ports[port=80].name", ".spec.ports[port=80].port", ".spec.replicas", '.spec.tags[="x"]'],
    );
  });

  it("compares added non-leaf maps as members and merges associative lists in smd order", () => {
    const cmp = compareValues({}, thing("a", { replicas: 1 }), type);
    assert.deepEqual(cmp.added.toFieldsV1()["f:spec"], { ".": {}, "f:replicas": {} });
    const merged = mergeValues(
      { spec: { ports: [{ port: 1 }, { port: 2 }, { port: 3 }], tags: ["a", "b"], args: ["x", "y"] } },
      { spec: { ports: [{ port: 4 }, { port: 2, name: "two" }], tags: ["c", "a"], args: ["z"] } },
      type,
    );
    assert.deepEqual(merged, { spec: { ports: [{ port: 1 }, { port: 4 }, { port: 2, name: "two" }, { port: 3 }], tags: ["c", "a", "b"], args: ["z"] } });
  });
});

describe("managedFields and apply conflicts over HTTP", () => {
  let s: RunningServer;
  before(async () => {
    s = await startServer({});
    assert.equal((await api(s.url, "POST", CRDS, crd)).status, 201);
  });
  after(async () => {
    await s.close();
  });

  it("records an Update entry on create, with '.' for maps the request added", async () => {
    const r = await api(s.url, "POST", `${THINGS}?fieldManager=creator`, thing("one", { replicas: 1, image: "img" }, { labels: { app: "x" } }));
    assert.equal(r.status, 201, r.text);
    const [e] = r.json.metadata.managedFields as Entry[];
    assert.deepEqual(Object.keys(e!), ["apiVersion", "fieldsType", "fieldsV1", "manager", "operation", "time"]);
    assert.deepEqual(owners(r.json), [
      ["creator", "Update", "", { "f:metadata": { "f:labels": { ".": {}, "f:app": {} } }, "f:spec": { ".": {}, "f:image": {}, "f:replicas": {} } }],
    ]);
    assert.equal(e!.apiVersion, GV);
    assert.match(e!.time!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it("answers 409 with Kubernetes' message when an apply changes fields another manager owns", async () => {
    const one = await api(s.url, "PATCH", `${THINGS}/one?fieldManager=applier`, thing("one", { replicas: 3 }), APPLY);
    assert.equal(one.status, 409, one.text);
    assert.deepEqual(one.json, {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: 'Apply failed with 1 conflict: conflict with "creator" using ssa.example.com/v1: .spec.replicas',
      reason: "Conflict",
      details: { causes: [{ reason: "FieldManagerConflict", message: 'conflict with "creator" using ssa.example.com/v1', field: ".spec.replicas" }] },
      code: 409,
    });
    const two = await api(s.url, "PATCH", `${THINGS}/one?fieldManager=applier`, thing("one", { replicas: 3, image: "new" }, { labels: { app: "y" } }), APPLY);
    assert.equal(two.status, 409);
    assert.equal(
      two.json.message,
      'Apply failed with 3 conflicts: conflicts with "creator" using ssa.example.com/v1:\n- .metadata.labels.app\n- .spec.image\n- .spec.replicas',
    );
    assert.deepEqual(
      two.json.details.causes.map((c: { field: string }) => c.field),
      [".metadata.labels.app", ".spec.image", ".spec.replicas"],
    );
  });

  it("shares ownership when the applied value equals the live one", async () => {
    const r = await api(s.url, "PATCH", `${THINGS}/one?fieldManager=applier`, thing("one", { replicas: 1 }), APPLY);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(owners(r.json), [
      ["applier", "Apply", "", { "f:spec": { "f:replicas": {} } }],
      ["creator", "Update", "", { "f:metadata": { "f:labels": { ".": {}, "f:app": {} } }, "f:spec": { ".": {}, "f:image": {}, "f:replicas": {} } }],
    ]);
    // The object did not change: no new resourceVersion, no time on the new entry.
    const e = (r.json.metadata.managedFields as Entry[])[0]!;
    assert.equal(e.time, undefined);
  });

  it("force=true takes the fields over; conflicts with several managers are grouped by sorted manager", async () => {
    const f = await api(s.url, "PATCH", `${THINGS}/one?fieldManager=applier&force=true`, thing("one", { replicas: 5 }), APPLY);
    assert.equal(f.status, 200, f.text);
    assert.equal(f.json.spec.replicas, 5);
    assert.deepEqual(owners(f.json), [
      ["applier", "Apply", "", { "f:spec": { "f:replicas": {} } }],
      ["creator", "Update", "", { "f:metadata": { "f:labels": { ".": {}, "f:app": {} } }, "f:spec": { ".": {}, "f:image": {} } }],
    ]);
    const m = await api(s.url, "PATCH", `${THINGS}/one?fieldManager=zeta`, { spec: { image: "z" } }, MERGE);
    assert.equal(m.status, 200);
    const c = await api(s.url, "PATCH", `${THINGS}/one?fieldManager=third`, thing("one", { replicas: 6, image: "t" }, { labels: { app: "t" } }), APPLY);
    assert.equal(c.status, 409);
    assert.equal(
      c.json.message,
      'Apply failed with 3 conflicts: conflicts with "applier":\n- .spec.replicas\nconflicts with "creator" using ssa.example.com/v1:\n- .metadata.labels.app\nconflicts with "zeta" using ssa.example.com/v1:\n- .spec.image',
    );
  });

  it("updates take fields from appliers without conflicts; force is refused on non-apply patches", async () => {
    const u = await api(s.url, "PATCH", `${THINGS}/one?fieldManager=editor`, { spec: { replicas: 9 } }, MERGE);
    assert.equal(u.status, 200);
    // "applier" lost its only field to the update, so its entry is gone.
    const mgrs = owners(u.json).map((o) => o[0]);
    assert.deepEqual([...mgrs].sort(), ["creator", "editor", "zeta"]);
    const bad = await api(s.url, "PATCH", `${THINGS}/one?force=true`, { spec: {} }, MERGE);
    assert.equal(bad.status, 422);
    assert.equal(bad.json.message, 'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch');
    const mf = await api(s.url, "PATCH", `${THINGS}/one?fieldManager=x`, thing("one", {}, { managedFields: [] }), APPLY);
    assert.equal(mf.status, 400);
    assert.equal(mf.json.message, "metadata.managedFields must be nil");
  });

  it("merges the oldest of more than 10 Update managers into ancient-changes", async () => {
    assert.equal((await api(s.url, "POST", `${THINGS}?fieldManager=m00`, thing("many", { env: { k00: "v" } }))).status, 201);
    for (let i = 1; i <= 11; i++) {
      const k = `k${String(i).padStart(2, "0")}`;
      const r = await api(s.url, "PATCH", `${THINGS}/many?fieldManager=m${String(i).padStart(2, "0")}`, { spec: { env: { [k]: "v" } } }, MERGE);
      assert.equal(r.status, 200, r.text);
    }
    const got = (await api(s.url, "GET", `${THINGS}/many`)).json.metadata.managedFields as Entry[];
    assert.equal(got.length, 10);
    const ancient = got.find((e) => e.manager === "ancient-changes")!;
    // The 11th updater folds m00 and m01 into the bucket; the 12th folds the next oldest (m02) into it.
    const env = (ancient.fieldsV1 as { "f:spec": { "f:env": object } })["f:spec"]["f:env"];
    assert.deepEqual(Object.keys(env), [".", "f:k00", "f:k01", "f:k02"]);
    assert.equal(got.filter((e) => e.manager.startsWith("m")).length, 9);
  });

  it("merges associative lists by key and sets by value; an applier's dropped items go, others' stay", async () => {
    const a = await api(s.url, "PATCH", `${THINGS}/lists?fieldManager=a`, thing("lists", { ports: [{ port: 80, name: "http" }], tags: ["x"] }), APPLY);
    assert.equal(a.status, 201, a.text);
    const b = await api(s.url, "PATCH", `${THINGS}/lists?fieldManager=b`, thing("lists", { ports: [{ port: 443 }], tags: ["y"] }), APPLY);
    assert.equal(b.status, 200, b.text);
    assert.deepEqual(b.json.spec, { ports: [{ port: 80, name: "http" }, { port: 443 }], tags: ["x", "y"] });
    assert.deepEqual(owners(b.json)[1], ["b", "Apply", "", { "f:spec": { "f:ports": { 'k:{"port":443}': { ".": {}, "f:port": {} } }, "f:tags": { 'v:"y"': {} } } }]);
    const c = await api(s.url, "PATCH", `${THINGS}/lists?fieldManager=b`, thing("lists", { ports: [{ port: 443 }, { port: 80, name: "web" }] }), APPLY);
    assert.equal(c.status, 409);
    assert.equal(c.json.message, 'Apply failed with 1 conflict: conflict with "a": .spec.ports[port=80].name');
    const d = await api(s.url, "PATCH", `${THINGS}/lists?fieldManager=a`, thing("lists", { tags: ["x"] }), APPLY);
    assert.equal(d.status, 200);
    assert.deepEqual(d.json.spec, { ports: [{ port: 443 }], tags: ["x", "y"] });
  });

  it("status writes are owned per subresource and ignore spec changes", async () => {
    const cur = await api(s.url, "GET", `${THINGS}/lists`);
    const st = await api(s.url, "PUT", `${THINGS}/lists/status?fieldManager=ctrl`, { ...cur.json, spec: { replicas: 100 }, status: { ready: true } });
    assert.equal(st.status, 200, st.text);
    assert.equal(st.json.spec.replicas, undefined);
    const e = (st.json.metadata.managedFields as Entry[]).find((x) => x.manager === "ctrl")!;
    assert.deepEqual([e.operation, e.subresource, e.fieldsV1], ["Update", "status", { "f:status": { ".": {}, "f:ready": {} } }]);
    const cfg = { apiVersion: GV, kind: "Thing", metadata: { name: "lists" }, status: { ready: false } };
    const c = await api(s.url, "PATCH", `${THINGS}/lists/status?fieldManager=ctrl-apply`, cfg, APPLY);
    assert.equal(c.status, 409);
    assert.equal(c.json.message, 'Apply failed with 1 conflict: conflict with "ctrl" with subresource "status" using ssa.example.com/v1: .status.ready');
    const f = await api(s.url, "PATCH", `${THINGS}/lists/status?fieldManager=ctrl-apply&force=true`, cfg, APPLY);
    assert.equal(f.status, 200, f.text);
    assert.equal(f.json.status.ready, false);
    const a = (f.json.metadata.managedFields as Entry[]).find((x) => x.manager === "ctrl-apply")!;
    assert.deepEqual([a.operation, a.subresource, a.fieldsV1], ["Apply", "status", { "f:status": { "f:ready": {} } }]);
    // "ctrl" keeps the status map it added (a member), only .status.ready moved.
    assert.deepEqual((f.json.metadata.managedFields as Entry[]).find((x) => x.manager === "ctrl")!.fieldsV1, { "f:status": {} });
  });
});
