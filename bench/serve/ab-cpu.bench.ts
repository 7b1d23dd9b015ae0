/**
 * Server CPU per request of two crdkit trees on one etcd, paired: this checkout and `--baseline=DIR` (e.g.
 * `git archive main` unpacked, with a node_modules link) run as two long-lived `crdkit serve` processes
 * (HTTPS, the bench's certificate, 16 requests in flight), warmed up once, then measured in alternating
 * phases — creates of a small CronTab, then GETs of them — `--rounds=N` times, the order of the two servers
 * swapped every round. Prints each phase's server (all threads, and its main thread) and etcd CPU ms per request
 * (from /proc), requests per second, and the medians,
 * which on a shared machine are steadier than throughput (etcd-vs-k8s.bench.ts gives the ratios to the real
 * server). Each tree runs its built CLI when its dist/ is current, else its sources through tsx
 * (crdkit-command.ts; the output says which). Linux only.
 *
 *   node --import tsx bench/serve/ab-cpu.bench.ts --baseline=DIR [--rounds=8] [--creates=1000] [--gets=4000] [--warmup=2000]
 *   (AB_NODE_ARGS / AB_BASELINE_NODE_ARGS: node flags of this tree's / the baseline's server, e.g. --cpu-prof)
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { Agent, request } from "node:https";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { EtcdProcess } from "../../test/storage/etcd-process.js";
import { crdkitCommand, describeRun } from "./crdkit-command.js";
import { CRONTAB_CRD, cronTab } from "./crontab-fixture.js";
import { caller, freePort, load } from "./load-loop.js";

const arg = (name: string, d: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? d;
const baseline = arg("baseline", "");
if (baseline === "") throw new Error("--baseline=DIR is required");
const ROUNDS = Number(arg("rounds", "8"));
const CREATES = Number(arg("creates", "1000"));
const GETS = Number(arg("gets", "4000"));
const WARMUP = Number(arg("warmup", "2000"));
const CONCURRENCY = 16;
const root = resolve(import.meta.dirname, "..", "..");
const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY, rejectUnauthorized: false });

const call = caller(request, agent);

/** CPU ms (user + system) of one process so far (all its threads), or of its main thread only. */
function cpuMs(pid: number, mainThread = false): number {
  const f = readFileSync(mainThread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
}

interface Server {
  label: string;
  child: ChildProcess;
  coll: string;
  creates: number[];
  gets: number[];
  etcdCreates: number[];
  etcdGets: number[];
  /** the server's main thread's share (the rest: its etcd client thread, GC and libuv threads) */
  mainCreates: number[];
  mainGets: number[];
  /** requests per second of wall time */
  rateCreates: number[];
  rateGets: number[];
}

const etcd = await EtcdProcess.start();
const dir = mkdtempSync(join(tmpdir(), "crdkit-ab-"));
execFileSync(
  "openssl",
  ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", "k.key", "-out", "c.crt", "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
  { cwd: dir, stdio: "pipe" },
);
const servers: Server[] = [];
const runs: string[] = [];
try {
  for (const [label, cwd] of [
    ["crdkit", root],
    ["baseline", resolve(baseline)],
  ] as const) {
    const port = await freePort();
    const url = `https://127.0.0.1:${port}`;
    const flags = process.env[label === "crdkit" ? "AB_NODE_ARGS" : "AB_BASELINE_NODE_ARGS"]?.split(" ").filter(Boolean) ?? [];
    const cmd = crdkitCommand(cwd);
    runs.push(describeRun(label, cmd.built));
    const args = [...flags, ...cmd.args, "serve", "--quiet", "--no-ui", "--listen", `127.0.0.1:${port}`];
    args.push("--tls-cert-file", join(dir, "c.crt"), "--tls-private-key-file", join(dir, "k.key"), "--etcd-servers", etcd.url, "--etcd-prefix", `/ab-${label}`);
    const child = spawn(process.execPath, args, { cwd, stdio: ["ignore", "ignore", "ignore"] });
    process.once("exit", () => child.kill("SIGKILL"));
    for (let i = 0; ; i++) {
      if (i > 600) throw new Error(`${label} did not start`);
      const st = await call(`${url}/readyz`, "GET").catch(() => 0);
      if (st === 200) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    if ((await call(`${url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, "POST", CRONTAB_CRD)) !== 201) throw new Error(`${label}: CRD create failed`);
    const coll = `${url}/apis/stable.example.com/v1/namespaces/default/crontabs`;
    for (let i = 0; (await call(coll, "GET")) !== 200; i++) {
      if (i > 300) throw new Error(`${label}: the CRD is not served`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await load(WARMUP, CONCURRENCY, (i) => call(coll, "POST", cronTab("warm", i)), 201);
    await load(WARMUP * 4, CONCURRENCY, (i) => call(`${coll}/warm-${i % WARMUP}`, "GET"), 200);
    servers.push({ label, child, coll, creates: [], gets: [], etcdCreates: [], etcdGets: [], mainCreates: [], mainGets: [], rateCreates: [], rateGets: [] });
  }
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? servers : [...servers].reverse();
    for (const s of order) {
      if (s.child.exitCode !== null) throw new Error(`${s.label} exited`);
      const pid = s.child.pid!;
      let c0 = cpuMs(pid);
      let m0 = cpuMs(pid, true);
      let e0 = cpuMs(etcd.pid!);
      let t0 = performance.now();
      await load(CREATES, CONCURRENCY, (i) => call(s.coll, "POST", cronTab(`r${round}`, i)), 201);
      s.rateCreates.push((CREATES * 1000) / (performance.now() - t0));
      s.creates.push((cpuMs(pid) - c0) / CREATES);
      s.mainCreates.push((cpuMs(pid, true) - m0) / CREATES);
      s.etcdCreates.push((cpuMs(etcd.pid!) - e0) / CREATES);
      c0 = cpuMs(pid);
      m0 = cpuMs(pid, true);
      e0 = cpuMs(etcd.pid!);
      t0 = performance.now();
      await load(GETS, CONCURRENCY, (i) => call(`${s.coll}/r${round}-${i % CREATES}`, "GET"), 200);
      s.rateGets.push((GETS * 1000) / (performance.now() - t0));
      s.gets.push((cpuMs(pid) - c0) / GETS);
      s.mainGets.push((cpuMs(pid, true) - m0) / GETS);
      s.etcdGets.push((cpuMs(etcd.pid!) - e0) / GETS);
    }
  }
} finally {
  agent.destroy();
  for (const s of servers) s.child.kill("SIGTERM");
  await etcd.cleanup();
  rmSync(dir, { recursive: true, force: true });
}

const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const row = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(" ");
const lines = [`server CPU ms per request, ${ROUNDS} rounds of ${CREATES} creates then ${GETS} gets, ${CONCURRENCY} in flight, HTTPS, etcd`, ...runs];
for (const s of servers) {
  lines.push(`${s.label.padEnd(9)} create ${row(s.creates)} | median ${med(s.creates).toFixed(3)} (main thread ${med(s.mainCreates).toFixed(3)}, etcd ${med(s.etcdCreates).toFixed(3)}; ${med(s.rateCreates).toFixed(0)}/s)`);
  lines.push(`${s.label.padEnd(9)} get    ${row(s.gets)} | median ${med(s.gets).toFixed(3)} (main thread ${med(s.mainGets).toFixed(3)}, etcd ${med(s.etcdGets).toFixed(3)}; ${med(s.rateGets).toFixed(0)}/s)`);
}
const [a, b] = servers;
if (a && b) {
  const paired = (x: number[], y: number[]) => med(x.map((v, i) => v / y[i]!));
  lines.push(`crdkit / baseline, median of paired rounds: create ${paired(a.creates, b.creates).toFixed(3)}, get ${paired(a.gets, b.gets).toFixed(3)}`);
  lines.push(`  main thread: create ${paired(a.mainCreates, b.mainCreates).toFixed(3)}, get ${paired(a.mainGets, b.mainGets).toFixed(3)}; requests/s: create ${paired(a.rateCreates, b.rateCreates).toFixed(3)}, get ${paired(a.rateGets, b.rateGets).toFixed(3)}`);
}
process.stdout.write(`${lines.join("\n")}\n`);
