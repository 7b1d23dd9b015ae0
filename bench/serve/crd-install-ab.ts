/**
 * Installing N CRDs one by one (as etcd-vs-k8s.bench.ts's `--crds` phase: POST, then GETs until Established) into
 * `crdkit serve` processes of two built trees on one etcd (or on SQLite), interleaved A/B/B/A, plain HTTP: wall
 * seconds, and CPU seconds of the server (main thread and V8's helper threads apart: concurrent TurboFan
 * compilation and GC), of etcd and of this process (the load generator), medians over the rounds.
 *
 *   node --import tsx bench/serve/crd-install-ab.ts --baseline=/work/base28 [--crds=1000] [--rounds=4]
 *     [--store=etcd|sqlite] [--node-args="--trace-opt"]   (the server's stdout goes to a file named in the output)
 *     [--wrap="valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.%p"]   (a command the server runs under; with
 *     valgrind add --node-args=--single-threaded: instructions are a count the machine's load does not move)
 *     [--tls=CERT,KEY]   (HTTPS with that certificate and key, as etcd-vs-k8s.bench.ts measures; default plain HTTP)
 *     [--this-args="--disable-http2-serving"] [--baseline-args=...]   (more `serve` arguments for one side; with
 *     --baseline=. both sides are this tree, e.g. to measure a flag)
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { EtcdProcess } from "../../test/storage/etcd-process.js";
import { established, installCrd } from "./install-crd.js";

const arg = (name: string, d: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? d;
const N = Number(arg("crds", "1000"));
const ROUNDS = Number(arg("rounds", "4"));
const STORE = arg("store", "etcd");
const nodeArgs = arg("node-args", "").split(" ").filter(Boolean);
const wrap = arg("wrap", "").split(" ").filter(Boolean);
const trees: [string, string][] = [["this", resolve(import.meta.dirname, "..", "..")], ["baseline", resolve(arg("baseline", "/work/base28"))]];
const sideArgs = new Map([["this", arg("this-args", "").split(" ").filter(Boolean)], ["baseline", arg("baseline-args", "").split(" ").filter(Boolean)]]);
const tls = arg("tls", "") ? arg("tls", "").split(",") : undefined;
const tlsArgs = tls ? ["--tls-cert-file", tls[0]!, "--tls-private-key-file", tls[1]!] : [];

/** CPU ms (user + system) of each thread of `pid`, by thread id. */
function threadsCpu(pid: number): Map<number, { name: string; ms: number }> {
  const out = new Map<number, { name: string; ms: number }>();
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    try {
      const text = readFileSync(`/proc/${pid}/task/${t}/stat`, "utf8");
      const f = text.slice(text.lastIndexOf(") ") + 2).split(" ");
      out.set(Number(t), { name: text.slice(text.indexOf("(") + 1, text.lastIndexOf(")")), ms: ((Number(f[11]) + Number(f[12])) * 1000) / 100 });
    } catch {
      // gone
    }
  }
  return out;
}

function processCpu(pid: number | undefined): number {
  if (pid === undefined) return 0;
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
}

function call(port: number, method: string, path: string, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((done, fail) => {
    const req = (tls ? httpsRequest : request)({ host: "127.0.0.1", port, method, path, agent, headers: body ? { "content-type": "application/json", "content-length": Buffer.byteLength(body) } : {} }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () => done({ status: res.statusCode ?? 0, text }));
      res.on("error", fail);
    });
    req.on("error", fail);
    req.end(body);
  });
}
const agent = tls ? new HttpsAgent({ keepAlive: true, maxSockets: 1, rejectUnauthorized: false }) : new Agent({ keepAlive: true, maxSockets: 1 });
/** GET requests sent while waiting for Established, per side (one per install when the POST's answer came after it). */
const gets = new Map<string, number>();

async function startServer(root: string, args: string[], out: string): Promise<{ child: ChildProcess; port: number }> {
  const { createServer } = await import("node:net");
  const port = await new Promise<number>((r) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => r(p));
    });
  });
  const fd = openSync(out, "w");
  const command = [...wrap, process.execPath, ...nodeArgs, join(root, "bin", "crdkit.js"), "serve", "--quiet", "--no-ui", "--listen", `127.0.0.1:${port}`, ...tlsArgs, ...args];
  const child = spawn(command[0]!, command.slice(1), { stdio: ["ignore", fd, fd] });
  for (let i = 0; i < 3000; i++) {
    if (child.exitCode !== null) throw new Error(`server exited: ${readFileSync(out, "utf8").slice(0, 2000)}`);
    try {
      if ((await call(port, "GET", "/readyz")).status === 200) return { child, port };
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill("SIGKILL");
  throw new Error("server did not start");
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((r) => {
    child.once("exit", () => r());
    child.kill("SIGTERM");
  });
}

const etcd = STORE === "etcd" ? await EtcdProcess.start() : undefined;
const dir = mkdtempSync(join(tmpdir(), "crdkit-install-ab-"));
const rows = new Map<string, { wall: number[]; main: number[]; helpers: number[]; etcd: number[]; client: number[]; tenths: number[][] }>();
const children = new Set<ChildProcess>();
try {
  let n = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    const order = round % 2 === 1 ? trees : [...trees].reverse();
    for (const [label, root] of order) {
      const out = join(dir, `server-${label}-${round}.out`);
      const storeArgs = etcd ? ["--etcd-servers", etcd.url, "--etcd-prefix", `/install-ab-${n++}`] : ["--data", join(dir, `data-${n++}`)];
      const { child, port } = await startServer(root, [...storeArgs, ...(sideArgs.get(label) ?? [])], out);
      children.add(child);
      try {
        const pid = child.pid!;
        const main = () => threadsCpu(pid).get(pid)?.ms ?? 0;
        const all = () => [...threadsCpu(pid).values()].reduce((a, t) => a + t.ms, 0);
        const m0 = main();
        const a0 = all();
        const e0 = processCpu(etcd?.pid);
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        const tenths: number[] = [];
        let tenthFrom = m0;
        const tenth = Math.max(1, Math.floor(N / 10));
        for (let i = 1; i <= N; i++) {
          const st = await call(port, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", JSON.stringify(installCrd(i)));
          if (st.status !== 201) throw new Error(`CRD ${i}: HTTP ${st.status} ${st.text.slice(0, 300)}`);
          for (let tries = 0; ; tries++) {
            const r = await call(port, "GET", `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/things${i}.bench${i}.example.com`);
            gets.set(label, (gets.get(label) ?? 0) + 1);
            if (r.status === 200 && established(r.text)) break;
            if (tries > 500) throw new Error(`CRD ${i} not Established`);
            await new Promise((r) => setTimeout(r, 5));
          }
          if (i % tenth === 0) {
            const now = main();
            tenths.push((now - tenthFrom) / tenth);
            tenthFrom = now;
          }
        }
        const wall = (performance.now() - t0) / 1000;
        const c = process.cpuUsage(c0);
        const m = (main() - m0) / 1000;
        const h = (all() - a0) / 1000 - m;
        const row = rows.get(label) ?? { wall: [], main: [], helpers: [], etcd: [], client: [], tenths: [] };
        rows.set(label, row);
        row.wall.push(wall);
        row.main.push(m);
        row.helpers.push(h);
        row.etcd.push((processCpu(etcd?.pid) - e0) / 1000);
        row.client.push((c.user + c.system) / 1e6);
        row.tenths.push(tenths);
        console.log(
          `round ${round} ${label.padEnd(8)} wall ${wall.toFixed(2)} s, server main ${m.toFixed(2)} s + helpers ${h.toFixed(2)} s, etcd ${row.etcd.at(-1)!.toFixed(2)} s, client ${row.client.at(-1)!.toFixed(2)} s; main ms/CRD by tenth ${tenths.map((x) => x.toFixed(1)).join(" ")}  (${out})`,
        );
      } finally {
        await stop(child);
        children.delete(child);
      }
    }
  }
} finally {
  for (const c of children) c.kill("SIGKILL");
  agent.destroy();
  await etcd?.cleanup();
  if (nodeArgs.length === 0) rmSync(dir, { recursive: true, force: true });
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`medians over ${ROUNDS} rounds, ${N} CRDs on ${STORE}:`);
for (const [label, r] of rows) {
  console.log(
    `  ${label.padEnd(8)} wall ${med(r.wall).toFixed(2)} s, server main ${med(r.main).toFixed(2)} s, helpers ${med(r.helpers).toFixed(2)} s, total ${med(r.main.map((m, i) => m + r.helpers[i]!)).toFixed(2)} s, etcd ${med(r.etcd).toFixed(2)} s, client ${med(r.client).toFixed(2)} s, GETs per install ${((gets.get(label) ?? 0) / (N * ROUNDS)).toFixed(2)}`,
  );
}
