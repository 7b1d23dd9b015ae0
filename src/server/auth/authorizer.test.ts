import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { SqliteStore } from "../../storage/sqlite-store.js";
import { Authorizer } from "./authorizer.js";
import { RbacPolicy } from "./rbac-policy.js";
import { requestAttributes } from "./request-attributes.js";
import type { UserInfo } from "./user-info.js";

const put = (s: SqliteStore, key: string, obj: object) => s.create(key, JSON.stringify(obj));
const binding = (name: string, ns: string, ref: [string, string], subjects: object[]) => ({
  metadata: { name, ...(ns ? { namespace: ns } : {}) },
  roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: ref[0], name: ref[1] },
  subjects,
});

describe("RBAC authorizer over the store", () => {
  const store = new SqliteStore({ path: ":memory:" });
  const policy = new RbacPolicy(store);
  const authz = new Authorizer("RBAC", policy);
  before(async () => {
    await put(store, "/registry/roles/ns/reader", { metadata: { name: "reader", namespace: "ns" }, rules: [{ verbs: ["get"], apiGroups: ["x.io"], resources: ["things"] }] });
    await put(store, "/registry/rolebindings/ns/rb", binding("rb", "ns", ["Role", "reader"], [{ kind: "User", name: "u" }, { kind: "ServiceAccount", name: "bot" }]));
    await put(store, "/registry/rolebindings/ns/dangling", binding("dangling", "ns", ["Role", "missing"], [{ kind: "Group", name: "g" }]));
    await policy.start();
  });
  after(async () => {
    policy.stop();
    await store.close();
  });
  const ask = (user: UserInfo, path: string, method = "GET") => authz.authorize(requestAttributes(method, new URL(path, "http://x"), user));
  const u: UserInfo = { name: "u", uid: "", groups: [] };

  it("allows with the binding as reason; denies elsewhere", () => {
    assert.deepEqual(ask(u, "/apis/x.io/v1/namespaces/ns/things/a"), { allowed: true, reason: 'RBAC: allowed by RoleBinding "rb/ns" of Role "reader" to User "u"' });
    assert.deepEqual(ask(u, "/apis/x.io/v1/namespaces/other/things/a"), { allowed: false, reason: "" });
    assert.deepEqual(ask(u, "/apis/x.io/v1/namespaces/ns/things/a", "DELETE"), { allowed: false, reason: "" });
  });
  it("service accounts of the binding's namespace match", () => {
    const sa: UserInfo = { name: "system:serviceaccount:ns:bot", uid: "", groups: [] };
    assert.equal(ask(sa, "/apis/x.io/v1/namespaces/ns/things/a").reason, 'RBAC: allowed by RoleBinding "rb/ns" of Role "reader" to ServiceAccount "bot/ns"');
  });
  it("a binding to a missing role is the denial's reason (lister text)", () => {
    assert.deepEqual(ask({ name: "x", uid: "", groups: ["g"] }, "/apis/x.io/v1/namespaces/ns/things/a"), {
      allowed: false,
      reason: 'RBAC: role.rbac.authorization.k8s.io "missing" not found',
    });
  });
  it("follows store changes (a deleted binding stops allowing, a new one allows)", async () => {
    const { revision } = await store.delete("/registry/rolebindings/ns/rb");
    assert.equal(await policy.caughtUp(revision, 5000, "/registry/rolebindings/ns/rb"), true);
    assert.equal(ask(u, "/apis/x.io/v1/namespaces/ns/things/a").allowed, false);
    const sv = await put(store, "/registry/rolebindings/ns/rb2", binding("rb2", "ns", ["Role", "reader"], [{ kind: "User", name: "u" }]));
    assert.equal(await policy.caughtUp(sv.modRevision, 5000, sv.key), true);
    assert.equal(ask(u, "/apis/x.io/v1/namespaces/ns/things/a").reason, 'RBAC: allowed by RoleBinding "rb2/ns" of Role "reader" to User "u"');
  });
  it("system:masters is allowed everything", () => {
    assert.equal(ask({ name: "m", uid: "", groups: ["system:masters"] }, "/anything", "DELETE").allowed, true);
  });
});
