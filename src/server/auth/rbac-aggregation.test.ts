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
    await put("agg", { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { "agg-to": "agg" } }] } });
    await put("b-part", { metadata: { name: "b-part", labels: { "agg-to": "agg" } }, rules: [rule("b"), rule("a")] });
    await put("a-part", { metadata: { name: "a-part", labels: { "agg-to": "agg" } }, rules: [rule("a")] });
    const other = await put("other", { rules: [rule("x")] });
    const agg = new ClusterRoleAggregator(store);
    await agg.start();
    await agg.synced(other.modRevision);
    const rules = async () => JSON.parse((await store.get("/registry/clusterroles/agg"))!.value).rules;
    assert.deepEqual(await rules(), [rule("a"), rule("b")]);
    const c = await put("c-part", { metadata: { name: "c-part", labels: { "agg-to": "agg" } }, rules: [rule("c")] });
    await agg.synced(c.modRevision);
    assert.deepEqual(await rules(), [rule("a"), rule("b"), rule("c")]);
    agg.stop();
    await store.close();
  });

  it("two controllers on one store (two replicas) converge without errors", async () => {
    const store = new SqliteStore({ path: ":memory:" });
    const errors: unknown[] = [];
    const put = (name: string, obj: object) => store.create(`/registry/clusterroles/${name}`, JSON.stringify({ metadata: { name }, ...obj }));
    const rule = (r: string) => ({ verbs: ["get"], apiGroups: ["g"], resources: [r] });
    await put("agg", { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { "agg-to": "agg" } }] } });
    const ctrls = [new ClusterRoleAggregator(store, (e) => errors.push(e)), new ClusterRoleAggregator(store, (e) => errors.push(e))];
    await Promise.all(ctrls.map((c) => c.start()));
    let last = 0;
    for (const r of ["a", "b", "c"]) last = (await put(`${r}-part`, { metadata: { name: `${r}-part`, labels: { "agg-to": "agg" } }, rules: [rule(r)] })).modRevision;
    await Promise.all(ctrls.map((c) => c.synced(last)));
    const now = await store.currentRevision();
    await Promise.all(ctrls.map((c) => c.synced(now)));
    assert.deepEqual(JSON.parse((await store.get("/registry/clusterroles/agg"))!.value).rules, [rule("a"), rule("b"), rule("c")]);
    assert.deepEqual(errors, []);
    for (const c of ctrls) c.stop();
    await store.close();
  });
});
