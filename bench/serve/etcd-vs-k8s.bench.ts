/**
 * crdkit on etcd vs the real apiextensions-apiserver (tools/k8s-server-oracle) on the same etcd, and crdkit on
 * SQLite: creates/s and gets/s of a small CronTab, 16 requests in flight, p50/p99, ratios in the same run.
 * The bench starts one etcd and every server as its own process (each on a fresh key prefix), all serving
 * HTTPS with the certificate the real server generated, one after the other, each warmed up first.
 * Needs the Go-built server (`node scripts/go-tools.mjs`, or K8S_SERVER_ORACLE=path).
 *
 *   node --import tsx bench/serve/etcd-vs-k8s.bench.ts [--quick] [--only=crdkit]
 *   (BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" profiles the crdkit processes)
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { Agent, request } from "node:https";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { goTool } from "../../test/interop/go-tools.js";
import { EtcdProcess } from "../../test/storage/etcd-process.js";

const quick = process.argv.includes("--quick");
const CREATES = quick ? 500 : 2000;
const GETS = quick ? 2000 : 10000;
const WARMUP = quick ? 200 : 500;
const CONCURRENCY = 16;
const only = process.argv.includes("--only=crdkit");
const root = resolve(import.meta.dirname, "..", "..");

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY, rejectUnauthorized: false });

/** One HTTPS request; resolves to the status (the body is read and dropped). */
function call(url: string, method: string, body?: string): Promise<number> {
  return new Promise((done, fail) => {
    const req = request(url, { method, agent, headers: body ? { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) } : {} }, (res) => {
      res.resume();
      res.on("end", () => done(res.statusCode ?? 0));
    });
    req.on("error", fail);
    req.end(body);
  });
}

/** CPU time (user + system) so far of a process and its descendants (--workers), in ms (Linux /proc; 0 elsewhere). */
function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  const stats = new Map<number, { ppid: number; ms: number }>();
  try {
    for (const d of readdirSync("/proc")) {
      if (!/^\d+$/.test(d)) continue;
      try {
        const f = readFileSync(`/proc/${d}/stat`, "utf8").split(") ")[1]!.split(" ");
        stats.set(Number(d), { ppid: Number(f[1]), ms: ((Number(f[11]) + Number(f[12])) * 1000) / 100 });
      } catch {
        // exited meanwhile
      }
    }
  } catch {
    return 0;
  }
  let total = 0;
  const todo = [pid];
  while (todo.length > 0) {
    const p = todo.pop()!;
    total += stats.get(p)?.ms ?? 0;
    for (const [c, st] of stats) if (st.ppid === p) todo.push(c);
  }
  return total;
}

function selfCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

let serverPid: number | undefined;
let etcdPid: number | undefined;

/** Runs `n` requests with 16 in flight; throughput, latency percentiles, CPU ms per request of server/etcd/client. */
async function load(n: number, one: (i: number) => Promise<number>, want: number) {
  const lat: number[] = [];
  const cpu0 = [cpuMs(serverPid), cpuMs(etcdPid), selfCpuMs()];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) {
        const i = next++;
        const t = performance.now();
        const status = await one(i);
        lat.push(performance.now() - t);
        if (status !== want) throw new Error(`request ${i}: HTTP ${status}, want ${want}`);
      }
    }),
  );
  const secs = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  const cpu = [cpuMs(serverPid), cpuMs(etcdPid), selfCpuMs()].map((c, i) => (c - cpu0[i]!) / n);
  return { perSec: n / secs, p50: pct(lat, 50), p99: pct(lat, 99), cpu };
}

const CRD = JSON.stringify({
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "crontabs.stable.example.com" },
  spec: {
    group: "stable.example.com",
    scope: "Namespaced",
    names: { plural: "crontabs", singular: "crontab", kind: "CronTab", shortNames: ["ct"] },
    versions: [
      {
        name: "v1",
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: "object",
            properties: {
              spec: { type: "object", properties: { cronSpec: { type: "string" }, image: { type: "string" }, replicas: { type: "integer" } } },
            },
          },
        },
      },
    ],
  },
});
// In namespace "default", which crdkit's NamespaceLifecycle admission knows (the standalone real server has none).
const cronTab = (prefix: string, i: number) =>
  JSON.stringify({
    apiVersion: "stable.example.com/v1",
    kind: "CronTab",
    metadata: { name: `${prefix}-${i}`, namespace: "default" },
    spec: { cronSpec: "* * * * */5", image: "my-awesome-cron-image", replicas: 1 },
  });

/** Starts a server process and waits until `url` answers /readyz. */
async function startProcess(bin: string, args: string[], url: string): Promise<ChildProcess> {
  const child = spawn(bin, args, { cwd: root, stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  child.stderr?.on("data", (d: Buffer) => {
    if (err.length < 10_000) err += d.toString();
  });
  process.once("exit", () => child.kill("SIGKILL"));
  serverPid = child.pid;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`${bin} exited: ${err}`);
    try {
      if ((await call(`${url}/readyz`, "GET")) === 200) return child;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${bin} did not start: ${err}`);
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((r) => {
    child.once("exit", () => r());
    child.kill("SIGTERM");
  });
}

async function freePort(): Promise<number> {
  const { createServer } = await import("node:net");
  return new Promise((r) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => r(p));
    });
  });
}

interface Result {
  name: string;
  creates: Awaited<ReturnType<typeof load>>;
  gets: Awaited<ReturnType<typeof load>>;
}

/** Installs the CRD, waits until it is served, warms up, then measures creates and gets. */
async function measure(name: string, url: string): Promise<Result> {
  const crds = `${url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`;
  const st = await call(crds, "POST", CRD);
  if (st !== 201) throw new Error(`${name}: CRD create: HTTP ${st}`);
  const coll = `${url}/apis/stable.example.com/v1/namespaces/default/crontabs`;
  for (let i = 0; (await call(coll, "GET")) !== 200; i++) {
    if (i > 300) throw new Error(`${name}: the CRD is not served`);
    await new Promise((r) => setTimeout(r, 100));
  }
  await load(WARMUP, (i) => call(coll, "POST", cronTab("warm", i)), 201);
  await load(WARMUP * 4, (i) => call(`${coll}/warm-${i % WARMUP}`, "GET"), 200);
  const creates = await load(CREATES, (i) => call(coll, "POST", cronTab("ct", i)), 201);
  const gets = await load(GETS, (i) => call(`${coll}/ct-${i % CREATES}`, "GET"), 200);
  return { name, creates, gets };
}

const oracle = goTool("kube-apiserver", "K8S_SERVER_ORACLE");
if (!oracle.path) throw new Error(`the real server is needed: ${oracle.skip}`);
const etcd = await EtcdProcess.start();
etcdPid = etcd.pid;
const dir = mkdtempSync(join(tmpdir(), "crdkit-bench-k8s-"));
const results: Result[] = [];
const run = Date.now();
try {
  // The real server, on its prefix; its generated serving certificate is then used by crdkit too.
  const kPort = await freePort();
  const kUrl = `https://127.0.0.1:${kPort}`;
  const k8s = await startProcess(
    oracle.path,
    ["--etcd-servers", etcd.url, "--etcd-prefix", `/bench-k8s-${run}`, "--secure-port", String(kPort), "--cert-dir", join(dir, "certs")],
    kUrl,
  );
  try {
    if (!only) results.push(await measure("real apiextensions-apiserver, etcd", kUrl));
  } finally {
    await stopProcess(k8s);
  }
  const tls = ["--tls-cert-file", join(dir, "certs", "apiserver.crt"), "--tls-private-key-file", join(dir, "certs", "apiserver.key")];
  const crdkit = async (name: string, store: string[]) => {
    const port = await freePort();
    const url = `https://127.0.0.1:${port}`;
    const child = await startProcess(
      process.execPath,
      [...(process.env["BENCH_NODE_ARGS"]?.split(" ").filter(Boolean) ?? []), "--import", "tsx", "bench/serve/crdkit-process.ts", "serve", "--quiet", "--no-ui", "--listen", `127.0.0.1:${port}`, ...tls, ...store],
      url,
    );
    try {
      results.push(await measure(name, url));
    } finally {
      await stopProcess(child);
    }
  };
  await crdkit("crdkit, etcd", ["--etcd-servers", etcd.url, "--etcd-prefix", `/bench-crdkit-${run}`]);
  await crdkit("crdkit --workers 2, etcd", ["--workers", "2", "--etcd-servers", etcd.url, "--etcd-prefix", `/bench-crdkit2-${run}`]);
  await crdkit("crdkit, SQLite (synchronous=FULL)", ["--data", join(dir, "data")]);
} finally {
  agent.destroy();
  await etcd.cleanup();
  rmSync(dir, { recursive: true, force: true });
}

const f = (n: number) => n.toFixed(n < 10 ? 2 : 0);
const c3 = (c: number[]) => `cpu/req ${c.map((x) => x.toFixed(2)).join("/")}`;
const lines = [
  `serve bench: small CronTab, ${CONCURRENCY} in flight, HTTPS on loopback, ${CREATES} creates then ${GETS} gets (after ${WARMUP} + ${WARMUP * 4} warm-up)`,
  ...results.map(
    (r) =>
      `${r.name.padEnd(40)} create ${f(r.creates.perSec).padStart(6)}/s p50 ${f(r.creates.p50)} ms p99 ${f(r.creates.p99)} ms ${c3(r.creates.cpu)} | get ${f(r.gets.perSec).padStart(6)}/s p50 ${f(r.gets.p50)} ms p99 ${f(r.gets.p99)} ms ${c3(r.gets.cpu)}`,
  ),
];
lines.push("(cpu/req: CPU ms per request of server/etcd/load generator)");
const k = results.find((r) => r.name.startsWith("real"));
for (const c of results.filter((r) => r.name.startsWith("crdkit") && r.name.endsWith("etcd"))) {
  if (k) lines.push(`${c.name} / real: creates ${(c.creates.perSec / k.creates.perSec).toFixed(2)}x, gets ${(c.gets.perSec / k.gets.perSec).toFixed(2)}x (goals 1.5x, 3x)`);
}
process.stdout.write(lines.join("\n") + "\n");
