/**
 * `--etcd-servers=a,b,c` on a 3-member etcd cluster on loopback: when the member crdkit is connected to dies,
 * crdkit fails over to the others as kube-apiserver's etcd client (clientv3) does: reads are retried on the
 * next member, so they never fail; a write in flight on the dead connection is not retried (at most once: it
 * may have been applied) and answers 500 with the gRPC error, as kube-apiserver's does; every later request
 * works on the remaining members, and nothing acknowledged is lost.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../src/server/server.js";
import { EtcdClient } from "../../src/storage/etcd/etcd-client.js";
import { EtcdStore } from "../../src/storage/etcd/etcd-store.js";
import { EtcdProcess, findEtcd } from "../storage/etcd-process.js";
import { api, widget, widgetCrd, WIDGETS } from "./client.js";
import { WatchStream } from "./watch-stream.js";

const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

/** A member's id and the leader it follows (Maintenance Status). */
async function memberStatus(url: string): Promise<{ id: number; leader: number }> {
  const c = new EtcdClient({ servers: [url], callTimeoutMs: 2000 });
  try {
    const r = await c.status();
    return { id: r.header.member_id ?? 0, leader: r.leader };
  } finally {
    c.close();
  }
}

describe("crdkit serve on a 3-member etcd cluster", { timeout: 240_000, skip: findEtcd() ? false : "etcd is not installed" }, () => {
  let members: EtcdProcess[] = [];
  let s: RunningServer;
  before(async () => {
    members = await EtcdProcess.startCluster(3);
    s = await startServer({ store: new EtcdStore({ servers: members.map((m) => m.url), callTimeoutMs: 10_000, compactionIntervalMs: 0 }) });
    assert.equal((await api(s.url, "POST", CRDS, widgetCrd())).status, 201);
  });
  after(async () => {
    await s?.close();
    await Promise.all(members.map((m) => m.cleanup()));
  });

  it("fails over when the member it uses is killed: reads never fail, later writes and watches work", async () => {
    const acked = new Map<string, string>();
    let inFlightLost = 0;
    for (let i = 0; i < 5; i++) {
      const r = await api(s.url, "POST", WIDGETS, widget(`before-${i}`, { count: i }));
      assert.equal(r.status, 201, r.text);
      acked.set(`before-${i}`, r.json.metadata.resourceVersion);
    }
    // The first listed member is the one crdkit connected to (pick-first); kill it with requests in flight.
    const load = Array.from({ length: 8 }, async (_, w) => {
      for (let i = 0; i < 10; i++) {
        const name = `during-${w}-${i}`;
        const c = await api(s.url, "POST", WIDGETS, widget(name, { count: i }));
        if (c.status === 500) {
          // In flight when the member died ("Connection dropped", "read ECONNRESET"), or proposed during the
          // election that follows ("etcdserver: request timed out, possibly due to previous leader failure"):
          // not retried, and maybe applied.
          assert.match(c.json.message, /^rpc error: code = Unavailable desc = /);
          inFlightLost++;
          continue;
        }
        assert.equal(c.status, 201, `${name}: ${c.text}`);
        acked.set(name, c.json.metadata.resourceVersion);
        const g = await api(s.url, "GET", `${WIDGETS}/${name}`);
        assert.equal(g.status, 200, `${name}: ${g.text}`);
      }
    });
    const dead = (await memberStatus(members[0]!.url)).id;
    await new Promise((r) => setTimeout(r, 50));
    await members[0]!.kill();
    await Promise.all(load);
    // Once the remaining members agree on a live leader (an election follows if the dead one led), writes work.
    for (let i = 0; ; i++) {
      const st = await Promise.all(members.slice(1).map((m) => memberStatus(m.url).catch(() => ({ id: 0, leader: 0 }))));
      if (st.every((x) => x.leader !== 0 && x.leader !== dead && x.leader === st[0]!.leader)) break;
      if (i > 300) throw new Error("no leader elected in 30 s");
      await new Promise((r) => setTimeout(r, 100));
    }
    // Writes, reads, lists and a new watch all work on the remaining two members.
    for (let i = 0; i < 10; i++) {
      const c = await api(s.url, "POST", WIDGETS, widget(`later-${i}`, { count: i }));
      assert.equal(c.status, 201, c.text);
      acked.set(`later-${i}`, c.json.metadata.resourceVersion);
    }
    const list = await api(s.url, "GET", WIDGETS);
    assert.equal(list.status, 200, list.text);
    const found = new Map<string, string>(list.json.items.map((o: { metadata: { name: string; resourceVersion: string } }) => [o.metadata.name, o.metadata.resourceVersion]));
    for (const [name, rv] of acked) assert.equal(found.get(name), rv, name);
    assert.equal(acked.size + inFlightLost, 95);
    const w = await WatchStream.open(`${s.url}${WIDGETS}?watch=true&resourceVersion=${list.json.metadata.resourceVersion}`);
    assert.equal(w.status, 200);
    const c = await api(s.url, "POST", WIDGETS, widget("after", { count: 1 }));
    assert.equal(c.status, 201, c.text);
    const [ev] = await w.waitFor(1);
    w.close();
    assert.equal(`${ev!.type} ${ev!.object.metadata.name} ${ev!.object.metadata.resourceVersion}`, `ADDED after ${c.json.metadata.resourceVersion}`);
    assert.equal((await api(s.url, "GET", "/readyz")).status, 200);
  });
});
