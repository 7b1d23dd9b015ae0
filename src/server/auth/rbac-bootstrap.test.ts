import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SqliteStore } from "../../storage/sqlite-store.js";
import { ensureBootstrapPolicy } from "./rbac-bootstrap.js";
import { CLUSTER_ROLE_BINDINGS_PREFIX, CLUSTER_ROLES_PREFIX } from "./rbac-policy.js";

describe("bootstrap RBAC policy", () => {
  it("replicas starting at once create each default object once, without errors; a restart creates nothing", async () => {
    const store = new SqliteStore({ path: ":memory:" });
    const counts = await Promise.all([ensureBootstrapPolicy(store), ensureBootstrapPolicy(store), ensureBootstrapPolicy(store)]);
    const roles = (await store.list(CLUSTER_ROLES_PREFIX)).items.map((it) => it.key.slice(CLUSTER_ROLES_PREFIX.length));
    const bindings = (await store.list(CLUSTER_ROLE_BINDINGS_PREFIX)).items.map((it) => it.key.slice(CLUSTER_ROLE_BINDINGS_PREFIX.length));
    assert.deepEqual(roles, ["admin", "cluster-admin", "edit", "system:aggregate-to-admin", "system:basic-user", "system:discovery", "system:public-info-viewer", "view"]);
    assert.deepEqual(bindings, ["cluster-admin", "system:basic-user", "system:discovery", "system:public-info-viewer"]);
    assert.equal(
      counts.reduce((a, b) => a + b, 0),
      roles.length + bindings.length,
    );
    assert.equal(await ensureBootstrapPolicy(store), 0);
    await store.close();
  });

  it("leaves an object the user changed as it is", async () => {
    const store = new SqliteStore({ path: ":memory:" });
    await ensureBootstrapPolicy(store);
    const key = `${CLUSTER_ROLES_PREFIX}system:basic-user`;
    const changed = JSON.stringify({ metadata: { name: "system:basic-user" }, rules: [] });
    await store.update(key, changed);
    assert.equal(await ensureBootstrapPolicy(store), 0);
    assert.equal((await store.get(key))!.value, changed);
    await store.close();
  });
});
