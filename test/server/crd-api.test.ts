/** CRD writes through the server use the engine's CRD checks: 422 texts, strict decoding, warnings, generation. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../src/server/server.js";
import { api } from "./client.js";

const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

function crd(name: string, versionExtra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name },
    spec: {
      group: "test.example.com",
      scope: "Namespaced",
      names: { plural: "things", kind: "Thing" },
      versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object" } }, ...versionExtra }],
    },
  };
}

describe("CRD writes", () => {
  let s: RunningServer;
  before(async () => {
    s = await startServer({});
  });
  after(async () => {
    await s.close();
  });

  const cases: { name: string; query: string; body: Record<string, unknown>; code: number; message?: string; warning?: string }[] = [
    {
      name: "a name that is not plural.group",
      query: "?fieldValidation=Strict",
      body: crd("wrong.test.example.com"),
      code: 422,
      message:
        'CustomResourceDefinition.apiextensions.k8s.io "wrong.test.example.com" is invalid: metadata.name: Invalid value: "wrong.test.example.com": must be spec.names.plural+"."+spec.group',
    },
    {
      name: "an unknown field in Strict mode",
      query: "?fieldValidation=Strict",
      body: crd("things.test.example.com", { foo: 1 }),
      code: 400,
      message: 'CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: strict decoding error: unknown field "spec.versions[0].foo"',
    },
    {
      name: "an unknown field in Warn mode",
      query: "?fieldValidation=Warn",
      body: crd("things.test.example.com", { foo: 1 }),
      code: 201,
      warning: '299 - "unknown field \\"spec.versions[0].foo\\""',
    },
  ];
  for (const c of cases) {
    it(`${c.name} → ${c.code}`, async () => {
      const r = await api(s.url, "POST", CRDS + c.query, c.body);
      assert.equal(r.status, c.code, r.text);
      if (c.message !== undefined) assert.equal(r.json.message, c.message);
      if (c.warning !== undefined) assert.equal(r.headers.get("warning"), c.warning);
    });
  }

  it("stores the decoded CRD without unknown fields, with v1 defaults", async () => {
    const r = await api(s.url, "GET", `${CRDS}/things.test.example.com`);
    assert.equal(r.json.spec.versions[0].foo, undefined);
    assert.deepEqual(r.json.spec.names, { plural: "things", singular: "thing", kind: "Thing", listKind: "ThingList" });
    assert.deepEqual(r.json.spec.conversion, { strategy: "None" });
  });

  it("bumps generation on spec changes only, keeps status on update", async () => {
    const cur = (await api(s.url, "GET", `${CRDS}/things.test.example.com`)).json;
    const same = await api(s.url, "PATCH", `${CRDS}/things.test.example.com`, { metadata: { labels: { a: "b" } } }, { "Content-Type": "application/merge-patch+json" });
    assert.equal(same.json.metadata.generation, 1);
    cur.spec.names.shortNames = ["th"];
    cur.metadata.resourceVersion = same.json.metadata.resourceVersion;
    const upd = await api(s.url, "PUT", `${CRDS}/things.test.example.com`, cur);
    assert.equal(upd.status, 200, upd.text);
    assert.equal(upd.json.metadata.generation, 2);
    // The update answers with the status as it was; the naming controller's write follows it.
    assert.equal(upd.json.status.acceptedNames.shortNames, undefined);
    assert.deepEqual(upd.json.status.storedVersions, ["v1"]);
    const after = await api(s.url, "GET", `${CRDS}/things.test.example.com`);
    assert.deepEqual(after.json.status.acceptedNames.shortNames, ["th"]);
    const disc = await api(s.url, "GET", "/apis/test.example.com/v1");
    assert.deepEqual(disc.json.resources[0].shortNames, ["th"]);
  });

  it("rejects a scope change as immutable", async () => {
    const cur = (await api(s.url, "GET", `${CRDS}/things.test.example.com`)).json;
    cur.spec.scope = "Cluster";
    const r = await api(s.url, "PUT", `${CRDS}/things.test.example.com`, cur);
    assert.equal(r.status, 422);
    assert.match(r.json.message, /^CustomResourceDefinition\.apiextensions\.k8s\.io "things\.test\.example\.com" is invalid: .*spec\.scope: Invalid value: "Cluster": field is immutable/);
  });
});
