/**
 * crdkit on etcd vs the real apiextensions-apiserver (tools/k8s-server-oracle) on the same etcd, and crdkit on
 * SQLite: creates/s and gets/s of a small CronTab, 16 requests in flight, p50/p99, ratios in the same run.
 * The bench starts one etcd and every server as its own process (each on a fresh key prefix), all serving
 * HTTPS with the certificate the real server generated, one after the other, each warmed up first.
 * Needs the Go-built server (`node scripts/go-tools.mjs`, or K8S_SERVER_ORACLE=path).
 *
 * `--crds=N` also installs N CRDs one by one over HTTP into each crdkit server (each create followed by GETs of
 * the CRD until it is Established, as `kubectl wait` would) and reports the seconds and server CPU it took; with
 * `--crds-only` the real server installs them too (its time beside crdkit's).
 * The load generator's client is undici (`--client=node`: node's https client, the bench's before), the same
 * for every server; each line gives the CPU per request of server, etcd and load generator apart; `--client=h2`:
 * node:http2, one connection per server with the 16 requests as streams on it (as kubectl and client-go).
 * `--baseline=DIR` runs crdkit a second time from another checkout (e.g. `git archive main` unpacked, with a
 * node_modules link) next to this one, in the same run; `--rounds=N` repeats everything N times, interleaved.
 *
 *   node --import tsx bench/serve/etcd-vs-k8s.bench.ts [--quick] [--only=crdkit] [--crds=1000]
 *     [--crds-only] [--baseline=DIR] [--rounds=N] [--warmup=N] [--variants=etcd,workers,sqlite,floor] [--client=node|h2|go-h2|go-h1]
 *   (BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" profiles the crdkit processes)
 * `--variants=floor` adds a bare node:https server answering a fixed object (https-floor-server.mjs): the most any
 * single Node process speaking HTTPS reaches here, printed as a ratio to the real server beside crdkit's.
 * Each tree runs its built CLI when its dist/ is current (`npm run build`), else its sources through tsx,
 * which costs crdkit about twice the CPU in its own code (crdkit-command.ts); the output says which.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { goTool } from "../../test/interop/go-tools.js";
import { crdkitCommand, describeRun } from "./crdkit-command.js";
import { goInstall, goLoad } from "./go-load.js";
import { nodeH2Client, nodeHttpsClient, undiciClient } from "./load-client.js";
import { EtcdProcess } from "../../test/storage/etcd-process.js";
import { CRONTAB_CRD, cronTab } from "./crontab-fixture.js";
import { established, installCrd } from "./install-crd.js";

const quick = process.argv.includes("--quick");
const CREATES = quick ? 500 : 2000;
const GETS = quick ? 2000 : 10000;
/**
 * Creates before the measured ones (and 4× as many GETs before the measured GETs). `--warmup=N` sets it: V8 still
 * compiles crdkit's hot code on helper threads after 500 creates, counted in the window's server CPU; a larger
 * warm-up measures a long-running server's steady state (the Go server needs none, so its figures do not move).
 */
const WARMUP = Number(process.argv.find((a) => a.startsWith("--warmup="))?.slice(9) ?? (quick ? 200 : 500));
const CONCURRENCY = 16;
const only = process.argv.includes("--only=crdkit");
const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const CRDS = Number(arg("crds") ?? 0);
const baseline = arg("baseline");
const ROUNDS = Number(arg("rounds") ?? 1);
/** Only the CRD install (one create and one get instead of the load phases). */
const crdsOnly = process.argv.includes("--crds-only");
const variants = (arg("variants") ?? "etcd,workers,sqlite").split(",");
const root = resolve(import.meta.dirname, "..", "..");

/**
 * The load generator's HTTPS client, the same for every server (load-client.ts; `--client=node`: node's https).
 * `--client=go-h2` / `go-h1`: the load phases (warm-up and measured) are sent by tools/go-load, Go's net/http
 * transport as client-go uses it (HTTP/2 on one connection / HTTP/1.1 on 16), the rest by undici.
 */
const goClient = arg("client") === "go-h2" ? "h2" : arg("client") === "go-h1" ? "h1" : undefined;
const client = arg("client") === "node" ? nodeHttpsClient(CONCURRENCY) : arg("client") === "h2" ? nodeH2Client() : undiciClient(CONCURRENCY);
const call = client.call;
const getText = client.getText;

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


/** Starts a server process and waits until `url` answers /readyz. */
async function startProcess(bin: string, args: string[], url: string, cwd = root): Promise<ChildProcess> {
  const child = spawn(bin, args, { cwd, stdio: ["ignore", "ignore", "pipe"] });
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
  /** HTTP versions and connections of the measured phases (see `wire`). */
  wire: string;
  creates: Awaited<ReturnType<typeof load>>;
  gets: Awaited<ReturnType<typeof load>>;
  install?: Awaited<ReturnType<typeof install>>;
}

/**
 * Creates `n` CRDs one by one, each waited for until Established; wall seconds and server CPU seconds, and the
 * server CPU ms per CRD of the first and the last tenth (the n-th install should cost what the first ones do).
 */
async function install(
  url: string,
  n: number,
): Promise<{ secs: number; cpuSecs: number; etcdSecs: number; clientSecs: number; firstMs: number; lastMs: number; tenthsMs: number[] }> {
  const crds = `${url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`;
  const cpu0 = cpuMs(serverPid);
  const etcd0 = cpuMs(etcdPid);
  if (goClient) {
    // The chain by Go's net/http client (as kubectl's), whose own CPU per request is a fraction of Node's.
    const body = JSON.stringify(installCrd(987654)).replaceAll("987654", "%N%");
    const r = await goInstall({ url: crds, getUrl: `${crds}/things%N%.bench%N%.example.com`, body, n, http1: goClient === "h1", ...(serverPid !== undefined ? { serverPid } : {}) });
    const tenthsMs = r.tenthsMs ?? [];
    const cpuSecs = (cpuMs(serverPid) - cpu0) / 1000;
    return { secs: r.secs, cpuSecs, etcdSecs: (cpuMs(etcdPid) - etcd0) / 1000, clientSecs: r.cpuMs / 1000, firstMs: tenthsMs[0] ?? 0, lastMs: tenthsMs.at(-1) ?? 0, tenthsMs };
  }
  const self0 = selfCpuMs();
  const t0 = performance.now();
  const tenth = Math.max(1, Math.floor(n / 10));
  let firstMs = 0;
  let lastFrom = 0;
  /** Server CPU ms per CRD of each tenth, in order (where the warm-up ends). */
  const tenthsMs: number[] = [];
  let tenthFrom = cpu0;
  for (let i = 1; i <= n; i++) {
    if (i === n - tenth + 1) lastFrom = cpuMs(serverPid);
    const st = await call(crds, "POST", JSON.stringify(installCrd(i)));
    if (st !== 201) throw new Error(`CRD ${i}: HTTP ${st}`);
    for (let tries = 0; ; tries++) {
      const r = await getText(`${crds}/things${i}.bench${i}.example.com`);
      if (r.status === 200 && established(r.text)) break;
      if (tries > 500) throw new Error(`CRD ${i} not Established`);
      await new Promise((r) => setTimeout(r, 5));
    }
    if (i === tenth) firstMs = (cpuMs(serverPid) - cpu0) / tenth;
    if (i % tenth === 0) {
      const now = cpuMs(serverPid);
      tenthsMs.push((now - tenthFrom) / tenth);
      tenthFrom = now;
    }
  }
  const end = cpuMs(serverPid);
  const secs = (performance.now() - t0) / 1000;
  // The load generator's CPU includes the tenths' /proc reads above (a few ms in all).
  const clientSecs = (selfCpuMs() - self0) / 1000;
  return { secs, cpuSecs: (end - cpu0) / 1000, etcdSecs: (cpuMs(etcdPid) - etcd0) / 1000, clientSecs, firstMs, lastMs: (end - lastFrom) / tenth, tenthsMs };
}

/** One phase by tools/go-load, with the server's and etcd's CPU per request around it (go-load reports its own). */
async function goPhase(opts: Parameters<typeof goLoad>[0]) {
  const cpu0 = [cpuMs(serverPid), cpuMs(etcdPid)];
  const r = await goLoad(opts);
  const cpu = [cpuMs(serverPid), cpuMs(etcdPid)].map((c, i) => (c - cpu0[i]!) / opts.n);
  return { perSec: r.perSec, p50: r.p50, p99: r.p99, cpu: [...cpu, r.cpuMs / opts.n], proto: r.proto, opened: r.opened };
}

/** The warm-up and measured load phases sent by tools/go-load (`--client=go-h2|go-h1`). */
async function goPhases(coll: string) {
  const http1 = goClient === "h1";
  const body = cronTab("X", 0).replace('"X-0"', '"%NAME%"');
  const phase = (method: string, prefix: string, n: number, mod?: number) =>
    goPhase({ url: method === "POST" ? coll : `${coll}/%NAME%`, method, n, inFlight: CONCURRENCY, prefix, want: method === "POST" ? 201 : 200, http1, ...(method === "POST" ? { body } : {}), ...(mod !== undefined ? { mod } : {}) });
  await phase("POST", "warm", WARMUP);
  await phase("GET", "warm", WARMUP * 4, WARMUP);
  const creates = await phase("POST", "ct", CREATES);
  const gets = await phase("GET", "ct", GETS, CREATES);
  const wire = `${creates.proto} (Go net/http${http1 ? `, ${CONCURRENCY} connections` : ", one connection"}), ${creates.opened + gets.opened} connections opened while measured`;
  return { wire, creates, gets };
}

/** Installs the CRD, waits until it is served, warms up, then measures creates and gets. */
async function measure(name: string, url: string): Promise<Result> {
  const crds = `${url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`;
  const st = await call(crds, "POST", CRONTAB_CRD);
  if (st !== 201) throw new Error(`${name}: CRD create: HTTP ${st}`);
  const coll = `${url}/apis/stable.example.com/v1/namespaces/default/crontabs`;
  for (let i = 0; (await call(coll, "GET")) !== 200; i++) {
    if (i > 300) throw new Error(`${name}: the CRD is not served`);
    await new Promise((r) => setTimeout(r, 100));
  }
  if (crdsOnly) return { name, wire: "", creates: await load(1, (i) => call(coll, "POST", cronTab("one", i)), 201), gets: await load(1, () => call(`${coll}/one-0`, "GET"), 200), install: await install(url, CRDS) };
  if (goClient) return { name, ...(await goPhases(coll)), ...(CRDS > 0 && !name.startsWith("real") && !name.includes("floor") ? { install: await install(url, CRDS) } : {}) };
  await load(WARMUP, (i) => call(coll, "POST", cronTab("warm", i)), 201);
  await load(WARMUP * 4, (i) => call(`${coll}/warm-${i % WARMUP}`, "GET"), 200);
  // The warm-up's connections are known: only connections opened during the measured phases count.
  client.resetWire();
  const creates = await load(CREATES, (i) => call(coll, "POST", cronTab("ct", i)), 201);
  const gets = await load(GETS, (i) => call(`${coll}/ct-${i % CREATES}`, "GET"), 200);
  const seen = client.wire();
  return { name, wire: seen, creates, gets, ...(CRDS > 0 && !name.startsWith("real") && !name.includes("floor") ? { install: await install(url, CRDS) } : {}) };
}

const oracle = goTool("kube-apiserver", "K8S_SERVER_ORACLE");
if (!oracle.path) throw new Error(`the real server is needed: ${oracle.skip}`);
const etcd = await EtcdProcess.start();
etcdPid = etcd.pid;
const dir = mkdtempSync(join(tmpdir(), "crdkit-bench-k8s-"));
const results: Result[] = [];
const runs = new Map<string, string>();
const run = Date.now();
try {
  const tls = ["--tls-cert-file", join(dir, "certs", "apiserver.crt"), "--tls-private-key-file", join(dir, "certs", "apiserver.key")];
  let n = 0;
  const crdkit = async (name: string, cwd: string, store: string[]) => {
    const port = await freePort();
    const url = `https://127.0.0.1:${port}`;
    const cmd = crdkitCommand(cwd);
    runs.set(cwd, describeRun(cwd, cmd.built));
    const child = await startProcess(
      process.execPath,
      [...(process.env["BENCH_NODE_ARGS"]?.split(" ").filter(Boolean) ?? []), ...cmd.args, "serve", "--quiet", "--no-ui", "--listen", `127.0.0.1:${port}`, ...tls, ...store],
      url,
      cwd,
    );
    try {
      results.push(await measure(name, url));
    } finally {
      await stopProcess(child);
    }
  };
  for (let round = 1; round <= ROUNDS; round++) {
    // The real server, on its prefix; its generated serving certificate is then used by crdkit too.
    const kPort = await freePort();
    const kUrl = `https://127.0.0.1:${kPort}`;
    const k8s = await startProcess(
      oracle.path,
      // The load generator stands for an authenticated client: without this gate the real server ends an
      // anonymous client's HTTP/2 connection after each request (its CVE-2023-44487 mitigation), which the
      // clients of a cluster, authenticated, do not meet. HTTP/1.1 is unaffected.
      ["--etcd-servers", etcd.url, "--etcd-prefix", `/bench-k8s-${run}-${round}`, "--secure-port", String(kPort), "--cert-dir", join(dir, "certs"), "--feature-gates", "UnauthenticatedHTTP2DOSMitigation=false"],
      kUrl,
    );
    try {
      if (!only) results.push(await measure("real apiextensions-apiserver, etcd", kUrl));
    } finally {
      await stopProcess(k8s);
    }
    if (variants.includes("floor") && !crdsOnly) {
      const port = await freePort();
      const url = `https://127.0.0.1:${port}`;
      const child = await startProcess(process.execPath, [join(root, "bench", "serve", "https-floor-server.mjs"), String(port), tls[1]!, tls[3]!], url);
      try {
        results.push(await measure("bare Node HTTPS (floor)", url));
      } finally {
        await stopProcess(child);
      }
    }
    const trees: [string, string][] = [["crdkit", root], ...(baseline ? ([["baseline", resolve(baseline)]] as [string, string][]) : [])];
    // Interleaved: in odd rounds this tree first, in even rounds the baseline first.
    if (round % 2 === 0) trees.reverse();
    for (const [label, cwd] of trees) {
      const id = () => `${run}-${n++}`;
      if (variants.includes("etcd")) await crdkit(`${label}, etcd`, cwd, ["--etcd-servers", etcd.url, "--etcd-prefix", `/bench-crdkit-${id()}`]);
      if (variants.includes("workers")) await crdkit(`${label} --workers 2, etcd`, cwd, ["--workers", "2", "--etcd-servers", etcd.url, "--etcd-prefix", `/bench-crdkit2-${id()}`]);
      if (variants.includes("sqlite")) await crdkit(`${label}, SQLite (synchronous=FULL)`, cwd, ["--data", join(dir, `data-${id()}`)]);
    }
  }
} finally {
  await client.close();
  await etcd.cleanup();
  rmSync(dir, { recursive: true, force: true });
}

const f = (n: number) => n.toFixed(n < 10 ? 2 : 0);
const c3 = (c: number[]) => `cpu/req ${c.map((x) => x.toFixed(2)).join("/")}`;
const lines = [
  `serve bench: small CronTab, ${CONCURRENCY} in flight, HTTPS on loopback, ${CREATES} creates then ${GETS} gets (after ${WARMUP} + ${WARMUP * 4} warm-up)`,
  ...results.map(
    (r) =>
      `${r.name.padEnd(40)} create ${f(r.creates.perSec).padStart(6)}/s p50 ${f(r.creates.p50)} ms p99 ${f(r.creates.p99)} ms ${c3(r.creates.cpu)} | get ${f(r.gets.perSec).padStart(6)}/s p50 ${f(r.gets.p50)} ms p99 ${f(r.gets.p99)} ms ${c3(r.gets.cpu)}` +
      (r.wire ? ` | ${r.wire}` : "") +
      (r.install
        ? ` | ${CRDS} CRDs ${r.install.secs.toFixed(2)} s (server CPU ${r.install.cpuSecs.toFixed(2)} s, etcd ${r.install.etcdSecs.toFixed(2)} s, load generator ${r.install.clientSecs.toFixed(2)} s; first/last tenth ${r.install.firstMs.toFixed(1)}/${r.install.lastMs.toFixed(1)} ms per CRD; by tenth ${r.install.tenthsMs.map((x) => x.toFixed(1)).join(" ")})`
        : ""),
  ),
];
lines.push("(cpu/req: CPU ms per request of server/etcd/load generator)", ...runs.values());
// Ratios against the real server of the same round (results come in rounds: real first, then the crdkit runs).
let k: Result | undefined;
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** The real server's install seconds per round (`--crds-only` runs the install on it too). */
const realInstall: number[] = [];
const byName = new Map<string, { creates: number[]; gets: number[]; cpuC: number[]; cpuG: number[]; installS: number[]; installCpu: number[]; installEtcd: number[]; installClient: number[] }>();
for (const r of results) {
  if (r.name.startsWith("real")) {
    k = r;
    if (r.install) realInstall.push(r.install.secs);
    continue;
  }
  const m = byName.get(r.name) ?? { creates: [], gets: [], cpuC: [], cpuG: [], installS: [], installCpu: [], installEtcd: [], installClient: [] };
  byName.set(r.name, m);
  if (r.install) {
    m.installS.push(r.install.secs);
    m.installCpu.push(r.install.cpuSecs);
    m.installEtcd.push(r.install.etcdSecs);
    m.installClient.push(r.install.clientSecs);
  }
  m.cpuC.push(r.creates.cpu[0]!);
  m.cpuG.push(r.gets.cpu[0]!);
  // With --crds-only there are no load phases (one create, one GET) to compare.
  if (k && (r.name.endsWith("etcd") || r.name.includes("floor")) && !crdsOnly) {
    m.creates.push(r.creates.perSec / k.creates.perSec);
    m.gets.push(r.gets.perSec / k.gets.perSec);
    lines.push(`${r.name} / real: creates ${(r.creates.perSec / k.creates.perSec).toFixed(2)}x, gets ${(r.gets.perSec / k.gets.perSec).toFixed(2)}x ${r.name.includes("floor") ? "(no server work: the ceiling of one Node process here)" : "(goals 1.5x, 4x)"}`);
  }
  if (k?.install && r.install) {
    lines.push(`${r.name}: ${CRDS} CRDs installed in ${r.install.secs.toFixed(2)} s, the real server in ${k.install.secs.toFixed(2)} s (real / crdkit ${(k.install.secs / r.install.secs).toFixed(1)}x)`);
  }
}
if (ROUNDS > 1) {
  lines.push(`medians over ${ROUNDS} rounds:`);
  for (const [name, m] of byName) {
    const ratios = m.creates.length > 0 ? `, vs real: creates ${med(m.creates).toFixed(2)}x, gets ${med(m.gets).toFixed(2)}x` : "";
    const vsReal = realInstall.length > 0 ? `, real server ${med(realInstall).toFixed(2)} s` : "";
    const install = m.installS.length > 0 ? `, ${CRDS} CRDs ${med(m.installS).toFixed(2)} s (server CPU ${med(m.installCpu).toFixed(2)} s, etcd ${med(m.installEtcd).toFixed(2)} s, load generator ${med(m.installClient).toFixed(2)} s; goal < 5 s${vsReal})` : "";
    lines.push(`  ${name.padEnd(40)} server CPU ms/req create ${med(m.cpuC).toFixed(2)}, get ${med(m.cpuG).toFixed(2)}${ratios}${install}`);
  }
}
process.stdout.write(lines.join("\n") + "\n");
