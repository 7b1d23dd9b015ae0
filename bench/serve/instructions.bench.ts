/**
 * Instructions (valgrind Ir) of the server process per request, which a loaded machine does not change: each
 * tree's `crdkit serve` (plain HTTP on loopback, in memory or on one etcd) runs under `valgrind --tool=callgrind`
 * with `node --single-threaded` and fixed hash/random seeds (GC and V8's compilers on the main thread, counted);
 * after `--warmup` creates and 2x as many GETs of the benches' small CronTab, the counters are zeroed
 * (`callgrind_control -z`), `--n` creates or GETs are sent (`--concurrency` in flight), and the counters are
 * dumped (`callgrind_control -d`): Ir per request of that phase, in total and without V8's GC and optimizing
 * compilers (classified by function name with callgrind_annotate; they come in bursts, the rest is steady). Phases alternate create/get `--reps` times;
 * the trees run one after the other (instruction counts need no interleaving). Each tree runs its built CLI
 * (`npm run build` first). Prints every phase and the medians. ~2-4 min per tree with the defaults.
 *
 *   node --import tsx bench/serve/instructions.bench.ts [--store=memory|etcd] [--warmup=1500] [--n=300] [--reps=3] [--concurrency=4] [--keep] ROOT...
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { EtcdProcess } from "../../test/storage/etcd-process.js";
import { CRONTAB_CRD, cronTab } from "./crontab-fixture.js";
import { caller, freePort, load } from "./load-loop.js";

const arg = (name: string, d: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? d;
const roots = process.argv.slice(2).filter((a) => !a.startsWith("--"));
if (roots.length === 0) roots.push(resolve(import.meta.dirname, "..", ".."));
const STORE = arg("store", "memory");
const WARMUP = Number(arg("warmup", "1500"));
const N = Number(arg("n", "300"));
const REPS = Number(arg("reps", "3"));
const CONCURRENCY = Number(arg("concurrency", "4"));
/** keep the callgrind dumps (`cg.<pid>.out.<n>`: create, get, create, ... per tree) for callgrind_annotate */
const KEEP = process.argv.includes("--keep");
const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

const call = caller(request, agent);

interface Split {
  total: number;
  /** V8's garbage collector (scavenges, incremental and full marking, sweeping, evacuation) */
  gc: number;
  /** V8's optimizing compilers (TurboFan, Maglev) */
  compile: number;
}
const GC = /Heap::|Heap\(|Scaveng|Marking|MarkCompact|Sweep|Evacuat|Worklist|Compactor|RememberedSet|SlotSet|BodyDescriptor|RootVisitor|IterateObjectCache|ObjectStats|Mark(ing)?Visitor|ShouldBePromoted|ConcurrentMarking|MemoryAllocator|FreeList|PagedSpace|SemiSpace|NewSpace|LargeObjectSpace|ArrayBufferSweeper|GCTracer|heap::base::/;
const COMPILE = /v8::internal::compiler::|v8::internal::maglev::|Zone::|ZoneList|Turbofan|OptimizedCompilationInfo|Compiler::CompileOptimized|PipelineCompilationJob|RegisterAllocat|InstructionSelector|CodeGenerator|Assembler::/;

/** Total Ir of the newest dump of `pid` in `dir`, and the parts spent in GC and in V8's optimizing compilers (by function names). */
function dumped(dir: string, pid: number, before: Set<string>): Split {
  const files = readdirSync(dir).filter((f) => f.startsWith(`cg.${pid}.out.`) && !before.has(f));
  if (files.length !== 1) throw new Error(`expected one new dump of ${pid}, found ${files.join(", ")}`);
  before.add(files[0]!);
  const file = join(dir, files[0]!);
  const m = /^summary: (\d+)$/m.exec(readFileSync(file, "utf8"));
  if (!m) throw new Error(`no summary in ${files[0]}`);
  const split: Split = { total: Number(m[1]), gc: 0, compile: 0 };
  const annotated = execFileSync("callgrind_annotate", ["--threshold=100", file], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  let listing = false;
  for (const line of annotated.split("\n")) {
    if (line.includes("file:function")) listing = true;
    const f = listing ? /^ *([\d,]+) \([ \d.]+%\) {2}(.*)$/.exec(line) : null;
    if (!f || f[2]!.includes("PROGRAM TOTALS")) continue;
    const ir = Number(f[1]!.replaceAll(",", ""));
    if (GC.test(f[2]!)) split.gc += ir;
    else if (COMPILE.test(f[2]!)) split.compile += ir;
  }
  return split;
}

const dir = mkdtempSync(join(tmpdir(), "crdkit-ir-"));
const etcd = STORE === "etcd" ? await EtcdProcess.start() : undefined;
const results: { root: string; create: Split[]; get: Split[] }[] = [];
let child: ChildProcess | undefined;
process.once("exit", () => child?.kill("SIGKILL"));
try {
  for (const [k, root] of roots.entries()) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const serveArgs = ["serve", "--quiet", "--no-ui", "--listen", `127.0.0.1:${port}`];
    if (etcd) serveArgs.push("--etcd-servers", etcd.url, "--etcd-prefix", `/ir-${k}`);
    const node = ["--single-threaded", "--hash-seed=1", "--random-seed=1", join(resolve(root), "bin", "crdkit.js")];
    child = spawn("valgrind", ["--tool=callgrind", `--callgrind-out-file=${dir}/cg.%p.out`, process.execPath, ...node, ...serveArgs], {
      cwd: resolve(root),
      stdio: ["ignore", "ignore", "ignore"],
    });
    for (let i = 0; ; i++) {
      if (i > 6000) throw new Error(`${root} did not start`);
      if (child.exitCode !== null) throw new Error(`${root} exited`);
      if ((await call(`${url}/readyz`, "GET").catch(() => 0)) === 200) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const pid = child.pid!;
    if ((await call(`${url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, "POST", CRONTAB_CRD)) !== 201) throw new Error("CRD create failed");
    const coll = `${url}/apis/stable.example.com/v1/namespaces/default/crontabs`;
    for (let i = 0; (await call(coll, "GET")) !== 200; i++) {
      if (i > 3000) throw new Error("the CRD is not served");
      await new Promise((r) => setTimeout(r, 100));
    }
    await load(WARMUP, CONCURRENCY, (i) => call(coll, "POST", cronTab("warm", i)), 201);
    await load(WARMUP * 2, CONCURRENCY, (i) => call(`${coll}/warm-${i % WARMUP}`, "GET"), 200);
    const seen = new Set<string>();
    const r = { root, create: [] as Split[], get: [] as Split[] };
    const control = (flag: string) => execFileSync("callgrind_control", [flag, String(pid)], { stdio: "pipe" });
    for (let rep = 0; rep < REPS; rep++) {
      control("-z");
      await load(N, CONCURRENCY, (i) => call(coll, "POST", cronTab(`r${rep}`, i)), 201);
      control("-d");
      r.create.push(dumped(dir, pid, seen));
      control("-z");
      await load(N, CONCURRENCY, (i) => call(`${coll}/r${rep}-${i}`, "GET"), 200);
      control("-d");
      r.get.push(dumped(dir, pid, seen));
    }
    results.push(r);
    child.kill("SIGKILL");
    child = undefined;
  }
} finally {
  agent.destroy();
  child?.kill("SIGKILL");
  await etcd?.cleanup();
  if (KEEP) console.log(`dumps kept in ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}

const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const k = (x: number) => `${(x / N / 1000).toFixed(1)}k`;
console.log(`server instructions per request (callgrind, ${STORE}, HTTP, ${CONCURRENCY} in flight, ${N} per phase after ${WARMUP} creates + ${WARMUP * 2} gets)`);
console.log("rest = total without V8's GC and optimizing compilers (which come in bursts: a phase with a full GC or many compiles costs 2x)");
for (const r of results) {
  console.log(r.root);
  for (const [phase, xs] of [["create", r.create], ["get", r.get]] as const) {
    const rest = xs.map((x) => x.total - x.gc - x.compile);
    console.log(
      `  ${phase.padEnd(6)} rest ${rest.map(k).join(" ")} | median ${k(med(rest))}; total ${xs.map((x) => k(x.total)).join(" ")}, gc ${xs.map((x) => k(x.gc)).join(" ")}, compile ${xs.map((x) => k(x.compile)).join(" ")}`,
    );
  }
}
