import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ApiError } from "../endpoints/errors.js";
import { strategicMergePatch } from "./strategic-merge.js";

describe("strategic merge patch of RBAC kinds", () => {
  const base = {
    metadata: { name: "r", labels: { a: "1" }, finalizers: ["x"], ownerReferences: [{ uid: "u1", name: "o1" }, { uid: "u2", name: "o2" }] },
    rules: [{ verbs: ["get"], apiGroups: [""], resources: ["a"] }],
  };
  it("merges maps, replaces lists without a strategy, nulls delete", () => {
    const got = strategicMergePatch(base, { metadata: { labels: { b: "2", a: null } }, rules: [{ verbs: ["list"], apiGroups: ["g"], resources: ["b"] }] });
    assert.deepEqual(got, { ...base, metadata: { ...base.metadata, labels: { b: "2" } }, rules: [{ verbs: ["list"], apiGroups: ["g"], resources: ["b"] }] });
  });
  it("finalizers merge as a set; $deleteFromPrimitiveList removes", () => {
    const got = strategicMergePatch(base, { metadata: { finalizers: ["y", "x"], "$deleteFromPrimitiveList/finalizers": ["x"] } }) as typeof base;
    assert.deepEqual(got.metadata.finalizers, ["y"]);
  });
  it("ownerReferences merge by uid; $patch: delete removes an item", () => {
    const got = strategicMergePatch(base, { metadata: { ownerReferences: [{ uid: "u2", name: "renamed" }, { uid: "u1", $patch: "delete" }, { uid: "u3", name: "o3" }] } }) as typeof base;
    assert.deepEqual(got.metadata.ownerReferences, [{ uid: "u2", name: "renamed" }, { uid: "u3", name: "o3" }]);
  });
  it("$patch: replace on a map; $setElementOrder is accepted; other directives are 400", () => {
    const got = strategicMergePatch(base, { metadata: { $patch: "replace", name: "r" }, "$setElementOrder/rules": [] }) as typeof base;
    assert.deepEqual(got.metadata, { name: "r" });
    assert.throws(() => strategicMergePatch(base, { $retainKeys: ["rules"] }), (e: unknown) => e instanceof ApiError && e.status.code === 400);
  });
});
