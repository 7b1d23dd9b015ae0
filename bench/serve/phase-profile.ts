/**
 * CPU profiles of `crdkit serve` on etcd, one per load phase (creates, then gets of a small CronTab with 16
 * requests in flight), for finding per-request costs: the server runs in this process (plain HTTP, an etcd
 * of its own) and is profiled with the inspector only while a phase runs; the load comes from a worker
 * thread, so the profile holds the server's work alone. Prints each phase's server-thread CPU per request.
 *
 *   node --import tsx bench/serve/phase-profile.ts [--creates=N] [--gets=N] [--out=DIR] [--no-profile] [--no-watch-cache] [--tls]
 *   (--tls: HTTPS with a throwaway certificate and crdkit's security flags, as bench:etcd runs it;
 *   --built: the server from dist/ — `npm run build` first — instead of the sources through tsx, whose
 *   keepNames wrappers cost crdkit's own code about twice the CPU, see crdkit-command.ts)
 *   then: node /path/to/a/profile/reader.mjs DIR/creates.cpuprofile
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { Session } from "node:inspector/promises";
import { join, resolve } from "node:path";
import { Worker } from "node:worker_threads";
import type { startServer as StartServer } from "../../src/server/server.js";
import type { EtcdStore as EtcdStoreClass } from "../../src/storage/etcd/etcd-store.js";
import { EtcdProcess } from "../../test/storage/etcd-process.js";
import { CRONTAB_CRD } from "./crontab-fixture.js";

const arg = (name: string, d: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? d;
const CREATES = Number(arg("creates", "2000"));
const GETS = Number(arg("gets", "8000"));
const out = resolve(arg("out", "phase-profiles"));
const profiling = !process.argv.includes("--no-profile");
if (profiling) mkdirSync(out, { recursive: true });

/** The load generator: runs one phase per message and answers when it is done. */
const loader = `
const { parentPort } = require("node:worker_threads");
const http = require(process.argv.includes("--tls") ? "node:https" : "node:http");
const agent = new http.Agent({ keepAlive: true, maxSockets: 16, rejectUnauthorized: false });
function call(url, method, body) {
  return new Promise((done, fail) => {
    const req = http.request(url, { method, agent, headers: body ? { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) } : {} }, (res) => {
      res.resume();
      res.on("end", () => done(res.statusCode));
    });
    req.on("error", fail);
    req.end(body);
  });
}
const cronTab = (p, i) => JSON.stringify({ apiVersion: "stable.example.com/v1", kind: "CronTab", metadata: { name: p + "-" + i, namespace: "default" }, spec: { cronSpec: "* * * * */5", image: "my-awesome-cron-image", replicas: 1 } });
let crd;
parentPort.on("message", async ({ url, kind, prefix, n, want, crdText }) => {
  if (crdText) crd = crdText;
  let next = 0;
  await Promise.all(Array.from({ length: 16 }, async () => {
    while (next < n) {
      const i = next++;
      const st = kind === "crd" ? await call(url, "POST", crd) : kind === "create" ? await call(url, "POST", cronTab(prefix, i)) : await call(url + "/" + prefix + "-" + (i % want), "GET");
      if (st !== (kind === "get" ? 200 : 201)) throw new Error("HTTP " + st);
    }
  }));
  parentPort.postMessage("done");
});
`;

const etcd = await EtcdProcess.start();
const watchCache = !process.argv.includes("--no-watch-cache");
const tls = process.argv.includes("--tls");
const certDir = mkdtempSync(join(tmpdir(), "crdkit-phase-"));
if (tls) {
  execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", "k.key", "-out", "c.crt", "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"], { cwd: certDir, stdio: "pipe" });
}
const security = tls ? { tlsCertFile: join(certDir, "c.crt"), tlsPrivateKeyFile: join(certDir, "k.key") } : {};
const from = process.argv.includes("--built") ? "../../dist" : "../../src";
const { startServer } = (await import(`${from}/server/server.js`)) as { startServer: typeof StartServer };
const { EtcdStore } = (await import(`${from}/storage/etcd/etcd-store.js`)) as { EtcdStore: typeof EtcdStoreClass };
const store = new EtcdStore({ servers: [etcd.url], watchCache });
const server = await startServer({ store, ui: false, security });
const worker = new Worker(loader, { eval: true, argv: tls ? ["--tls"] : [] });
const phase = (kind: string, prefix: string, n: number, want = 0) =>
  new Promise<void>((done, fail) => {
    worker.once("message", () => done());
    worker.once("error", fail);
    const url = kind === "crd" ? `${server.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions` : `${server.url}/apis/stable.example.com/v1/namespaces/default/crontabs`;
    worker.postMessage({ url, kind, prefix, n, want, crdText: CRONTAB_CRD });
  });
try {
  await phase("crd", "", 1);
  await phase("create", "warm", 500);
  await phase("get", "warm", 2000, 500);
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  for (const [name, kind, n, want] of [
    ["creates", "create", CREATES, 0],
    ["gets", "get", GETS, CREATES],
  ] as const) {
    if (profiling) await session.post("Profiler.start");
    const s0 = store.readStats;
    const c0 = process.cpuUsage();
    await phase(kind, "ct", n, want);
    const c = process.cpuUsage(c0);
    if (profiling) {
      const { profile } = await session.post("Profiler.stop");
      writeFileSync(join(out, `${name}.cpuprofile`), JSON.stringify(profile));
    }
    // process.cpuUsage covers every thread: the worker's share is included; the profile is the server thread.
    const s1 = store.readStats;
    const perTxn = s1.batches > s0.batches ? ` (${((s1.reads - s0.reads) / (s1.batches - s0.batches)).toFixed(1)} reads per etcd read call)` : "";
    console.log(`${name}: ${n} requests, process CPU ${((c.user + c.system) / 1000 / n).toFixed(3)} ms/req (with the load generator)${perTxn}`);
  }
  session.disconnect();
} finally {
  await worker.terminate();
  await server.close();
  await etcd.cleanup();
  rmSync(certDir, { recursive: true, force: true });
}
