import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MemoryStore } from "../../storage/memory-store.js";
import type { StoredValue, StoreEvent } from "../../storage/types.js";
import { PrefixInformer } from "./prefix-informer.js";

describe("PrefixInformer with a paged, filtered list", () => {
  it("reads every page at the first page's revision, keeps what the filter accepts, then watches from there", async () => {
    const store = new MemoryStore();
    for (let i = 0; i < 8; i++) await store.create(`/registry/g/r/k${i}`, JSON.stringify({ n: i, keep: i % 3 === 0 }));
    await store.create("/registry0/outside", "{}");
    let listed: { items: StoredValue[]; revision: number } | undefined;
    const events: StoreEvent[] = [];
    const inf = new PrefixInformer(
      store,
      "/registry/",
      { replace: (items, revision) => (listed = { items, revision }), event: (e) => events.push(e) },
      { pageSize: 3, keep: (it) => it.value.includes('"keep":true') },
    );
    try {
      await inf.start();
      assert.deepEqual(listed?.items.map((it) => it.key), ["/registry/g/r/k0", "/registry/g/r/k3", "/registry/g/r/k6"]);
      assert.equal(listed?.revision, (await store.list("/")).revision);
      const w = await store.create("/registry/g/r/k9", "{}");
      assert.equal(await inf.waitFor(w.modRevision, 5000), true);
      assert.deepEqual(events.map((e) => [e.type, e.key]), [["ADDED", "/registry/g/r/k9"]]);
    } finally {
      inf.stop();
      await store.close();
    }
  });
});
