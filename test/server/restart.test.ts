/**
 * Durability: 1,000 creates against a child `crdkit serve --data DIR`, SIGKILL in the middle of the
 * writes, restart on the same directory: every acknowledged write is there with its resourceVersion,
 * the store is consistent and resourceVersions keep increasing.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { api, spawnServer, stopChild, widget, widgetCrd, WIDGETS } from "./client.js";

const dir = mkdtempSync(join(tmpdir(), "crdkit-restart-"));
after(() => rmSync(dir, { recursive: true, force: true }));

describe("restart after SIGKILL", { timeout: 180_000 }, () => {
  it("keeps every acknowledged write", async () => {
    const first = await spawnServer(dir);
    const acked = new Map<string, string>();
    let next = 0;
    let killed = false;
    const TOTAL = 1000;
    const KILL_AFTER = 400;
    try {
      assert.equal((await api(first.url, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", widgetCrd())).status, 201);
      const writer = async () => {
        while (next < TOTAL && !killed) {
          const name = `w-${next++}`;
          try {
            const r = await api(first.url, "POST", WIDGETS, widget(name, { count: 1 }));
            if (r.status === 201) {
              acked.set(name, r.json.metadata.resourceVersion);
              if (acked.size >= KILL_AFTER && !killed) {
                killed = true;
                first.child.kill("SIGKILL");
              }
            }
          } catch {
            // connection reset by the kill: not acknowledged
          }
        }
      };
      await Promise.all(Array.from({ length: 8 }, writer));
      assert.ok(killed, `only ${acked.size} of ${TOTAL} creates were acknowledged`);
    } finally {
      // Waits for the SIGKILL above; kills the server when an assertion failed before it.
      await stopChild(first.child, "SIGKILL");
    }
    assert.equal(first.child.signalCode, "SIGKILL");
    const maxAcked = Math.max(...[...acked.values()].map(Number));

    const second = await spawnServer(dir);
    try {
      const list = await api(second.url, "GET", WIDGETS);
      assert.equal(list.status, 200, list.text);
      const stored = new Map<string, string>(list.json.items.map((o: { metadata: { name: string; resourceVersion: string } }) => [o.metadata.name, o.metadata.resourceVersion]));
      for (const [name, rv] of acked) assert.equal(stored.get(name), rv, `acknowledged ${name}@${rv} missing after restart`);
      assert.ok(Number(list.json.metadata.resourceVersion) >= maxAcked);
      // Writes that were in flight may or may not have committed, but nothing else appears.
      for (const name of stored.keys()) assert.match(name, /^w-\d+$/);
      // Finish the 1,000 objects: revisions continue above everything before the crash.
      let prev = Number(list.json.metadata.resourceVersion);
      for (let i = 0; i < TOTAL; i++) {
        const name = `w-${i}`;
        if (stored.has(name)) continue;
        const r = await api(second.url, "POST", WIDGETS, widget(name, { count: 1 }));
        assert.equal(r.status, 201, r.text);
        const rv = Number(r.json.metadata.resourceVersion);
        assert.ok(rv > prev, `resourceVersion ${rv} not above ${prev}`);
        prev = rv;
      }
      const all = await api(second.url, "GET", WIDGETS);
      assert.equal(all.json.items.length, TOTAL);
      const crd = await api(second.url, "GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.test.example.com");
      assert.equal(crd.status, 200);
    } finally {
      await stopChild(second.child);
    }
  });
});
