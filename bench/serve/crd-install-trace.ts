/**
 * Where the time of installing CRDs one by one on etcd goes: the server runs in this process on an etcd of its
 * own (plain HTTP), a worker thread installs N CRDs as etcd-vs-k8s.bench.ts's `--crds` phase does (POST, then
 * GETs until Established), and every etcd call and watch response of the server is time-stamped. Prints the
 * CPU per CRD of this process and of etcd, and per CRD (medians): the etcd calls by kind, their durations, the gaps of the sequential chain between the client's
 * POST and its seeing `Established`, and etcd's own WAL fsync and backend commit times (its /metrics).
 *
 *   node --import tsx bench/serve/crd-install-trace.ts [--crds=300] [--built | --tree=/path/to/other/checkout]
 */
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import type { startServer as StartServer } from "../../src/server/server.js";
import type { EtcdStore as EtcdStoreClass } from "../../src/storage/etcd/etcd-store.js";
import { EtcdProcess } from "../../test/storage/etcd-process.js";

const arg = (name: string, d: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? d;
const N = Number(arg("crds", "300"));
const now = () => performance.timeOrigin + performance.now();

const loader = `
const { parentPort } = require("node:worker_threads");
const { performance } = require("node:perf_hooks");
const http = require("node:http");
const now = () => performance.timeOrigin + performance.now();
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
function call(url, method, body) {
  return new Promise((done, fail) => {
    const req = http.request(url, { method, agent, headers: body ? { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) } : {} }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (text += d));
      res.on("end", () => done({ status: res.statusCode, text }));
    });
    req.on("error", fail);
    req.end(body);
  });
}
const crd = (i) => JSON.stringify({ apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", metadata: { name: "things" + i + ".bench" + i + ".example.com" },
  spec: { group: "bench" + i + ".example.com", scope: "Namespaced", names: { plural: "things" + i, kind: "Thing" + i },
    versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object", properties: { spec: { type: "object", properties: { size: { type: "integer", minimum: 0 }, name: { type: "string", maxLength: 64 } } } } } } }] } });
const established = (t) => ((JSON.parse(t).status || {}).conditions || []).some((c) => c.type === "Established" && c.status === "True");
parentPort.on("message", async ({ url, from, n }) => {
  const out = [];
  for (let i = from; i < from + n; i++) {
    const t0 = now();
    const st = await call(url, "POST", crd(i));
    const t1 = now();
    if (st.status !== 201) throw new Error("HTTP " + st.status + " " + st.text);
    let gets = 0;
    for (;;) {
      gets++;
      const r = await call(url + "/things" + i + ".bench" + i + ".example.com", "GET");
      if (r.status === 200 && established(r.text)) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    out.push({ t0, t1, t2: now(), gets });
  }
  parentPort.postMessage(out);
});
`;

interface Call {
  kind: string;
  start: number;
  end: number;
}

/** CPU ms (user + system) of a process so far (etcd's). */
function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
}

const etcd = await EtcdProcess.start();
const metric = async (names: string[]): Promise<Map<string, number>> => {
  const text = await (await fetch(`${etcd.url}/metrics`)).text();
  const m = new Map<string, number>();
  for (const line of text.split("\n")) {
    for (const n of names) {
      if (line.startsWith(n)) {
        const [k, v] = [line.slice(0, line.lastIndexOf(" ")), Number(line.slice(line.lastIndexOf(" ") + 1))];
        m.set(k, v);
      }
    }
  }
  return m;
};
// --tree=DIR: the built server of another checkout (e.g. a baseline build), else this one's dist/ (--built) or src/.
const tree = arg("tree", "");
const from = tree ? `${tree.replace(/\/$/, "")}/dist` : process.argv.includes("--built") ? "../../dist" : "../../src";
const { startServer } = (await import(`${from}/server/server.js`)) as { startServer: typeof StartServer };
const { EtcdStore } = (await import(`${from}/storage/etcd/etcd-store.js`)) as { EtcdStore: typeof EtcdStoreClass };
const store = new EtcdStore({ servers: [etcd.url] });
const calls: Call[] = [];
const watchSeen: number[] = [];
// Every unary call and every watch response of the server's etcd client, time-stamped.
const client = store.client as unknown as Record<string, unknown>;
const unary = client["unary"] as (m: { path: string }, req: unknown, ...rest: unknown[]) => Promise<unknown>;
client["unary"] = async function (this: unknown, m: { path: string }, req: Record<string, unknown>, ...rest: unknown[]) {
  const start = now();
  const kind = m.path.endsWith("/Txn") ? (Array.isArray(req["success"]) && (req["success"] as { request_range?: unknown }[]).every((o) => o.request_range) ? "read Txn" : "write Txn") : (m.path.split("/").pop() ?? m.path);
  try {
    return await unary.call(this, m, req, ...rest);
  } finally {
    calls.push({ kind, start, end: now() });
  }
};
const watchStream = store.client.watchStream.bind(store.client);
store.client.watchStream = () => {
  const s = watchStream();
  s.on("data", () => watchSeen.push(now()));
  return s;
};
const server = await startServer({ store, ui: false });
const worker = new Worker(loader, { eval: true });
const install = (from: number, n: number) =>
  new Promise<{ t0: number; t1: number; t2: number; gets: number }[]>((done, fail) => {
    worker.once("message", done);
    worker.once("error", fail);
    worker.postMessage({ url: `${server.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, from, n });
  });
const names = ["etcd_disk_wal_fsync_duration_seconds_sum", "etcd_disk_wal_fsync_duration_seconds_count", "etcd_disk_backend_commit_duration_seconds_sum", "etcd_disk_backend_commit_duration_seconds_count", "grpc_server_handled_total", "etcd_server_proposals_committed_total"];
try {
  await install(100000, 20); // warm-up
  calls.length = 0;
  watchSeen.length = 0;
  const m0 = await metric(names);
  const c0 = process.cpuUsage();
  const e0 = cpuMs(etcd.pid);
  const w0 = now();
  const rows = await install(1, N);
  const wall = now() - w0;
  const cpu = process.cpuUsage(c0);
  const etcdCpu = cpuMs(etcd.pid) - e0;
  const m1 = await metric(names);
  const med = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]! : Number.NaN);
  const f = (x: number) => x.toFixed(3);
  console.log(`${N} CRDs in ${(wall / 1000).toFixed(2)} s wall (${f(wall / N)} ms per CRD), process CPU ${((cpu.user + cpu.system) / 1000 / N).toFixed(2)} ms per CRD (server + client thread), etcd CPU ${(etcdCpu / N).toFixed(2)} ms per CRD`);
  const perCrd = new Map<string, number>();
  for (const c of calls) perCrd.set(c.kind, (perCrd.get(c.kind) ?? 0) + 1);
  console.log(`etcd calls per CRD: ${[...perCrd].map(([k, v]) => `${k} ${(v / N).toFixed(2)}`).join(", ")}; watch responses per CRD ${(watchSeen.length / N).toFixed(2)}; GETs per CRD ${(rows.reduce((a, r) => a + r.gets, 0) / N).toFixed(2)}`);
  for (const kind of perCrd.keys()) console.log(`  ${kind}: median ${f(med(calls.filter((c) => c.kind === kind).map((c) => c.end - c.start)))} ms`);
  // The chain of one CRD: the calls and watch responses inside its [POST sent, Established seen] window.
  const post: number[] = [];
  const getPhase: number[] = [];
  const gapRows: Record<string, number[]> = {};
  const add = (k: string, v: number) => (gapRows[k] ??= []).push(v);
  let ci = 0;
  let wi = 0;
  const inFlight: number[] = [];
  for (const r of rows) {
    post.push(r.t1 - r.t0);
    getPhase.push(r.t2 - r.t1);
    while (ci < calls.length && calls[ci]!.start < r.t0) ci++;
    const mine: Call[] = [];
    while (ci < calls.length && calls[ci]!.start < r.t2) mine.push(calls[ci++]!);
    while (wi < watchSeen.length && watchSeen[wi]! < r.t0) wi++;
    const seen: number[] = [];
    while (wi < watchSeen.length && watchSeen[wi]! < r.t2) seen.push(watchSeen[wi++]!);
    // Named milestones: the first write Txn is the create, the second the status write, the Range the GET's read.
    const writes = mine.filter((c) => c.kind === "write Txn");
    const range = mine.find((c) => c.kind === "Range");
    const marks: [string, number | undefined][] = [
      ["create Txn sent", writes[0]?.start],
      ["create Txn answered", writes[0]?.end],
      ["status Txn sent", writes[1]?.start],
      ["status Txn answered", writes[1]?.end],
      ["POST answered", r.t1],
      ["GET's Range sent", range?.start],
      ["GET's Range answered", range?.end],
      ["Established seen", r.t2],
      ["1st watch response", seen[0]],
      ["2nd watch response", seen[1]],
    ];
    const known = marks.filter((m): m is [string, number] => m[1] !== undefined).sort((a, b) => a[1] - b[1]);
    let prev: [string, number] = ["POST sent", r.t0];
    for (const m of known) {
      add(`${prev[0]} -> ${m[0]}`, m[1] - prev[1]);
      prev = m;
    }
    add(`(watch responses in the window)`, seen.length);
    // How long at least one etcd call was in flight (calls in sequence add up, overlapping ones do not).
    let busy = 0;
    let until = 0;
    for (const c of [...mine].sort((a, b) => a.start - b.start)) {
      const from = Math.max(c.start, until);
      if (c.end > from) busy += c.end - from;
      until = Math.max(until, c.end);
    }
    inFlight.push(busy);
  }
  console.log(`client: POST ${f(med(post))} ms, POST answered -> Established seen ${f(med(getPhase))} ms, etcd calls in flight ${f(med(inFlight))} ms of it (medians)`);
  console.log("sequential chain (median gap, and how many CRDs had that step, most frequent first):");
  for (const k of Object.keys(gapRows).sort((a, b) => gapRows[b]!.length - gapRows[a]!.length)) console.log(`  ${k.padEnd(60)} ${f(med(gapRows[k]!))} ms  (${gapRows[k]!.length})`);
  const d = (n: string) => (m1.get(n) ?? 0) - (m0.get(n) ?? 0);
  const fs = d("etcd_disk_wal_fsync_duration_seconds_count");
  const bc = d("etcd_disk_backend_commit_duration_seconds_count");
  console.log(`etcd: ${(fs / N).toFixed(2)} WAL fsyncs per CRD, mean ${((d("etcd_disk_wal_fsync_duration_seconds_sum") / fs) * 1000).toFixed(3)} ms; ${(bc / N).toFixed(2)} backend commits per CRD, mean ${((d("etcd_disk_backend_commit_duration_seconds_sum") / bc) * 1000).toFixed(3)} ms; proposals ${(d("etcd_server_proposals_committed_total") / N).toFixed(2)} per CRD`);
  for (const [k] of m1) if (k.startsWith("grpc_server_handled_total") && d(k) > 0) console.log(`  ${k.replace("grpc_server_handled_total", "")}: ${(d(k) / N).toFixed(2)} per CRD`);
} finally {
  await worker.terminate();
  await server.close();
  await etcd.cleanup();
}
