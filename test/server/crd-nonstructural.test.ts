/**
 * The NonStructuralSchema condition: a CRD that is non-structural in storage (written by an older API
 * server; the v1 API refuses new ones) keeps its condition while it stays so through v1 updates, and loses
 * it when an update makes it structural (the nonstructuralschema controller's texts, from the engine).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../src/server/server.js";
import { api } from "./client.js";

const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const NAME = "olds.legacy.example.com";

function legacyCrd(): Record<string, unknown> {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: NAME, uid: "6a7b1c52-1111-4222-8333-944455556666", creationTimestamp: "2020-01-01T00:00:00Z", generation: 1 },
    spec: {
      group: "legacy.example.com",
      scope: "Namespaced",
      names: { plural: "olds", singular: "old", kind: "Old", listKind: "OldList" },
      preserveUnknownFields: true,
      versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object", properties: { spec: { properties: { size: { type: "integer" } } } } } } }],
      conversion: { strategy: "None" },
    },
    status: {
      acceptedNames: { plural: "olds", singular: "old", kind: "Old", listKind: "OldList" },
      conditions: [],
      storedVersions: ["v1"],
    },
  };
}

describe("NonStructuralSchema condition", () => {
  let s: RunningServer;
  before(async () => {
    s = await startServer({ ui: false });
  });
  after(async () => {
    await s.close();
  });

  it("is set while a CRD from storage stays non-structural and removed when it becomes structural", async () => {
    await s.store.create(`/registry/apiextensions.k8s.io/customresourcedefinitions/${NAME}`, JSON.stringify(legacyCrd()));
    // A v1 update of an already non-structural CRD is allowed (validation ratchets) and sets the condition.
    const r = await api(s.url, "PATCH", `${CRDS}/${NAME}`, { metadata: { labels: { touched: "yes" } } }, { "Content-Type": "application/merge-patch+json" });
    assert.equal(r.status, 200, r.text);
    // The status pass writes conditions after the write it follows (as Kubernetes' controllers): read them back.
    const got = await api(s.url, "GET", `${CRDS}/${NAME}`);
    const cond = got.json.status.conditions.find((c: { type: string }) => c.type === "NonStructuralSchema");
    assert.deepEqual({ ...cond, lastTransitionTime: undefined }, {
      type: "NonStructuralSchema",
      status: "True",
      reason: "Violations",
      message:
        "[spec.preserveUnknownFields: Invalid value: true: must be false, spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields]",
      lastTransitionTime: undefined,
    });
    // Making it structural removes the condition.
    const fixed = await api(
      s.url,
      "PATCH",
      `${CRDS}/${NAME}`,
      [
        { op: "replace", path: "/spec/preserveUnknownFields", value: false },
        { op: "add", path: "/spec/versions/0/schema/openAPIV3Schema/properties/spec/type", value: "object" },
      ],
      { "Content-Type": "application/json-patch+json" },
    );
    assert.equal(fixed.status, 200, fixed.text);
    const after = await api(s.url, "GET", `${CRDS}/${NAME}`);
    assert.equal(after.json.status.conditions.find((c: { type: string }) => c.type === "NonStructuralSchema"), undefined);
    assert.ok(after.json.status.conditions.some((c: { type: string; status: string }) => c.type === "Established" && c.status === "True"));
    // The v1 API refuses a new non-structural CRD outright.
    const fresh = legacyCrd() as { metadata: Record<string, unknown>; spec: { names: Record<string, string>; group: string } };
    fresh.metadata = { name: "news.legacy.example.com" };
    fresh.spec.names = { plural: "news", singular: "new", kind: "New" };
    delete (fresh as { status?: unknown }).status;
    const refused = await api(s.url, "POST", CRDS, fresh);
    assert.equal(refused.status, 422);
  });
});
