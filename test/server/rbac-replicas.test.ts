/**
 * The RBAC layer of two replicas on one etcd: both start at once (the bootstrap policy is written once,
 * without errors), a role binding written through one replica authorizes on the other once its policy
 * informer has the write, and both aggregation controllers converge on one result.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { RequestGate } from "../../src/server/auth/request-gate.js";
import { requestAttributes } from "../../src/server/auth/request-attributes.js";
import type { UserInfo } from "../../src/server/auth/user-info.js";
import { EtcdStore } from "../../src/storage/etcd/etcd-store.js";
import { EtcdProcess } from "../storage/etcd-process.js";

const alice: UserInfo = { name: "alice", uid: "", groups: ["system:authenticated"] };
const PATH = "/apis/stable.example.com/v1/namespaces/default/crontabs";

describe("RBAC on two replicas sharing etcd", { timeout: 120_000 }, () => {
  let etcd: EtcdProcess;
  const stores: EtcdStore[] = [];
  const gates: RequestGate[] = [];
  const errors: unknown[] = [];
  before(async () => {
    etcd = await EtcdProcess.start();
    for (let i = 0; i < 2; i++) {
      const store = new EtcdStore({ servers: [etcd.url], callTimeoutMs: 10_000, compactionIntervalMs: 0 });
      stores.push(store);
      gates.push(new RequestGate({ authorizationMode: "RBAC", summary: "", warnings: [] }, store, (e) => errors.push(e)));
    }
    await Promise.all(gates.map((g) => g.start()));
  });
  after(async () => {
    for (const g of gates) g.stop();
    for (const s of stores) await s.close();
    await etcd?.cleanup();
  });
  const allowed = (i: number, method: string) => gates[i]!.authorizer.authorize(requestAttributes(method, new URL(PATH, "http://x"), alice));

  it("starting together writes the default policy once", async () => {
    const roles = await stores[0]!.list("/registry/clusterroles/");
    assert.equal(roles.items.length, 8);
    // Each object was created once and, unless the aggregation controller fills it, never written again.
    for (const it of roles.items) if (!("aggregationRule" in JSON.parse(it.value))) assert.equal(it.createRevision, it.modRevision, it.key);
    const bindings = await stores[1]!.list("/registry/clusterrolebindings/");
    assert.equal(bindings.items.length, 4);
    for (const it of bindings.items) assert.equal(it.createRevision, it.modRevision, it.key);
    assert.equal(allowed(1, "GET").allowed, false);
  });

  it("a role binding written through one replica authorizes on the other", async () => {
    await stores[0]!.create(
      "/registry/roles/default/crontab-reader",
      JSON.stringify({ metadata: { name: "crontab-reader", namespace: "default" }, rules: [{ verbs: ["list"], apiGroups: ["stable.example.com"], resources: ["crontabs"] }] }),
    );
    const key = "/registry/rolebindings/default/alice-reads";
    const sv = await stores[0]!.create(
      key,
      JSON.stringify({
        metadata: { name: "alice-reads", namespace: "default" },
        roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "crontab-reader" },
        subjects: [{ apiGroup: "rbac.authorization.k8s.io", kind: "User", name: "alice" }],
      }),
    );
    assert.equal(await gates[1]!.caughtUp(sv.modRevision, 10_000, key), true);
    assert.deepEqual(allowed(1, "GET"), { allowed: true, reason: 'RBAC: allowed by RoleBinding "alice-reads/default" of Role "crontab-reader" to User "alice"' });
    assert.equal(allowed(1, "POST").allowed, false);
  });

  it("both aggregation controllers converge: edit gets an aggregated role's rules", async () => {
    const rule = { verbs: ["get"], apiGroups: ["stable.example.com"], resources: ["crontabs"] };
    const editKey = "/registry/clusterroles/edit";
    // The first write of `edit` that carries rules (both controllers race to write it; one write wins).
    let seen: (rules: unknown) => void = () => {};
    const aggregated = new Promise<unknown>((resolve) => {
      seen = resolve;
    });
    const from = await stores[0]!.currentRevision();
    const watch = await stores[0]!.watch(editKey, from, (e) => {
      const rules = JSON.parse(e.value).rules;
      if (e.key === editKey && Array.isArray(rules) && rules.length > 0) seen(rules);
    });
    await stores[1]!.create(
      "/registry/clusterroles/crontab-edit",
      JSON.stringify({ metadata: { name: "crontab-edit", labels: { "rbac.authorization.k8s.io/aggregate-to-edit": "true" } }, rules: [rule] }),
    );
    assert.deepEqual(await aggregated, [rule]);
    watch.cancel();
    const edit = await stores[1]!.get(editKey);
    assert.deepEqual(JSON.parse(edit!.value).rules, [rule]);
    assert.deepEqual(errors, []);
  });
});
