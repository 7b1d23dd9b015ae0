/**
 * crdkit serve on an etcd that fails: requests answer kube-apiserver's 504 Timeout text within the
 * request timeout while etcd is down, the server stays up and recovers by itself; a watch broken by an
 * etcd restart ends so clients re-list; nothing acknowledged is lost across `kill -9` of etcd; a watch
 * from a compacted revision gets 410 Expired. Run on Debian's etcd (etcd-faults.test.ts) and on etcd 3.6
 * (etcd36-faults.test.ts).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../src/server/server.js";
import { EtcdStore } from "../../src/storage/etcd/etcd-store.js";
import type { EtcdProcess } from "../storage/etcd-process.js";
import { api, widget, widgetCrd, WIDGETS } from "./client.js";
import { WatchStream } from "./watch-stream.js";

const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const TIMEOUT_STATUS = {
  kind: "Status",
  apiVersion: "v1",
  metadata: {},
  status: "Failure",
  message: "Timeout: request did not complete within requested timeout - context deadline exceeded",
  reason: "Timeout",
  details: {},
  code: 504,
};

async function until(probe: () => Promise<boolean>): Promise<void> {
  const t0 = Date.now();
  while (!(await probe())) {
    if (Date.now() - t0 > 30_000) throw new Error("condition not reached in 30 s");
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The fault tests on the etcd `start` starts (`skip`: the reason it is unavailable). */
export function etcdFaultsSuite(name: string, start: () => Promise<EtcdProcess>, skip: string | false = false): void {
  describe(`crdkit serve when etcd fails (${name})`, { timeout: 240_000, skip }, () => {
    let etcd: EtcdProcess;
    let s: RunningServer;
    before(async () => {
      etcd = await start();
      s = await startServer({ store: new EtcdStore({ servers: [etcd.url], callTimeoutMs: 1500, compactionIntervalMs: 0 }) });
      assert.equal((await api(s.url, "POST", CRDS, widgetCrd())).status, 201);
    });
    after(async () => {
      await s?.close();
      await etcd?.cleanup();
    });

    it("answers 504 Timeout while etcd is stopped, stays up, and recovers when etcd returns", async () => {
      const before = await api(s.url, "POST", WIDGETS, widget("before", { count: 1 }));
      assert.equal(before.status, 201);
      await etcd.stop();
      for (const [method, path, body] of [
        ["GET", `${WIDGETS}/before`, undefined],
        ["GET", WIDGETS, undefined],
        ["GET", `${WIDGETS}?watch=true`, undefined],
        ["GET", `${WIDGETS}?watch=true&resourceVersion=${before.json.metadata.resourceVersion}`, undefined],
        ["POST", WIDGETS, widget("during", { count: 2 })],
        ["DELETE", `${WIDGETS}/before`, undefined],
      ] as const) {
        const r = await api(s.url, method, path, body);
        assert.equal(r.status, 504, `${method} ${path}: ${r.text}`);
        assert.deepEqual(r.json, TIMEOUT_STATUS);
      }
      const ready = await api(s.url, "GET", "/readyz");
      assert.equal(ready.status, 500);
      assert.equal(ready.text, "[+]ping ok\n[-]etcd failed: reason withheld\nreadyz check failed\n");
      // Paths that need no storage still answer.
      assert.equal((await api(s.url, "GET", "/version")).status, 200);
      assert.equal((await api(s.url, "GET", "/apis/test.example.com/v1")).status, 200);
      await etcd.run();
      await until(async () => (await api(s.url, "GET", `${WIDGETS}/before`)).status === 200);
      assert.equal((await api(s.url, "POST", WIDGETS, widget("after", { count: 3 }))).status, 201);
      assert.equal((await api(s.url, "GET", "/healthz")).text, "ok");
      assert.equal((await api(s.url, "GET", "/livez?verbose")).text, "[+]ping ok\n[+]etcd ok\nlivez check passed\n");
      assert.deepEqual(
        (await api(s.url, "GET", WIDGETS)).json.items.map((o: { metadata: { name: string } }) => o.metadata.name),
        ["after", "before"],
      );
    });

    it("ends a watch broken by an etcd restart, and a new watch from its last revision resumes", async () => {
      const list = await api(s.url, "GET", WIDGETS);
      const w = await WatchStream.open(`${s.url}${WIDGETS}?watch=true&resourceVersion=${list.json.metadata.resourceVersion}`);
      assert.equal(w.status, 200);
      const c = await api(s.url, "POST", WIDGETS, widget("watched", { count: 4 }));
      assert.equal(c.status, 201);
      await w.waitFor(1);
      await etcd.stop();
      await w.ended;
      assert.deepEqual(
        w.events.map((e) => `${e.type} ${e.object.metadata.name}`),
        ["ADDED watched"],
      );
      await etcd.run();
      await until(async () => (await api(s.url, "GET", WIDGETS)).status === 200);
      const d = await api(s.url, "DELETE", `${WIDGETS}/watched`);
      assert.equal(d.status, 200);
      const w2 = await WatchStream.open(`${s.url}${WIDGETS}?watch=true&resourceVersion=${c.json.metadata.resourceVersion}`);
      const [ev] = await w2.waitFor(1);
      w2.close();
      assert.equal(`${ev!.type} ${ev!.object.metadata.name}`, "DELETED watched");
    });

    it("keeps following CRDs written by another replica after an etcd restart", async () => {
      await etcd.stop();
      await etcd.run();
      const other = await startServer({ store: new EtcdStore({ servers: [etcd.url], callTimeoutMs: 1500, compactionIntervalMs: 0 }) });
      try {
        const gadgets = widgetCrd() as { metadata: { name: string }; spec: { names: Record<string, unknown> } };
        gadgets.metadata.name = "gadgets.test.example.com";
        gadgets.spec.names = { plural: "gadgets", singular: "gadget", kind: "Gadget" };
        assert.equal((await api(other.url, "POST", CRDS, gadgets)).status, 201);
        // This server's registry re-listed after its CRD watch broke, and follows the new watch.
        await until(async () => (await api(s.url, "GET", "/apis/test.example.com/v1/namespaces/default/gadgets")).status === 200);
      } finally {
        await other.close();
      }
    });

    it("loses nothing acknowledged across kill -9 of etcd", async () => {
      const acked = new Map<string, string>();
      let next = 0;
      const writer = async () => {
        while (next < 64) {
          const name = `k-${next++}`;
          const r = await api(s.url, "POST", WIDGETS, widget(name, { count: 1 }));
          assert.equal(r.status, 201, r.text);
          acked.set(name, r.json.metadata.resourceVersion);
        }
      };
      await Promise.all(Array.from({ length: 16 }, writer));
      await etcd.kill();
      await etcd.run();
      await until(async () => (await api(s.url, "GET", WIDGETS)).status === 200);
      const items: { metadata: { name: string; resourceVersion: string } }[] = (await api(s.url, "GET", WIDGETS)).json.items;
      const found = new Map(items.map((o) => [o.metadata.name, o.metadata.resourceVersion]));
      for (const [name, rv] of acked) assert.equal(found.get(name), rv, name);
      assert.equal(acked.size, 64);
    });

    it("answers a watch from a compacted revision with 410 Expired", async () => {
      const first = await api(s.url, "POST", WIDGETS, widget("old", { count: 1 }));
      const second = await api(s.url, "POST", WIDGETS, widget("new", { count: 1 }));
      const store = s.store as EtcdStore;
      await store.compact(Number(second.json.metadata.resourceVersion));
      const w = await WatchStream.open(`${s.url}${WIDGETS}?watch=true&resourceVersion=${first.json.metadata.resourceVersion}`);
      await w.ended;
      assert.equal(w.events.length, 1);
      assert.equal(w.events[0]!.type, "ERROR");
      assert.deepEqual(w.events[0]!.object, {
        kind: "Status",
        apiVersion: "v1",
        metadata: {},
        status: "Failure",
        message: `too old resource version: ${first.json.metadata.resourceVersion} (${second.json.metadata.resourceVersion})`,
        reason: "Expired",
        code: 410,
      });
      const list = await api(s.url, "GET", `${WIDGETS}?resourceVersion=${first.json.metadata.resourceVersion}&resourceVersionMatch=Exact`);
      assert.equal(list.status, 410);
      assert.equal(list.json.message, "The resourceVersion for the provided list is too old.");
    });
  });
}
