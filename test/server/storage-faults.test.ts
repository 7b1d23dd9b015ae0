/**
 * Storage faults (issue 13): two servers on one data directory, a damaged database at start and while
 * serving, and a WAL deleted after a crash — the server refuses clearly instead of corrupting data or
 * handing out resourceVersions again.
 */
import assert from "node:assert/strict";
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { startServer } from "../../src/server/server.js";
import { guardStore } from "../../src/storage/fault-guard.js";
import { SqliteStore } from "../../src/storage/sqlite-store.js";
import { api, spawnServer, widget, widgetCrd, WIDGETS } from "./client.js";

const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "crdkit-faults-"));
  dirs.push(d);
  return d;
}
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function exited(child: import("node:child_process").ChildProcess): Promise<void> {
  return new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once("exit", () => r())));
}

/** Overwrites `length` bytes at `offset` of `file` with a pattern. */
function scribble(file: string, offset: number, length: number): void {
  const fd = openSync(file, "r+");
  writeSync(fd, Buffer.alloc(length, 0xa5), 0, length, offset);
  closeSync(fd);
}

describe("storage faults", { timeout: 120_000 }, () => {
  it("a second server on the same data directory refuses to start, naming the first; a killed server's lock does not block", async () => {
    const dir = tempDir();
    const first = await spawnServer(dir);
    try {
      await assert.rejects(spawnServer(dir), (e: Error) => {
        assert.match(e.message, new RegExp(`server exited \\(1\\): crdkit serve: the data directory ${dir} is in use by another crdkit serve \\(process ${first.child.pid}\\): its database ${dir}/crdkit.db is locked`));
        return true;
      });
      // The first server still works.
      assert.equal((await api(first.url, "POST", CRDS, widgetCrd())).status, 201);
    } finally {
      first.child.kill("SIGKILL");
      await exited(first.child);
    }
    const second = await spawnServer(dir);
    try {
      assert.equal((await api(second.url, "GET", `${CRDS}/widgets.test.example.com`)).status, 200);
    } finally {
      second.child.kill("SIGTERM");
      await exited(second.child);
    }
  });

  it("a damaged database makes the server refuse to start", async () => {
    const dir = tempDir();
    const s = await spawnServer(dir);
    try {
      await api(s.url, "POST", CRDS, widgetCrd());
      for (let i = 0; i < 50; i++) await api(s.url, "POST", WIDGETS, widget(`w${i}`, { color: "x".repeat(500) }));
    } finally {
      s.child.kill("SIGTERM");
      await exited(s.child);
    }
    const db = join(dir, "crdkit.db");
    scribble(db, 4096 + 100, 4096 * 3);
    await assert.rejects(spawnServer(dir), /crdkit serve: the database .*crdkit\.db is damaged \(PRAGMA quick_check: .+\); restore it from a backup or move it away to start empty/);
    scribble(db, 0, 100);
    await assert.rejects(spawnServer(dir), /crdkit serve: the database .*crdkit\.db is damaged \(file is not a database\)/);
  });

  it("damage found while serving fails /readyz and refuses writes with 503", async () => {
    const dir = tempDir();
    const path = join(dir, "crdkit.db");
    const inner = new SqliteStore({ path, synchronous: "NORMAL" });
    const value = JSON.stringify({ pad: "v".repeat(4000) });
    await Promise.all(Array.from({ length: 3000 }, (_, i) => inner.create(`/registry/test.example.com/blobs/default/b${String(i).padStart(4, "0")}`, value)));
    // Without the garbage collector: its start-up list of every key reads these pages before the damage is
    // made, and the list below then does not reach the damaged ones (measured: it resolves).
    const srv = await startServer({ store: guardStore(inner, path), garbageCollector: false });
    try {
      assert.equal((await api(srv.url, "GET", "/readyz")).text, "ok");
      assert.ok(statSync(path).size > 4 * 1024 * 1024);
      scribble(path, 1024 * 1024, 2 * 1024 * 1024);
      // Reading every key reaches the damaged pages (they are not all in SQLite's page cache).
      await assert.rejects(srv.store.list("/registry/test.example.com/blobs/"), /the database .* is damaged \(database disk image is malformed\); writes are refused/);
      const ready = await api(srv.url, "GET", "/readyz");
      assert.equal(ready.status, 500);
      assert.equal(ready.text, "[+]ping ok\n[-]etcd failed: reason withheld\nreadyz check failed\n");
      assert.equal((await api(srv.url, "GET", "/livez")).status, 200);
      const w = await api(srv.url, "POST", CRDS, widgetCrd());
      assert.equal(w.status, 503);
      assert.equal(w.json.reason, "ServiceUnavailable");
      assert.match(w.json.message, /^crdkit: the database .*crdkit\.db is damaged \(database disk image is malformed\); writes are refused: stop the server and restore the database$/);
    } finally {
      await srv.close();
    }
  });

  it("a WAL deleted after SIGKILL does not make the server hand out resourceVersions again", async () => {
    const dir = tempDir();
    const first = await spawnServer(dir);
    let seen = 0;
    try {
      assert.equal((await api(first.url, "POST", CRDS, widgetCrd())).status, 201);
      for (let i = 0; i < 20; i++) {
        const r = await api(first.url, "POST", WIDGETS, widget(`w${i}`));
        seen = Math.max(seen, Number(r.json.metadata.resourceVersion));
      }
    } finally {
      first.child.kill("SIGKILL");
      await exited(first.child);
    }
    const wal = join(dir, "crdkit.db-wal");
    assert.ok(existsSync(wal));
    rmSync(wal);
    const second = await spawnServer(dir);
    try {
      // The acknowledged writes lived in the WAL and are gone, but their revisions are never reused.
      const crd = await api(second.url, "POST", CRDS, widgetCrd());
      const created = crd.status === 201 ? crd : await api(second.url, "POST", WIDGETS, widget("after"));
      assert.ok(Number(created.json.metadata.resourceVersion) > seen, `${created.json.metadata.resourceVersion} > ${seen}`);
      const list = await api(second.url, "GET", CRDS);
      assert.ok(Number(list.json.metadata.resourceVersion) > seen);
    } finally {
      second.child.kill("SIGTERM");
      await exited(second.child);
    }
  });
});
