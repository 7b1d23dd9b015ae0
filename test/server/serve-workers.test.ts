/**
 * `crdkit serve --workers N`: N replicas on one port and one etcd behind one primary process, which restarts
 * a worker that dies and stops them all on SIGTERM; the flag is refused where replicas cannot work.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { request } from "node:http";
import { after, before, describe, it } from "node:test";
import { runServe } from "../../src/cli/serve.js";
import { EtcdProcess, findEtcd } from "../storage/etcd-process.js";
import { spawnServerWith, widget, widgetCrd, WIDGETS } from "./client.js";

/** One request on its own connection (so that the primary hands each to a worker in turn). */
function call(url: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: { metadata?: { resourceVersion: string } } }> {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const req = request(`${url}${path}`, { method, agent: false, headers: text ? { "Content-Type": "application/json" } : {} }, (res) => {
      let data = "";
      res.on("data", (c) => (data += c));
      // Parsed only when the answer is JSON: a worker that has not yet seen the CRD answers the API server's
      // plain-text "404 page not found", and a throw here (inside an event handler) would leave the test's
      // promise pending and its server processes running.
      res.on("end", () => {
        try {
          resolve({ status: res.statusCode ?? 0, json: /json/.test(res.headers["content-type"] ?? "") ? JSON.parse(data) : {} });
        } catch (e) {
          reject(e);
        }
      });
    });
    req.on("error", reject);
    req.end(text);
  });
}

/** The process ids of `pid`'s children (Linux /proc). */
function children(pid: number): number[] {
  const out: number[] = [];
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (Number(readFileSync(`/proc/${d}/stat`, "utf8").split(") ")[1]!.split(" ")[1]) === pid) out.push(Number(d));
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

async function until(probe: () => Promise<boolean> | boolean): Promise<void> {
  for (let i = 0; !(await probe()); i++) {
    if (i > 600) throw new Error("condition not reached in 60 s");
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("crdkit serve --workers", { timeout: 240_000, skip: findEtcd() && process.platform === "linux" ? false : "needs etcd on Linux" }, () => {
  let etcd: EtcdProcess;
  before(async () => {
    etcd = await EtcdProcess.start();
  });
  after(() => etcd?.cleanup());

  it("serves from N workers on one port, restarts a worker that dies, and stops them all on SIGTERM", async () => {
    const { child, url } = await spawnServerWith(["--workers", "2", "--etcd-servers", etcd.url, "--etcd-prefix", "/workers"]);
    try {
      await until(() => children(child.pid!).length === 2);
      assert.equal((await call(url, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", widgetCrd())).status, 201);
      // Every worker serves the CRD (each follows CRDs through etcd): ten requests in a row, new connections.
      await until(async () => {
        const r = await Promise.all(Array.from({ length: 10 }, () => call(url, "GET", WIDGETS)));
        return r.every((x) => x.status === 200);
      });
      const rvs: string[] = [];
      for (let i = 0; i < 10; i++) {
        const c = await call(url, "POST", WIDGETS, widget(`w-${i}`, { count: i }));
        assert.equal(c.status, 201);
        rvs.push(c.json.metadata!.resourceVersion);
        // A read through any worker sees the write (reads go to etcd).
        const g = await call(url, "GET", `${WIDGETS}/w-${i}`);
        assert.equal(g.status, 200);
        assert.equal(g.json.metadata!.resourceVersion, rvs[i]);
      }
      const [first] = children(child.pid!);
      process.kill(first!, "SIGKILL");
      await until(() => {
        const now = children(child.pid!);
        return now.length === 2 && !now.includes(first!);
      });
      await until(async () => (await call(url, "GET", `${WIDGETS}/w-3`)).status === 200);
      const workers = children(child.pid!);
      const code = await new Promise<number | null>((resolve) => {
        child.once("exit", (c) => resolve(c));
        child.kill("SIGTERM");
      });
      assert.equal(code, 0);
      for (const w of workers) assert.throws(() => process.kill(w, 0), "worker still running after the primary stopped");
    } finally {
      const left = children(child.pid!);
      child.kill("SIGKILL");
      for (const w of left) {
        try {
          process.kill(w, "SIGKILL");
        } catch {
          // gone already
        }
      }
    }
  });

  it("is refused without etcd, with --write-kubeconfig, and with security flags but no certificate", async () => {
    for (const [flags, text] of [
      [["--workers", "2"], "crdkit serve: --workers needs --etcd-servers (the embedded store has one writer)\n"],
      [["--workers", "2", "--etcd-servers", etcd.url, "--write-kubeconfig", "/tmp/x"], "crdkit serve: --workers does not write a kubeconfig (each worker would generate its own CA): use one worker\n"],
      [
        ["--workers", "2", "--etcd-servers", etcd.url, "--authorization-mode=RBAC"],
        "crdkit serve: --workers with security flags needs --tls-cert-file/--tls-private-key-file (a generated certificate would differ per worker)\n",
      ],
      [["--workers", "0"], "crdkit serve: invalid --workers \"0\": want a count from 1\n"],
    ] as const) {
      let err = "";
      const code = await runServe(flags, { stdout: () => {}, stderr: (t) => (err += t) });
      assert.equal(code, 2);
      assert.ok(err.startsWith(text), err);
    }
  });
});
