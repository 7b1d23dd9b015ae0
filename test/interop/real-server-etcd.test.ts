/**
 * Interop on one etcd: the real apiextensions-apiserver (tools/k8s-server-oracle) serves what `crdkit serve`
 * wrote, and crdkit serves what the real server wrote — CRDs and custom resources, with the same keys and JSON
 * encoding. Needs etcd and the Go-built oracle (scripts/go-tools.mjs): `npm run interop` builds it and runs
 * this file; .ci/run builds it in the background while `npm test` runs (this file waits for it). Runs on
 * Debian's etcd 3.4 and on etcd 3.6 (tools/etcd-3.6) when built.
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:https";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { EtcdStore } from "../../src/storage/etcd/etcd-store.js";
import { startServer, type RunningServer } from "../../src/server/server.js";
import { api } from "../server/client.js";
import { EtcdProcess, findEtcd } from "../storage/etcd-process.js";
import { reapOnExit } from "../reap-children.js";
import { goTool } from "./go-tools.js";

const { path: oracle, skip: noOracle } = goTool("kube-apiserver", "K8S_SERVER_ORACLE");
const skip = noOracle || (!findEtcd() ? "etcd is not installed" : false);

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}

/** One HTTPS request to the real server (self-signed certificate, anonymous). */
// biome-ignore lint/suspicious/noExplicitAny: test helper returns parsed JSON of any shape
function real(port: number, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      { host: "127.0.0.1", port, method, path, rejectUnauthorized: false, headers: text ? { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) } : {} },
      (res) => {
        let data = "";
        res.on("data", (c) => (data += c));
        res.on("end", () => {
          let json: unknown;
          try {
            json = data ? JSON.parse(data) : undefined;
          } catch {
            json = data; // plain text (health endpoints)
          }
          resolve({ status: res.statusCode ?? 0, json });
        });
      },
    );
    req.on("error", reject);
    // A hang guard, not a latency bound: the real server can take seconds per request on a loaded 2-core machine.
    req.setTimeout(30_000, () => req.destroy(new Error("timeout")));
    if (text) req.write(text);
    req.end();
  });
}

/** SIGTERM, then SIGKILL after 10 s; resolves once the process is gone (never leaves the real server running). */
async function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

const CRD = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "gizmos.interop.example.com" },
  spec: {
    group: "interop.example.com",
    scope: "Namespaced",
    names: { plural: "gizmos", singular: "gizmo", kind: "Gizmo" },
    versions: [
      {
        name: "v1",
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: "object", properties: { spec: { type: "object", properties: { size: { type: "integer", default: 1 }, color: { type: "string" } } } } } },
      },
    ],
  },
};
const GIZMOS = "/apis/interop.example.com/v1/namespaces/default/gizmos";

function interopSuite(name: string, startEtcd: () => Promise<EtcdProcess>, skip: string | false): void {
  describe(`interop with the real apiextensions-apiserver on one etcd (${name})`, { skip }, () => {
    let etcd: EtcdProcess;
    let crdkit: RunningServer;
    let k8s: ChildProcess;
    let port = 0;
    let dir = "";
    before(async () => {
      etcd = await startEtcd();
      dir = mkdtempSync(join(tmpdir(), "crdkit-interop-"));
      crdkit = await startServer({ port: 0, store: new EtcdStore({ servers: [etcd.url], prefix: "/registry" }) });
      port = await freePort();
      k8s = spawn(oracle!, ["--etcd-servers", etcd.url, "--etcd-prefix", "/registry", "--secure-port", String(port), "--cert-dir", dir], { stdio: "ignore" });
      reapOnExit(k8s);
      // Ready within 3 minutes (it starts in seconds on a quiet machine, much slower on a loaded CI one), or a
      // clear failure rather than tests against a server that is not up.
      const end = Date.now() + 180_000;
      for (;;) {
        if (k8s.exitCode !== null || k8s.signalCode !== null) throw new Error(`the real server exited (${k8s.exitCode ?? k8s.signalCode})`);
        try {
          if ((await real(port, "GET", "/readyz")).status === 200) break;
        } catch {
          // not up yet
        }
        if (Date.now() > end) throw new Error("the real server was not ready within 180 s");
        await new Promise((r) => setTimeout(r, 100));
      }
    });
    after(async () => {
      await stopProcess(k8s);
      await crdkit?.close();
      await etcd?.cleanup();
      rmSync(dir, { recursive: true, force: true });
    });

    it("the real server serves the CRD and custom resources crdkit wrote", async () => {
      assert.equal((await api(crdkit.url, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", CRD)).status, 201);
      const made = await api(crdkit.url, "POST", GIZMOS, { apiVersion: "interop.example.com/v1", kind: "Gizmo", metadata: { name: "by-crdkit" }, spec: { color: "red" } });
      assert.equal(made.status, 201, made.text);
      // biome-ignore lint/suspicious/noExplicitAny: parsed JSON of any shape
      let got = { status: 0, json: undefined as any };
      // The real server serves the CRD once its informer saw it: a minute at most, also on a loaded machine.
      for (const end = Date.now() + 60_000; got.status !== 200 && Date.now() < end; ) {
        got = await real(port, "GET", `${GIZMOS}/by-crdkit`);
        if (got.status !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(got.status, 200);
      assert.deepEqual(got.json.spec, { color: "red", size: 1 });
      assert.equal(got.json.metadata.uid, made.json.metadata.uid);
      assert.equal(got.json.metadata.resourceVersion, made.json.metadata.resourceVersion);
      const crd = await real(port, "GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gizmos.interop.example.com");
      assert.equal(crd.status, 200);
      assert.equal(crd.json.spec.names.kind, "Gizmo");
    });

    it("crdkit serves what the real server wrote", async () => {
      const made = await real(port, "POST", GIZMOS, { apiVersion: "interop.example.com/v1", kind: "Gizmo", metadata: { name: "by-k8s" }, spec: { color: "blue" } });
      assert.equal(made.status, 201);
      const got = await api(crdkit.url, "GET", `${GIZMOS}/by-k8s`);
      assert.equal(got.status, 200, got.text);
      assert.deepEqual(got.json.spec, { color: "blue", size: 1 });
      assert.equal(got.json.metadata.resourceVersion, made.json.metadata.resourceVersion);
      assert.deepEqual(got.json.metadata.managedFields, made.json.metadata.managedFields);
      // An update through crdkit of the real server's object, read back by the real server.
      const upd = await api(crdkit.url, "PATCH", `${GIZMOS}/by-k8s`, { spec: { size: 5 } }, { "Content-Type": "application/merge-patch+json" });
      assert.equal(upd.status, 200, upd.text);
      const back = await real(port, "GET", `${GIZMOS}/by-k8s`);
      assert.equal(back.json.spec.size, 5);
      assert.equal(back.json.metadata.generation, 2);
    });
  });
}

interopSuite("Debian etcd", () => EtcdProcess.start(), skip);
const etcd36 = goTool("etcd-3.6", "CRDKIT_ETCD36");
interopSuite("etcd 3.6", () => EtcdProcess.start({ bin: etcd36.path! }), skip || etcd36.skip);
