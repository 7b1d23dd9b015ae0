/**
 * The registry takes the object a CRD write's watch event would parse from the writer when the writer handed it
 * over (`Registry.prime`) for exactly that stored text, and parses otherwise; `groupState` names the other CRDs of a
 * group with their revisions.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CRD_PREFIX, Registry } from "../../src/server/registry/registry.js";
import { MemoryStore } from "../../src/storage/memory-store.js";

function crdText(plural: string, group: string): string {
  return JSON.stringify({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${plural}.${group}` },
    spec: { group, names: { plural, kind: "Thing" }, scope: "Namespaced", versions: [{ name: "v1", served: true, storage: true }] },
  });
}

describe("Registry.prime", () => {
  it("uses the handed-over object for the event of that text, and parses any other text", async () => {
    const store = new MemoryStore();
    const registry = new Registry(store);
    await registry.start();
    const key = `${CRD_PREFIX}things.a.example.com`;
    const text = crdText("things", "a.example.com");
    const handed = JSON.parse(text) as Record<string, never>;
    registry.prime(key, text, handed);
    const created = await store.create(key, text);
    assert.ok(await registry.caughtUp(created.modRevision));
    assert.equal(registry.objectAt("things.a.example.com", created.modRevision), handed);

    // Primed for another text: the event's own text is parsed.
    const other = JSON.parse(text) as Record<string, never>;
    registry.prime(key, `${text} `, other);
    const changed = crdText("things", "a.example.com").replace('"kind":"Thing"', '"kind":"Thing2"');
    const updated = await store.update(key, changed, created.modRevision);
    assert.ok(await registry.caughtUp(updated.modRevision));
    const held = registry.objectAt("things.a.example.com", updated.modRevision);
    assert.notEqual(held, other);
    assert.deepEqual(held, JSON.parse(changed));
    // An older revision is not what the registry holds.
    assert.equal(registry.objectAt("things.a.example.com", created.modRevision), undefined);
    registry.stop();
    await store.close();
  });

  it("keeps the objects handed over for two writes of one key (a create and the write sent behind it), each used once", async () => {
    const store = new MemoryStore();
    const registry = new Registry(store);
    await registry.start();
    const key = `${CRD_PREFIX}things.b.example.com`;
    const text = crdText("things", "b.example.com");
    const next = text.replace('"kind":"Thing"', '"kind":"Thing2"');
    const first = JSON.parse(text) as Record<string, never>;
    const second = JSON.parse(next) as Record<string, never>;
    registry.prime(key, text, first);
    registry.prime(key, next, second);
    const created = await store.create(key, text);
    assert.ok(await registry.caughtUp(created.modRevision));
    assert.equal(registry.objectAt("things.b.example.com", created.modRevision), first);
    const updated = await store.update(key, next, created.modRevision);
    assert.ok(await registry.caughtUp(updated.modRevision));
    assert.equal(registry.objectAt("things.b.example.com", updated.modRevision), second);
    // Used once: the same text written again is parsed.
    const again = await store.update(key, text, updated.modRevision);
    const back = await store.update(key, next, again.modRevision);
    assert.ok(await registry.caughtUp(back.modRevision));
    const held = registry.objectAt("things.b.example.com", back.modRevision);
    assert.notEqual(held, second);
    assert.deepEqual(held, second);
    registry.stop();
    await store.close();
  });

  it("groupState lists the group's other CRDs with their revisions", async () => {
    const store = new MemoryStore();
    const registry = new Registry(store);
    await registry.start();
    assert.equal(registry.groupState("g.example.com", "a.g.example.com"), "");
    const a = await store.create(`${CRD_PREFIX}as.g.example.com`, crdText("as", "g.example.com"));
    const b = await store.create(`${CRD_PREFIX}bs.g.example.com`, crdText("bs", "g.example.com"));
    await store.create(`${CRD_PREFIX}cs.h.example.com`, crdText("cs", "h.example.com"));
    assert.ok(await registry.caughtUp(b.modRevision + 1));
    assert.equal(registry.groupState("g.example.com", "as.g.example.com"), `bs.g.example.com@${b.modRevision};`);
    assert.equal(registry.groupState("g.example.com", "none"), `as.g.example.com@${a.modRevision};bs.g.example.com@${b.modRevision};`);
    registry.stop();
    await store.close();
  });
});
