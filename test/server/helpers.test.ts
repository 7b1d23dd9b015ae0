import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { negotiateDiscovery } from "../../src/server/discovery/discovery.js";
import { humanDuration } from "../../src/server/tableconvertor/human-duration.js";
import { compileJsonPath, evalJsonPath } from "../../src/server/tableconvertor/jsonpath.js";
import { modelName } from "../../src/server/openapi/openapi.js";
import { jsonPatch, JsonPatchDecodeError, JsonPatchError, mergePatch } from "../../src/server/endpoints/patch.js";
import { compareKubeVersions } from "../../src/server/registry/registry.js";
import { parseFieldSelector, parseLabelSelector } from "../../src/server/endpoints/selectors.js";
import { TableConvertor } from "../../src/server/tableconvertor/table.js";
import type { JsonValue } from "../../src/value/json-value.js";

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe("humanDuration (apimachinery duration.HumanDuration)", () => {
  const cases: [number, string][] = [
    [-3 * S, "<invalid>"],
    [-1 * S, "0s"],
    [0, "0s"],
    [119 * S, "119s"],
    [2 * M, "2m"],
    [3 * M + 20 * S, "3m20s"],
    [10 * M, "10m"],
    [179 * M, "179m"],
    [3 * H, "3h"],
    [5 * H + 30 * M, "5h30m"],
    [8 * H, "8h"],
    [47 * H, "47h"],
    [2 * D, "2d"],
    [3 * D + 4 * H, "3d4h"],
    [8 * D, "8d"],
    [729 * D, "729d"],
    [2 * 365 * D, "2y"],
    [3 * 365 * D + 10 * D, "3y10d"],
    [9 * 365 * D, "9y"],
  ];
  for (const [ms, want] of cases) it(`${ms} ms → ${want}`, () => assert.equal(humanDuration(ms), want));
});

describe("jsonpath subset", () => {
  const obj: JsonValue = {
    spec: { replicas: 3, "a.b": "dotted", list: [{ name: "x", v: 1 }, { name: "y", v: 2 }] },
    status: { conditions: [{ type: "Ready", status: "True" }, { type: "Synced", status: "False" }] },
  };
  const cases: [string, JsonValue[]][] = [
    [".spec.replicas", [3]],
    ["{.spec.replicas}", [3]],
    [".spec.missing", []],
    [".spec['a.b']", ["dotted"]],
    [".spec.list[1].name", ["y"]],
    [".spec.list[-1].v", [2]],
    [".spec.list[*].name", ["x", "y"]],
    ['.status.conditions[?(@.type=="Ready")].status', ["True"]],
    ['.status.conditions[?(@.type!="Ready")].type', ["Synced"]],
  ];
  for (const [path, want] of cases) {
    it(path, () => {
      const p = compileJsonPath(path);
      assert.ok(p);
      assert.deepEqual(evalJsonPath(p, obj), want);
    });
  }
  for (const bad of ["spec", "..spec", ".spec[", ".a[?(@.x=~y)]"]) it(`rejects ${bad}`, () => assert.equal(compileJsonPath(bad), undefined));
});

describe("label and field selectors", () => {
  const labels = { app: "web", tier: "front" };
  const cases: [string, boolean][] = [
    ["", true],
    ["app=web", true],
    ["app==web", true],
    ["app!=web", false],
    ["app=db", false],
    ["app in (db,web)", true],
    ["app notin (db,web)", false],
    ["tier", true],
    ["!tier", false],
    ["missing!=x", true],
    ["app=web,tier=back", false],
  ];
  for (const [sel, want] of cases) it(`labelSelector ${JSON.stringify(sel)}`, () => assert.equal(parseLabelSelector(sel).matches(labels), want));
  it("field selectors compare strings, a missing field is empty", () => {
    const f = { "metadata.name": "a", "spec.color": "" };
    assert.equal(parseFieldSelector("metadata.name=a").matches(f), true);
    assert.equal(parseFieldSelector("metadata.name!=a").matches(f), false);
    assert.equal(parseFieldSelector("spec.color=").matches(f), true);
    assert.equal(parseFieldSelector("spec.other=").matches(f), true);
    assert.deepEqual(parseFieldSelector("a=1,b==2").keys(), ["a", "b"]);
  });
});

describe("merge patch (RFC 7386)", () => {
  const cases: [JsonValue, JsonValue, JsonValue][] = [
    [{ a: "b" }, { a: "c" }, { a: "c" }],
    [{ a: "b" }, { b: "c" }, { a: "b", b: "c" }],
    [{ a: "b" }, { a: null }, {}],
    [{ a: "b", b: "c" }, { a: null }, { b: "c" }],
    [{ a: ["b"] }, { a: "c" }, { a: "c" }],
    [{ a: "c" }, { a: ["b"] }, { a: ["b"] }],
    [{ a: { b: "c" } }, { a: { b: "d", c: null } }, { a: { b: "d" } }],
    [{ a: [{ b: "c" }] }, { a: [1] }, { a: [1] }],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: "b", c: null }, { a: "b" }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ];
  cases.forEach(([target, patch, want], i) => {
    it(`case ${i}`, () => assert.deepEqual(mergePatch(target, patch), want));
  });
});

describe("JSON patch (RFC 6902)", () => {
  const doc = { spec: { list: [1, 2], name: "a" } };
  const cases: [JsonValue, JsonValue | string][] = [
    [[{ op: "add", path: "/spec/x", value: 1 }], { spec: { list: [1, 2], name: "a", x: 1 } }],
    [[{ op: "add", path: "/spec/list/-", value: 3 }], { spec: { list: [1, 2, 3], name: "a" } }],
    [[{ op: "add", path: "/spec/list/0", value: 0 }], { spec: { list: [0, 1, 2], name: "a" } }],
    [[{ op: "remove", path: "/spec/list/0" }], { spec: { list: [2], name: "a" } }],
    [[{ op: "replace", path: "/spec/name", value: "b" }], { spec: { list: [1, 2], name: "b" } }],
    [[{ op: "move", from: "/spec/name", path: "/spec/other" }], { spec: { list: [1, 2], other: "a" } }],
    [[{ op: "copy", from: "/spec/name", path: "/spec/other" }], { spec: { list: [1, 2], name: "a", other: "a" } }],
    [[{ op: "test", path: "/spec/name", value: "a" }], doc],
    [[{ op: "test", path: "/spec/name", value: "b" }], "testing value /spec/name failed: test failed"],
    // json-patch v4, which the API server uses, replaces a missing key of an object as if it were there.
    [[{ op: "replace", path: "/spec/missing", value: 1 }], { spec: { list: [1, 2], name: "a", missing: 1 } }],
    [[{ op: "replace", path: "/spec/list/2", value: 1 }], "index out of range: 2"],
    [[{ op: "remove", path: "/spec/list/5" }], "index out of range: 5"],
    [[{ op: "frobnicate", path: "/spec" }], "Unexpected kind: frobnicate"],
  ];
  cases.forEach(([ops, want], i) => {
    it(`case ${i}`, () => {
      if (typeof want === "string") assert.throws(() => jsonPatch(doc, ops), (e: unknown) => e instanceof JsonPatchError && e.message === want);
      else assert.deepEqual(jsonPatch(doc, ops), want);
    });
  });
  it("rejects a patch that is not an array as a decode error", () => {
    assert.throws(() => jsonPatch(doc, { op: "add" }), (e: unknown) => e instanceof JsonPatchDecodeError && e.message === "error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp");
  });
  it("leaves the input untouched", () => {
    jsonPatch(doc, [{ op: "remove", path: "/spec/list/0" }]);
    assert.deepEqual(doc, { spec: { list: [1, 2], name: "a" } });
  });
});

describe("discovery negotiation", () => {
  const cases: [string | undefined, string][] = [
    [undefined, "legacy"],
    ["application/json, */*", "legacy"],
    ["application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json", "v2"],
    ["application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json", "v2beta1"],
    ["application/json,application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList", "legacy"],
  ];
  for (const [accept, want] of cases) it(`${accept ?? "no Accept"} → ${want}`, () => assert.equal(negotiateDiscovery(accept), want));
});

describe("names and ordering", () => {
  it("modelName reverses the group", () => assert.equal(modelName("stable.example.com", "v1", "CronTab"), "com.example.stable.v1.CronTab"));
  it("sorts versions kube-aware", () =>
    assert.deepEqual(["v1alpha1", "foo", "v2beta1", "v1", "v1beta2", "v2", "v1beta1"].sort(compareKubeVersions), ["v2", "v1", "v2beta1", "v1beta2", "v1beta1", "v1alpha1", "foo"]));
});

describe("table cells (tableconvertor rules)", () => {
  const t = new TableConvertor([
    { name: "S", type: "string", format: "", description: "", priority: 0, jsonPath: ".spec.s" },
    { name: "I", type: "integer", format: "", description: "", priority: 0, jsonPath: ".spec.i" },
    { name: "N", type: "number", format: "", description: "", priority: 0, jsonPath: ".spec.n" },
    { name: "B", type: "boolean", format: "", description: "", priority: 0, jsonPath: ".spec.b" },
    { name: "D", type: "date", format: "", description: "", priority: 0, jsonPath: ".spec.d" },
  ]);
  const row = (spec: JsonValue) => t.row({ metadata: { name: "x" }, spec }, "None", Date.parse("2026-01-01T00:10:00Z"))["cells"];
  it("formats by type", () => assert.deepEqual(row({ s: { a: 1 }, i: 2.7, n: 3, b: true, d: "2026-01-01T00:00:00Z" }), ["x", '{"a":1}', 2, 3, true, "10m"]));
  it("type mismatches and missing values are null", () => assert.deepEqual(row({ i: "2", n: "x", b: "true", d: 5 }), ["x", null, null, null, null, null]));
  it("bad dates are <invalid>", () => assert.deepEqual(row({ d: "yesterday" }), ["x", null, null, null, null, "<invalid>"]));
});
