/**
 * Load generator for `crdkit serve` on loopback: creates/s, gets/s, lists of 1,000 objects (p50/p99
 * latency), and the time to install 1,000 generated CRDs one by one (per-100 batch times show whether
 * it stays linear). Uses a real database file (synchronous=FULL) unless BENCH_SYNC=NORMAL; `--etcd` runs
 * on a fresh local etcd (started by the bench), `--etcd-servers=URL` on an existing one.
 *
 *   node --import tsx bench/serve/serve.bench.ts [--quick] [--etcd | --etcd-servers=http://127.0.0.1:2379]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "../../src/server/server.js";
import { EtcdStore } from "../../src/storage/etcd/etcd-store.js";
import { EtcdProcess } from "../../test/storage/etcd-process.js";
import { installCrd } from "./install-crd.js";

const quick = process.argv.includes("--quick");
const CREATES = quick ? 300 : 1000;
const GETS = quick ? 1000 : 5000;
const LISTS = quick ? 5 : 20;
const CRDS = quick ? 200 : 1000;
const CONCURRENCY = 16;

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function timed(fn: () => Promise<Response>): Promise<number> {
  const t = performance.now();
  const r = await fn();
  await r.arrayBuffer();
  if (r.status >= 300) throw new Error(`HTTP ${r.status}`);
  return performance.now() - t;
}

/** Runs `n` requests with `conc` in flight; returns throughput and latency percentiles. */
async function load(n: number, conc: number, make: (i: number) => () => Promise<Response>) {
  const lat: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: conc }, async () => {
      while (next < n) lat.push(await timed(make(next++)));
    }),
  );
  const secs = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  return { perSec: n / secs, p50: pct(lat, 50), p99: pct(lat, 99) };
}

const json = (body: unknown) => ({ method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

const dir = mkdtempSync(join(tmpdir(), "crdkit-bench-"));
const sync = process.env["BENCH_SYNC"] === "NORMAL" ? "NORMAL" : "FULL";
const etcdServers = process.argv.find((a) => a.startsWith("--etcd-servers="))?.slice("--etcd-servers=".length);
const etcd = process.argv.includes("--etcd") && !etcdServers ? await EtcdProcess.start() : undefined;
const etcdUrl = etcdServers ?? etcd?.url;
const s = await startServer(
  etcdUrl ? { store: new EtcdStore({ servers: etcdUrl.split(","), prefix: `/bench-${Date.now()}` }) } : { dataDir: dir, synchronous: sync },
);
const base = s.url;
try {
  const r = await fetch(`${base}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, json(installCrd(0)));
  if (r.status !== 201) throw new Error(await r.text());
  const coll = `${base}/apis/bench0.example.com/v1/namespaces/default/things0`;
  const obj = (i: number) => ({ apiVersion: "bench0.example.com/v1", kind: "Thing0", metadata: { name: `t-${i}`, labels: { n: String(i % 10) } }, spec: { size: i, name: `thing ${i}` } });
  const creates = await load(CREATES, CONCURRENCY, (i) => () => fetch(coll, json(obj(i))));
  const gets = await load(GETS, CONCURRENCY, (i) => () => fetch(`${coll}/t-${i % CREATES}`));
  const lists = await load(LISTS, 1, () => () => fetch(`${coll}?limit=500`));
  const tables = await load(LISTS, 1, () => () =>
    fetch(coll, { headers: { Accept: "application/json;as=Table;v=v1;g=meta.k8s.io,application/json" } }));
  const batches: number[] = [];
  const cpuBatches: number[] = [];
  let t = performance.now();
  let cpu = process.cpuUsage();
  for (let i = 1; i <= CRDS; i++) {
    const res = await fetch(`${base}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, json(installCrd(i)));
    await res.arrayBuffer();
    if (res.status !== 201) throw new Error(`CRD ${i}: HTTP ${res.status}`);
    if (i % 100 === 0) {
      batches.push(performance.now() - t);
      const used = process.cpuUsage(cpu);
      cpuBatches.push((used.user + used.system) / 1000);
      t = performance.now();
      cpu = process.cpuUsage();
    }
  }
  const disc = await load(5, 1, () => () => fetch(`${base}/apis`));
  const f = (n: number) => n.toFixed(n < 10 ? 2 : 0);
  const out = [
    `crdkit serve bench (loopback, ${CONCURRENCY} in flight, ${etcdUrl ? `etcd at ${etcdUrl}` : `SQLite synchronous=${sync}`}, ${CREATES} objects)`,
    `create: ${f(creates.perSec)}/s  p50 ${f(creates.p50)} ms  p99 ${f(creates.p99)} ms`,
    `get:    ${f(gets.perSec)}/s  p50 ${f(gets.p50)} ms  p99 ${f(gets.p99)} ms`,
    `list (${CREATES} objects, JSON):  p50 ${f(lists.p50)} ms  p99 ${f(lists.p99)} ms`,
    `list (${CREATES} objects, Table): p50 ${f(tables.p50)} ms  p99 ${f(tables.p99)} ms`,
    `install ${CRDS} CRDs one by one: total ${f(batches.reduce((a, b) => a + b, 0))} ms; per 100: ${batches.map((b) => f(b)).join(", ")} ms`,
    `  CPU (server + client) per 100: ${cpuBatches.map((b) => f(b)).join(", ")} ms`,
    `GET /apis with ${CRDS + 1} groups: p50 ${f(disc.p50)} ms`,
  ];
  process.stdout.write(out.join("\n") + "\n");
} finally {
  await s.close();
  await etcd?.cleanup();
  rmSync(dir, { recursive: true, force: true });
}
