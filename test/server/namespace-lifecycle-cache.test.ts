/**
 * NamespaceLifecycle with a store cache (the etcd watch cache's `peek`): a namespace the cache holds as Active
 * is admitted without a store read, as the plugin's lister does; a namespace the cache does not have, or has
 * as Terminating, is read from the store (the live lookup), so the answers are the plugin's.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ApiError } from "../../src/server/endpoints/errors.js";
import { admitNamespaced } from "../../src/server/registry/namespace/namespace-lifecycle.js";
import type { ResourceType } from "../../src/server/registry/resource-type.js";
import { MemoryStore } from "../../src/storage/memory-store.js";
import type { Store, StoredValue } from "../../src/storage/types.js";

const rt = { namespaced: true, plural: "widgets", group: "test.example.com" } as unknown as ResourceType;
const ns = (phase: string) => JSON.stringify({ apiVersion: "v1", kind: "Namespace", metadata: { name: "team" }, status: { phase } });
const widget = { apiVersion: "test.example.com/v1", kind: "Widget", metadata: { name: "w" } };

/** A store whose `peek` answers from `cached` and which counts its `get` calls. */
function storeWith(live: string | undefined, cached: string | undefined | "no cache") {
  const backing = new MemoryStore();
  let gets = 0;
  const store: Store = Object.assign(Object.create(backing) as Store, {
    get: (key: string) => {
      gets++;
      return backing.get(key);
    },
    peek: (key: string): { value: StoredValue | undefined } | undefined =>
      cached === "no cache" ? undefined : { value: cached === undefined ? undefined : { key, value: cached, createRevision: 1, modRevision: 1 } },
  });
  return {
    store,
    gets: () => gets,
    ready: live === undefined ? Promise.resolve() : backing.create("/registry/namespaces/team", live).then(() => {}),
  };
}

async function outcome(store: Store, op: "create" | "update" = "create"): Promise<string> {
  try {
    await admitNamespaced(store, rt, "team", op, structuredClone(widget));
    return "admitted";
  } catch (e) {
    assert.ok(e instanceof ApiError);
    return `${e.status.code} ${e.status.message}`;
  }
}

describe("NamespaceLifecycle with a cache", () => {
  it("admits a namespace the cache holds as Active without reading the store", async () => {
    const s = storeWith(undefined, ns("Active"));
    await s.ready;
    assert.equal(await outcome(s.store), "admitted");
    assert.equal(s.gets(), 0);
  });

  it("reads the store when the cache misses the namespace or holds it as Terminating", async () => {
    const cases: [live: string | undefined, cached: string | undefined | "no cache", want: string][] = [
      [ns("Active"), undefined, "admitted"],
      [undefined, undefined, `404 namespaces "team" not found`],
      [ns("Active"), ns("Terminating"), "admitted"],
      [ns("Terminating"), ns("Terminating"), `403 widgets.test.example.com "w" is forbidden: unable to create new content in namespace team because it is being terminated`],
      [ns("Terminating"), "no cache", `403 widgets.test.example.com "w" is forbidden: unable to create new content in namespace team because it is being terminated`],
      [undefined, "no cache", `404 namespaces "team" not found`],
    ];
    for (const [live, cached, want] of cases) {
      const s = storeWith(live, cached);
      await s.ready;
      assert.equal(await outcome(s.store), want, `live ${live}, cached ${cached}`);
      assert.equal(s.gets(), 1);
    }
  });
});
