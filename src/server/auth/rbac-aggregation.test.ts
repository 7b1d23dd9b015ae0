import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SqliteStore } from "../../storage/sqlite-store.js";
import { ClusterRoleAggregator, labelSelectorMatches } from "./rbac-aggregation.js";

describe("cluster role aggregation", () => {
  it("label selectors", () => {
    const l = { a: "1", b: "2" };
    assert.equal(labelSelectorMatches({}, l), true);
    assert.equal(labelSelectorMatches({ matchLabels: { a: "1" } }, l), true);
    assert.equal(labelSelectorMatches({ matchLabels: { a: "2" } }, l), false);
    assert.equal(labelSelectorMatches({ matchExpressions: [{ key: "b", operator: "In", values: ["2", "3"] }] }, l), true);
    assert.equal(labelSelectorMatches({ matchExpressions: [{ key: "b", operator: "NotIn", values: ["2"] }] }, l), false);
    assert.equal(labelSelectorMatches({ matchExpressions: [{ key: "c", operator: "DoesNotExist" }] }, l), true);
    assert.equal(labelSelectorMatches({ matchExpressions: [{ key: "c", operator: "Exists" }] }, l), false);
  });

  it("collects the rules of matching cluster roles and follows changes", async () => {
    const store = new SqliteStore({ path: ":memory:" });
    const put = (name: string, obj: object) => store.create(`/registry/clusterroles/${name}`, JSON.stringify({ metadata: { name }, ...obj }));
    const rule = (r: string) => ({ verbs: ["get"], apiGroups: ["g"], resources: [r] });
    put("agg", { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { "agg-to": "agg" } }] } });
    put("b-part", { metadata: { name: "b-part", labels: { "agg-to": "agg" } }, rules: [rule("b"), rule("a")] });
    put("a-part", { metadata: { name: "a-part", labels: { "agg-to": "agg" } }, rules: [rule("a")] });
    put("other", { rules: [rule("x")] });
    const agg = new ClusterRoleAggregator(store);
    const rules = () => JSON.parse(store.get("/registry/clusterroles/agg")!.value).rules;
    assert.deepEqual(rules(), [rule("a"), rule("b")]);
    put("c-part", { metadata: { name: "c-part", labels: { "agg-to": "agg" } }, rules: [rule("c")] });
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(rules(), [rule("a"), rule("b"), rule("c")]);
    agg.stop();
    store.close();
  });
});
