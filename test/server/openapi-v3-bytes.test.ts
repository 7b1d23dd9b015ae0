/**
 * The OpenAPI v3 documents of custom resources are byte-identical to the real server's: the `/openapi/v3` index
 * hashes each document's bytes (SHA-512, as kube-openapi), and the hashes recorded from Kubernetes
 * (test/golden/server/02-discovery.json, 31-openapi-crds.json) are crdkit's for the same CRDs.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { operationIdAndTag, toValidOperationId } from "../../src/server/openapi/crd-paths.js";
import { schemaJson } from "../../src/server/openapi/schema-json.js";
import { startServer, type RunningServer } from "../../src/server/server.js";
import { float64, int64 } from "../../src/value/json-value.js";
import { type HttpStep, loadSequences, REPO_ROOT } from "../server-diff/runner.js";
import { api } from "./client.js";

const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

/** The recorded index's URLs of the group version documents (the custom resources' and the CRD kind's own). */
function recordedUrls(sequence: string): Map<string, string> {
  const golden = JSON.parse(readFileSync(join(REPO_ROOT, "test", "golden", "server", `${sequence}.json`), "utf8")) as {
    results: { step: string; body: { paths?: Record<string, { serverRelativeURL: string }> } }[];
  };
  const index = golden.results.find((r) => r.step.endsWith(": GET /openapi/v3"))!;
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(index.body.paths!)) if (k.startsWith("apis/") && k.split("/").length === 3) out.set(k, v.serverRelativeURL);
  return out;
}

describe("OpenAPI v3 documents of custom resources", () => {
  let s: RunningServer;
  before(async () => {
    s = await startServer({ port: 0 });
    const seqs = loadSequences();
    for (const name of ["02-discovery", "31-openapi-crds"]) {
      for (const step of seqs.get(name)!.steps) {
        const h = step as HttpStep;
        if (h.method === "POST" && h.path === CRDS) assert.equal((await api(s.url, "POST", CRDS, h.body)).status, 201);
      }
    }
  });
  after(() => s.close());

  it("are hashed in the index as Kubernetes hashes them, and served with that hash as ETag (the CRD kind's too)", async () => {
    const index = await api(s.url, "GET", "/openapi/v3");
    assert.equal(index.status, 200);
    const paths = (index.json as { paths: Record<string, { serverRelativeURL: string }> }).paths;
    const want = new Map([...recordedUrls("02-discovery"), ...recordedUrls("31-openapi-crds")]);
    assert.deepEqual([...want.keys()].sort(), ["apis/apiextensions.k8s.io/v1", "apis/disc.example.com/v1", "apis/disc.example.com/v1beta1", "apis/edge.example.com/v1", "apis/shop.example.com/v1", "apis/shop.example.com/v2", "apis/zz.example.com/v1alpha1"]);
    for (const [gv, url] of want) {
      assert.equal(paths[gv]?.serverRelativeURL, url, gv);
      const doc = await api(s.url, "GET", `/openapi/v3/${gv}`);
      assert.equal(doc.status, 200);
      const hash = createHash("sha512").update(doc.text).digest("hex").toUpperCase();
      assert.equal(`/openapi/v3/${gv}?hash=${hash}`, url, gv);
      assert.equal(doc.headers.get("etag"), `"${hash}"`);
    }
  });

  it("change, with their hash, when a CRD changes", async () => {
    const before = (await api(s.url, "GET", "/openapi/v3")).json as { paths: Record<string, { serverRelativeURL: string }> };
    const crd = (await api(s.url, "GET", `${CRDS}/gadgets.shop.example.com`)).json as { spec: { versions: { schema: unknown }[] } };
    crd.spec.versions[0]!.schema = { openAPIV3Schema: { type: "object", description: "changed" } };
    assert.equal((await api(s.url, "PUT", `${CRDS}/gadgets.shop.example.com`, crd)).status, 200);
    const afterIndex = (await api(s.url, "GET", "/openapi/v3")).json as { paths: Record<string, { serverRelativeURL: string }> };
    assert.notEqual(afterIndex.paths["apis/shop.example.com/v1"]!.serverRelativeURL, before.paths["apis/shop.example.com/v1"]!.serverRelativeURL);
    assert.equal(afterIndex.paths["apis/zz.example.com/v1alpha1"]!.serverRelativeURL, before.paths["apis/zz.example.com/v1alpha1"]!.serverRelativeURL);
    const doc = await api(s.url, "GET", "/openapi/v3/apis/shop.example.com/v1");
    const gadget = (doc.json as { components: { schemas: Record<string, { description?: string }> } }).components.schemas["com.example.shop.v1.Gadget"];
    assert.equal(gadget?.description, "changed");
    const hash = createHash("sha512").update(doc.text).digest("hex").toUpperCase();
    assert.equal(afterIndex.paths["apis/shop.example.com/v1"]!.serverRelativeURL, `/openapi/v3/apis/shop.example.com/v1?hash=${hash}`);
  });
});

describe("schemaJson (kube-openapi's spec.Schema field order)", () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ["struct order, extensions sorted last", { properties: { b: { type: "string" }, a: { type: "integer" } }, "x-kubernetes-map-type": "atomic", type: "object", description: "d", "x-kubernetes-embedded-resource": true }, '{"description":"d","type":"object","properties":{"a":{"type":"integer"},"b":{"type":"string"}},"x-kubernetes-embedded-resource":true,"x-kubernetes-map-type":"atomic"}'],
    ["omitempty: false flags, empty lists and strings", { type: "array", uniqueItems: false, nullable: false, enum: [], required: [], description: "", "x-kubernetes-preserve-unknown-fields": false }, '{"type":"array"}'],
    ["numbers as float64, lengths as integers, HTML-safe strings", { type: "number", maximum: int64(9007199254740993n), minimum: float64(1.5), maxLength: 5, default: float64(1), pattern: "<a&b>" }, '{"type":"number","default":1,"maximum":9007199254740992,"minimum":1.5,"maxLength":5,"pattern":"\\u003ca\\u0026b\\u003e"}'],
    ["validation rules in struct order", { "x-kubernetes-validations": [{ message: "m", rule: "r", optionalOldSelf: false, fieldPath: "" }] }, '{"x-kubernetes-validations":[{"rule":"r","message":"m","optionalOldSelf":false}]}'],
  ];
  for (const [name, schema, want] of cases) it(name, () => assert.equal(schemaJson(schema as never), want));
});

describe("toValidOperationId (apiserver's operation id and tag parts)", () => {
  const cases: [string, boolean, string][] = [
    ["disc.example.com", true, "DiscExampleCom"],
    ["disc.example.com", false, "discExampleCom"],
    ["my-group.x9.example.com", true, "MyGroupX9ExampleCom"],
    ["v1beta1", true, "V1beta1"],
    ["9lives.io", true, "LivesIo"],
  ];
  for (const [s, cap, want] of cases) it(`${s} → ${want}`, () => assert.equal(toValidOperationId(s, cap), want));
});

describe("operationIdAndTag (apiserver's GetOperationIDAndTags)", () => {
  const cases: [string, string, string, string, string][] = [
    ["shop.example.com", "v1", "deletecollectionNamespacedWidget", "deleteShopExampleComV1CollectionNamespacedWidget", "shopExampleCom_v1"],
    ["shop.example.com", "v1", "listWidgetForAllNamespaces", "listShopExampleComV1WidgetForAllNamespaces", "shopExampleCom_v1"],
    ["shop.example.com", "v2beta1", "readNamespacedWidgetStatus", "readShopExampleComV2beta1NamespacedWidgetStatus", "shopExampleCom_v2beta1"],
    // A group under .k8s.io is named without that suffix, as the built-in groups are.
    ["snapshot.storage.k8s.io", "v1", "createVolumeSnapshot", "createSnapshotStorageV1VolumeSnapshot", "snapshotStorage_v1"],
  ];
  for (const [group, version, operation, id, tag] of cases) it(`${operation} in ${group}/${version}`, () => assert.deepEqual(operationIdAndTag(group, version, operation), { id, tag }));
});
