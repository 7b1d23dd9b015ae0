/**
 * What the etcd store costs the server's main thread, and the whole process, per create and get, without
 * HTTP: `EtcdStore` of a built tree (dist/) against one etcd, 16 operations in flight (creates of a small
 * CronTab's bytes, then gets of them from the watch cache with their batched revision reads), each tree in a
 * child process of its own, `--rounds` times, the trees alternating (A/B/A/B; with more trees, rotated). Prints per round and as medians
 * the CPU ms per operation of the main thread (/proc/self/task/PID) and of the whole process (all threads:
 * GC, libuv, any thread of the etcd client), and operations per second. Written for session 28's etcd client on a
 * worker thread (branch etcdthread, c4e4279: main thread per create 0.34 -> 0.07 ms, process about the same). Build first (`npm run build`).
 *
 *   node --import tsx bench/serve/etcd-store-cpu.bench.ts --baseline=DIR[,DIR2...] [--rounds=6] [--creates=3000] [--gets=12000]
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { EtcdProcess } from "../../test/storage/etcd-process.js";

const arg = (name: string, d: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? d;
const baseline = arg("baseline", "");
if (baseline === "") throw new Error("--baseline=DIR is required");
const ROUNDS = Number(arg("rounds", "6"));
const CREATES = arg("creates", "3000");
const GETS = arg("gets", "12000");

/** One measurement in a child process (a plain JavaScript module, no tsx); argv: root, etcd URL, prefix, creates, gets. */
const CHILD = `
const [root, url, prefix, creates, gets] = process.argv.slice(2);
const { readFileSync } = await import("node:fs");
const { EtcdStore } = await import(root + "/dist/storage/etcd/etcd-store.js");
const ticks = (p) => { const f = readFileSync(p, "utf8").split(") ")[1].split(" "); return (Number(f[11]) + Number(f[12])) * 10; };
const main = () => ticks("/proc/self/task/" + process.pid + "/stat");
const proc = () => ticks("/proc/self/stat");
const store = new EtcdStore({ servers: [url], prefix, compactionIntervalMs: 0 });
const value = JSON.stringify({ apiVersion: "stable.example.com/v1", kind: "CronTab", metadata: { name: "x", namespace: "default" }, spec: { cronSpec: "* * * * */5", image: "my-awesome-cron-image", replicas: 1 } });
const key = (r, i) => "/registry/stable.example.com/crontabs/default/" + r + "-" + i;
const load = async (n, one) => {
  let next = 0;
  await Promise.all(Array.from({ length: 16 }, async () => { while (next < n) await one(next++); }));
};
const measure = async (n, one) => {
  const m0 = main(), p0 = proc(), t0 = performance.now();
  await load(n, one);
  const secs = (performance.now() - t0) / 1000;
  return { main: (main() - m0) / n, proc: (proc() - p0) / n, perSec: n / secs };
};
await load(2000, (i) => store.create(key("w", i), value));
await load(8000, async (i) => { if (!(await store.get(key("w", i % 2000)))) throw new Error("missing"); });
const c = await measure(Number(creates), (i) => store.create(key("m", i), value));
const g = await measure(Number(gets), async (i) => { if (!(await store.get(key("m", i % Number(creates))))) throw new Error("missing"); });
await store.close();
process.stdout.write(JSON.stringify({ c, g }));
`;

const trees: (readonly [string, string])[] = [
  ["crdkit", resolve(import.meta.dirname, "..", "..")],
  ...baseline.split(",").map((d, i) => [i === 0 ? "baseline" : `baseline${i + 1}`, resolve(d)] as const),
];
type Run = { c: { main: number; proc: number; perSec: number }; g: { main: number; proc: number; perSec: number } };
const results = new Map<string, Run[]>(trees.map(([l]) => [l, []]));
const dir = mkdtempSync(join(tmpdir(), "crdkit-etcd-store-cpu-"));
const child = join(dir, "child.mjs");
writeFileSync(child, CHILD);
const etcd = await EtcdProcess.start();
try {
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [...trees] : [...trees].reverse();
    if (trees.length > 2) order.push(...order.splice(0, round % trees.length));
    for (const [label, root] of order) {
      const out = execFileSync(process.execPath, [child, root, etcd.url, `/b${round}-${label}`, CREATES, GETS], { encoding: "utf8", timeout: 600_000 });
      const r = JSON.parse(out) as Run;
      results.get(label)!.push(r);
      process.stderr.write(`round ${round} ${label}: ${out}\n`);
    }
  }
} finally {
  await etcd.cleanup();
  rmSync(dir, { recursive: true, force: true });
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const lines = [`EtcdStore in-process, 16 in flight, ${ROUNDS} rounds of ${CREATES} creates then ${GETS} gets: CPU ms per operation (main thread / process), operations/s`];
for (const [label] of trees) {
  const rs = results.get(label)!;
  const f = (k: "c" | "g") =>
    `main ${med(rs.map((r) => r[k].main)).toFixed(3)} / process ${med(rs.map((r) => r[k].proc)).toFixed(3)}, ${med(rs.map((r) => r[k].perSec)).toFixed(0)}/s`;
  lines.push(`${label.padEnd(9)} create ${f("c")} | get ${f("g")}`);
}
process.stdout.write(`${lines.join("\n")}\n`);
