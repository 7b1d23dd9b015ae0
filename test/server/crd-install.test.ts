/**
 * The CRD install path, on SQLite and on etcd: the create answers the CRD as stored (no conditions), the
 * controllers' status write follows as its own revision (on SQLite in the same commit; on etcd computed while the
 * create is on its way), two CRDs of a group created at once do not both accept a name, and one install costs the
 * same store work whether it is the 5th CRD or the 60th.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../src/server/server.js";
import { EtcdStore } from "../../src/storage/etcd/etcd-store.js";
import { MemoryStore } from "../../src/storage/memory-store.js";
import { SqliteStore } from "../../src/storage/sqlite-store.js";
import type { Store, StoredValue } from "../../src/storage/types.js";
import { CrdNamingController, crdNamingStore } from "../../src/server/controllers/crd-naming-controller.js";
import { CRD_PREFIX, Registry } from "../../src/server/registry/registry.js";
import { registrySynced } from "../../src/server/registry/registry-synced-store.js";
import { EtcdProcess } from "../storage/etcd-process.js";
import { api, assertCreateThenStatusEntries, watchEvents } from "./client.js";

const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

function thingCrd(i: number, group = `g${i}.example.com`, kind = `Thing${i}`): Record<string, unknown> {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `things${i}.${group}` },
    spec: {
      group,
      scope: "Namespaced",
      names: { plural: `things${i}`, kind },
      versions: [
        { name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object", properties: { spec: { type: "object", properties: { size: { type: "integer" } } } } } } },
      ],
    },
  };
}

type Cond = { type: string; status: string; reason: string };
const conds = (o: { status?: { conditions?: Cond[] | null } }) => (o.status?.conditions ?? []).map((c) => [c.type, c.status, c.reason]);

/** The store with a count of the calls made through it. */
function counted(store: Store): { store: Store; calls: () => number } {
  let n = 0;
  const wrapped = new Proxy(store, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver);
      if (typeof v !== "function") return v;
      return (...args: unknown[]) => {
        n++;
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: wrapped, calls: () => n };
}

/** The install tests on a store (`open` returns it and what ends it after the server closed). */
function installTests(name: string, open: () => Promise<{ store: Store; cleanup: () => Promise<void> }>): void {
  describe(`CRD install (${name})`, () => {
    let s: RunningServer;
    let calls: () => number;
    let cleanup: () => Promise<void> = async () => {};
    before(async () => {
      const opened = await open();
      cleanup = opened.cleanup;
      const c = counted(opened.store);
      calls = c.calls;
      s = await startServer({ store: c.store, ui: false });
    });
    after(async () => {
      await s.close();
      await cleanup();
    });

    it("answers the CRD as created; the status write is the next revision, and the CRD is established when the create returns", async () => {
      const rv0 = (await api(s.url, "GET", CRDS)).json.metadata.resourceVersion;
      const events = watchEvents(s.url, `${CRDS}?watch=1&resourceVersion=${rv0}&fieldSelector=metadata.name%3Dthings1.g1.example.com`, 2).events;
      const r = await api(s.url, "POST", CRDS, thingCrd(1));
      assert.equal(r.status, 201, r.text);
      assert.equal(r.json.status.conditions, null);
      assert.deepEqual(r.json.status.acceptedNames, { plural: "", kind: "" });
      const rv = Number(r.json.metadata.resourceVersion);
      const got = await api(s.url, "GET", `${CRDS}/things1.g1.example.com`);
      assert.equal(Number(got.json.metadata.resourceVersion), rv + 1);
      assert.deepEqual(conds(got.json), [
        ["NamesAccepted", "True", "NoConflicts"],
        ["Established", "True", "InitialNamesAccepted"],
      ]);
      assertCreateThenStatusEntries(got.json.metadata.managedFields);
      const ev = await events;
      assert.deepEqual(
        ev.map((e) => [e.type, Number(e.object.metadata.resourceVersion), conds(e.object as { status?: { conditions?: Cond[] } })]),
        [
          ["ADDED", rv, []],
          ["MODIFIED", rv + 1, conds(got.json)],
        ],
      );
      // The resource is served at once.
      assert.equal((await api(s.url, "GET", "/apis/g1.example.com/v1/namespaces/default/things1")).status, 200);
    });

    it("two CRDs of one group claiming one kind created at once: one is accepted, the other reports the conflict", async () => {
      const [a, b] = await Promise.all([
        api(s.url, "POST", CRDS, thingCrd(2, "same.example.com", "Same")),
        api(s.url, "POST", CRDS, thingCrd(3, "same.example.com", "Same")),
      ]);
      assert.equal(a.status, 201, a.text);
      assert.equal(b.status, 201, b.text);
      const got = await Promise.all(["things2", "things3"].map(async (p) => (await api(s.url, "GET", `${CRDS}/${p}.same.example.com`)).json));
      const verdicts = got.map((o) => conds(o)).sort((x, y) => (JSON.stringify(x) < JSON.stringify(y) ? -1 : 1));
      assert.deepEqual(verdicts, [
        [
          ["NamesAccepted", "False", "ListKindConflict"],
          ["Established", "False", "NotAccepted"],
        ],
        [
          ["NamesAccepted", "True", "NoConflicts"],
          ["Established", "True", "InitialNamesAccepted"],
        ],
      ]);
    });

    it("one install does the same store work for the 5th CRD as for the 60th (nothing per install over all CRDs)", async () => {
      const work: number[] = [];
      for (let i = 10; i < 70; i++) {
        const before = calls();
        const r = await api(s.url, "POST", CRDS, thingCrd(i));
        assert.equal(r.status, 201, r.text);
        const got = await api(s.url, "GET", `${CRDS}/things${i}.g${i}.example.com`);
        assert.deepEqual(conds(got.json)[1], ["Established", "True", "InitialNamesAccepted"]);
        work.push(calls() - before);
      }
      assert.equal(new Set(work).size, 1, `store calls per install: ${work.join(",")}`);
    });

    it("installing the n-th CRD of one group reads none of the group's other CRDs from the store (their names are re-checked from the registry)", async () => {
      const work: number[] = [];
      for (let i = 100; i < 108; i++) {
        const before = calls();
        const r = await api(s.url, "POST", CRDS, thingCrd(i, "one.example.com"));
        assert.equal(r.status, 201, r.text);
        work.push(calls() - before);
      }
      assert.equal(new Set(work).size, 1, `store calls per install: ${work.join(",")}`);
      // Every one of them has its names accepted (distinct kinds in one group).
      for (let i = 100; i < 108; i++) {
        const got = await api(s.url, "GET", `${CRDS}/things${i}.one.example.com`);
        assert.deepEqual(conds(got.json), [
          ["NamesAccepted", "True", "NoConflicts"],
          ["Established", "True", "InitialNamesAccepted"],
        ]);
      }
    });
  });
}

installTests("SQLite", async () => ({ store: new SqliteStore({ path: ":memory:" }), cleanup: async () => {} }));
// On etcd the status write is computed while the create is on its way and sent once it has its revision.
installTests("etcd", async () => {
  const etcd = await EtcdProcess.start();
  const store = new EtcdStore({ servers: [etcd.url], compactionIntervalMs: 0 });
  return { store, cleanup: () => etcd.cleanup() };
});

describe("CRD naming on a store that commits in groups", () => {
  it("a CRD created in the same commit as another of its group gets its status after that one is known (no follow-up on a stale registry)", async () => {
    const store = new SqliteStore({ path: ":memory:" });
    const registry = new Registry(store);
    await registry.start();
    const synced = registrySynced(store, registry);
    const crds = crdNamingStore(synced, new CrdNamingController(synced, registry));
    const stored = (i: number) =>
      JSON.stringify({
        ...thingCrd(i, "same.example.com", "Same"),
        status: { acceptedNames: { plural: "", kind: "" }, conditions: null, storedVersions: ["v1"] },
      });
    // Issued in one turn of the event loop: one SQLite transaction.
    const [a, b] = await Promise.all([crds.create(`${CRD_PREFIX}things1.same.example.com`, stored(1)), crds.create(`${CRD_PREFIX}things2.same.example.com`, stored(2))]);
    assert.equal(b.modRevision, a.modRevision + 2, "the first create's status write shares the commit");
    const status = async (i: number) => JSON.parse((await store.get(`${CRD_PREFIX}things${i}.same.example.com`))!.value);
    assert.deepEqual(conds(await status(1)), [
      ["NamesAccepted", "True", "NoConflicts"],
      ["Established", "True", "InitialNamesAccepted"],
    ]);
    assert.deepEqual(conds(await status(2)), [
      ["NamesAccepted", "False", "ListKindConflict"],
      ["Established", "False", "NotAccepted"],
    ]);
    registry.stop();
    await store.close();
  });
});

/** A gate opened by `open()`, or after 3 s (so that a wrong order fails the test instead of hanging it). */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 3000);
    open = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  return { opened, open };
}

describe("CRD naming on a store whose watch events come before its answers (as etcd's often do)", () => {
  it("the status write is sent on the create's event and is done on its own event; the install still answers the store's answer to the create", async () => {
    const base = new MemoryStore();
    const order: string[] = [];
    const createAnswer = gate();
    const statusAnswer = gate();
    // The memory store delivers a write's event at once; its answers are held back here until the next step.
    const store = new Proxy(base, {
      get(target, prop, receiver) {
        if (prop === "createThen") return undefined;
        if (prop === "create")
          return async (key: string, value: string): Promise<StoredValue> => {
            const sv = await target.create(key, value);
            order.push("create written");
            await createAnswer.opened;
            order.push("create answered");
            return sv;
          };
        if (prop === "update")
          return async (key: string, value: string, expected?: number): Promise<StoredValue> => {
            order.push("status sent");
            const written = target.update(key, value, expected);
            createAnswer.open();
            const sv = await written;
            await statusAnswer.opened;
            order.push("status answered");
            return sv;
          };
        const v = Reflect.get(target, prop, receiver);
        return typeof v === "function" ? v.bind(target) : v;
      },
    }) as Store;
    const registry = new Registry(store);
    await registry.start();
    try {
      const synced = registrySynced(store, registry);
      const crds = crdNamingStore(synced, new CrdNamingController(synced, registry));
      const key = `${CRD_PREFIX}things1.g1.example.com`;
      const value = JSON.stringify({ ...thingCrd(1), status: { acceptedNames: { plural: "", kind: "" }, conditions: null, storedVersions: ["v1"] } });
      const sv = await crds.create(key, value);
      order.push("install answered");
      statusAnswer.open();
      // The status write is sent before the create is answered, and the install is answered before the status write.
      assert.deepEqual(order, ["create written", "status sent", "create answered", "install answered"]);
      assert.deepEqual(sv, { key, value, createRevision: 1, modRevision: 1 });
      const held = registry.get("things1.g1.example.com");
      assert.equal(held?.revision, 2);
      assert.equal(held?.established, true);
      assert.deepEqual(conds(JSON.parse((await base.get(key))!.value)), [
        ["NamesAccepted", "True", "NoConflicts"],
        ["Established", "True", "InitialNamesAccepted"],
      ]);
    } finally {
      statusAnswer.open();
      createAnswer.open();
      registry.stop();
      await base.close();
    }
  });
});

describe("CRD registry on etcd", () => {
  it("follows CRDs through the watch cache's etcd watch: the server opens one etcd watch, and a CRD created through another replica is served", async () => {
    const etcd = await EtcdProcess.start();
    const store = new EtcdStore({ servers: [etcd.url], compactionIntervalMs: 0 });
    const other = new EtcdStore({ servers: [etcd.url], compactionIntervalMs: 0 });
    let streams = 0;
    const open = store.client.watchStream.bind(store.client);
    store.client.watchStream = () => {
      streams++;
      return open();
    };
    let s: RunningServer | undefined;
    let t: RunningServer | undefined;
    try {
      s = await startServer({ store, ui: false });
      t = await startServer({ store: other, ui: false });
      const r = await api(t.url, "POST", CRDS, thingCrd(1));
      assert.equal(r.status, 201, r.text);
      for (let i = 0; (await api(s.url, "GET", "/apis/g1.example.com/v1/namespaces/default/things1")).status !== 200; i++) {
        assert.ok(i < 500, "the CRD created through the other replica is not served");
        await new Promise((done) => setTimeout(done, 10));
      }
      const got = await api(s.url, "GET", `${CRDS}/things1.g1.example.com`);
      assert.deepEqual(conds(got.json), [
        ["NamesAccepted", "True", "NoConflicts"],
        ["Established", "True", "InitialNamesAccepted"],
      ]);
      assert.equal(streams, 1);
      assert.ok(store.cache!.subscribed >= 1);
    } finally {
      await s?.close();
      await t?.close();
      await etcd.cleanup();
    }
  });
});
