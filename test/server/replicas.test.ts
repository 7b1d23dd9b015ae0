/**
 * Three `crdkit serve` processes on one etcd behave as one API server: CRDs created through one are
 * served by the others (their registries watch CRDs), writes through one reach watches on another in
 * order and once, optimistic concurrency holds across replicas, and the CRD finalizer running on every
 * replica deletes a CRD and its instances.
 */
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { after, before, describe, it } from "node:test";
import { EtcdStore } from "../../src/storage/etcd/etcd-store.js";
import { EtcdProcess } from "../storage/etcd-process.js";
import { api, spawnServerWith, stopChild, widget, widgetCrd, WIDGETS } from "./client.js";
import { WatchStream } from "./watch-stream.js";

const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const CRD_NAME = "widgets.test.example.com";

/** Polls `probe` until it returns true (fails after 20 s); resolves with the milliseconds it took. */
async function until(probe: () => Promise<boolean>): Promise<number> {
  const t0 = Date.now();
  for (;;) {
    if (await probe()) return Date.now() - t0;
    if (Date.now() - t0 > 20_000) throw new Error("condition not reached in 20 s");
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("replicas on one etcd", { timeout: 240_000 }, () => {
  let etcd: EtcdProcess;
  const replicas: { child: ChildProcess; url: string }[] = [];
  before(async () => {
    etcd = await EtcdProcess.start();
    for (let i = 0; i < 3; i++) replicas.push(await spawnServerWith([`--etcd-servers=${etcd.url}`, "--etcd-prefix=/registry"]));
  });
  after(async () => {
    for (const r of replicas) await stopChild(r.child);
    await etcd?.cleanup();
  });
  const url = (i: number) => replicas[i]!.url;

  it("serves a CRD created through one replica on the others: discovery, OpenAPI, validation", async () => {
    assert.equal((await api(url(0), "POST", CRDS, widgetCrd())).status, 201);
    for (const i of [1, 2]) {
      const ms = await until(async () => (await api(url(i), "GET", "/apis/test.example.com/v1")).status === 200);
      process.stdout.write(`# replica ${i} served the CRD after ${ms} ms\n`);
      const disco = await api(url(i), "GET", "/apis/test.example.com/v1");
      assert.deepEqual(
        disco.json.resources.map((r: { name: string }) => r.name),
        ["widgets", "widgets/status", "widgets/scale"],
      );
      const oa = await api(url(i), "GET", "/openapi/v3/apis/test.example.com/v1");
      assert.equal(oa.status, 200);
      assert.ok(oa.json.components.schemas["com.example.test.v1.Widget"]);
      const bad = await api(url(i), "POST", WIDGETS, widget(`bad-${i}`, { count: "x" }));
      assert.equal(bad.status, 422);
      assert.equal(
        bad.json.message,
        `Widget.test.example.com "bad-${i}" is invalid: spec.count: Invalid value: "string": spec.count in body must be of type integer: "string"`,
      );
    }
  });

  it("delivers writes through one replica to a watch on another, in order, once", async () => {
    const list = await api(url(1), "GET", WIDGETS);
    const w = await WatchStream.open(`${url(1)}${WIDGETS}?watch=true&resourceVersion=${list.json.metadata.resourceVersion}`);
    assert.equal(w.status, 200);
    const expected: string[] = [];
    // A deletion's revision is not in the DELETE answer (the object as it was): it lies after the last write
    // acknowledged before the DELETE and at or before the revision of a list read after it.
    const deletedWithin = new Map<number, [bigint, bigint]>();
    let lastRv = BigInt(list.json.metadata.resourceVersion);
    for (let i = 0; i < 10; i++) {
      const c = await api(url(i % 2 === 0 ? 0 : 2), "POST", WIDGETS, widget(`w-${i}`, { count: i }));
      assert.equal(c.status, 201, c.text);
      expected.push(`ADDED w-${i} ${c.json.metadata.resourceVersion}`);
      lastRv = BigInt(c.json.metadata.resourceVersion);
      if (i % 3 === 0) {
        c.json.spec.count = 100 + i;
        const u = await api(url(0), "PUT", `${WIDGETS}/w-${i}`, c.json);
        assert.equal(u.status, 200, u.text);
        expected.push(`MODIFIED w-${i} ${u.json.metadata.resourceVersion}`);
        lastRv = BigInt(u.json.metadata.resourceVersion);
      }
      if (i % 4 === 0) {
        const d = await api(url(2), "DELETE", `${WIDGETS}/w-${i}`);
        assert.equal(d.status, 200, d.text);
        const after = BigInt((await api(url(2), "GET", WIDGETS)).json.metadata.resourceVersion);
        deletedWithin.set(expected.length, [lastRv, after]);
        expected.push(`DELETED w-${i}`);
        lastRv = after;
      }
    }
    const got = await w.waitFor(expected.length);
    w.close();
    const render = got.map((e, k) => {
      const rv = BigInt(e.object.metadata.resourceVersion);
      const bounds = deletedWithin.get(k);
      if (bounds === undefined || e.type !== "DELETED") return `${e.type} ${e.object.metadata.name} ${rv}`;
      assert.ok(rv > bounds[0] && rv <= bounds[1], `DELETED ${e.object.metadata.name} at ${rv}, expected in (${bounds[0]}, ${bounds[1]}]`);
      return `${e.type} ${e.object.metadata.name}`;
    });
    assert.deepEqual(render, expected);
    assert.equal(w.events.length, expected.length, "no event twice");
  });

  it("answers a GET through one replica with the write just acknowledged through another (consistent reads from the watch cache)", async () => {
    for (let i = 0; i < 30; i++) {
      const name = `rw-${i}`;
      const c = await api(url(i % 3), "POST", WIDGETS, widget(name, { count: i }));
      assert.equal(c.status, 201, c.text);
      const reader = url((i + 1) % 3);
      const got = await api(reader, "GET", `${WIDGETS}/${name}`);
      assert.equal(got.status, 200, got.text);
      assert.deepEqual(got.json, c.json);
      c.json.spec.count = 1000 + i;
      const u = await api(url((i + 2) % 3), "PUT", `${WIDGETS}/${name}`, c.json);
      assert.equal(u.status, 200, u.text);
      const again = await api(reader, "GET", `${WIDGETS}/${name}`);
      assert.equal(again.json.metadata.resourceVersion, u.json.metadata.resourceVersion);
      assert.equal(again.json.spec.count, 1000 + i);
      assert.equal((await api(url(i % 3), "DELETE", `${WIDGETS}/${name}`)).status, 200);
      const gone = await api(reader, "GET", `${WIDGETS}/${name}`);
      assert.equal(gone.status, 404);
      assert.equal(gone.json.message, `widgets.test.example.com "${name}" not found`);
    }
  });

  it("keeps optimistic concurrency across replicas: 20 writers on 2 replicas lose no update", async () => {
    for (let i = 0; i < 4; i++) assert.equal((await api(url(0), "POST", WIDGETS, widget(`c-${i}`, { count: 0 }))).status, 201);
    const WRITERS = 20;
    const PER_WRITER = 10;
    let conflicts = 0;
    const writer = async (w: number) => {
      for (let i = 0; i < PER_WRITER; i++) {
        const name = `c-${(w + i) % 4}`;
        for (;;) {
          // Read through one replica, write through the other.
          const cur = await api(url(w % 2), "GET", `${WIDGETS}/${name}`);
          assert.equal(cur.status, 200);
          cur.json.spec.count += 1;
          const put = await api(url((w + 1) % 2), "PUT", `${WIDGETS}/${name}`, cur.json);
          if (put.status === 409) {
            assert.equal(
              put.json.message,
              `Operation cannot be fulfilled on widgets.test.example.com "${name}": the object has been modified; please apply your changes to the latest version and try again`,
            );
            conflicts++;
            continue;
          }
          assert.equal(put.status, 200, put.text);
          break;
        }
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
    let total = 0;
    for (let i = 0; i < 4; i++) total += (await api(url(2), "GET", `${WIDGETS}/c-${i}`)).json.spec.count;
    assert.equal(total, WRITERS * PER_WRITER);
    process.stdout.write(`# conflicts retried across replicas: ${conflicts}\n`);
  });

  it("deletes a CRD and its instances with the finalizer running on every replica", async () => {
    const del = await api(url(1), "DELETE", `${CRDS}/${CRD_NAME}`);
    assert.equal(del.status, 200, del.text);
    for (const i of [0, 1, 2]) {
      await until(async () => (await api(url(i), "GET", `${CRDS}/${CRD_NAME}`)).status === 404);
      await until(async () => (await api(url(i), "GET", "/apis/test.example.com/v1")).status === 404);
    }
    const store = new EtcdStore({ servers: [etcd.url], compactionIntervalMs: 0 });
    try {
      assert.deepEqual((await store.list("/registry/test.example.com/")).items, []);
      assert.equal(await store.get(`/registry/apiextensions.k8s.io/customresourcedefinitions/${CRD_NAME}`), undefined);
    } finally {
      await store.close();
    }
  });
});
