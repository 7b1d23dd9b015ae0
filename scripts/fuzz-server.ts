/**
 * Differential fuzzer of `crdkit serve` against the real apiextensions-apiserver (tools/k8s-server-oracle on
 * etcd; see test/server-diff/oracle.ts):
 *
 *   npm run fuzz:server -- --seed 1 --count 300 [--step N] [--sqlite] [--quiet] [--full]
 *
 * Installs a few CRDs on both servers, then sends both the same seeded random requests
 * (test/server-diff/fuzz/generate.ts) and compares the normalised answers as the server differential suite
 * does (test/server-diff/runner.ts). Prints each step whose answers differ (the request and both answers),
 * then a summary grouped by signature (test/server-diff/fuzz/signature.ts). `--step N` runs steps 1..N and
 * prints step N only (whether it differs or not). Needs `K8S_SERVER_ORACLE_BIN` (or Go) and
 * `K8S_SERVER_ORACLE_ETCD` (or `etcd` on the PATH), as `npm run golden:server`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "../src/server/server.js";
import { generatePlan } from "../test/server-diff/fuzz/generate.js";
import { byChance } from "../test/server-diff/fuzz/by-chance.js";
import { cutText, showAnswer } from "../test/server-diff/fuzz/show-answer.js";
import { signature } from "../test/server-diff/fuzz/signature.js";
import { oracleBinary, startOracleCluster } from "../test/server-diff/oracle.js";
import { runSequence, type HttpStep, type Sequence, type StepResult, type Target } from "../test/server-diff/runner.js";
import { intFlag } from "./fuzz-flags.js";

const seed = intFlag("seed", 1);
const only = intFlag("step", 0);
const count = only > 0 ? only : intFlag("count", 100);
const quiet = process.argv.includes("--quiet");
const full = process.argv.includes("--full");
const sqlite = process.argv.includes("--sqlite");

const plan = generatePlan(seed, count);
const requests: HttpStep[] = plan.steps.flatMap((s) => s.requests);
const seq: Sequence = { description: `fuzz:server --seed ${seed}`, garbageCollectorController: false, steps: [...plan.setup.filter((s) => !("method" in s)), ...requests] };

const cut = (s: string): string => cutText(s, full);
const show = (r: StepResult | undefined): string => showAnswer(r, full);

const dataDir = sqlite ? mkdtempSync(join(tmpdir(), "crdkit-fuzz-server-")) : undefined;
const cluster = await startOracleCluster(oracleBinary());
const crdkit = await startServer({ port: 0, garbageCollectorController: false, logRequests: false, ...(dataDir ? { dataDir } : {}) });
let oracleStop: (() => Promise<void>) | undefined;
let want: StepResult[];
let got: StepResult[];
try {
  const oracle = await cluster.startOracle(`99-fuzz-${seed}-${Date.now()}`);
  oracleStop = oracle.stop;
  // The CRDs first: when either server refuses one, say why (the random steps would mean nothing).
  const setup: Sequence = { description: "setup", steps: plan.setup.filter((s) => "method" in s) };
  const targets: [string, Target][] = [["kubernetes", oracle.target], ["crdkit", { url: crdkit.url, kubectlFlags: [] }]];
  for (const [who, target] of targets) {
    const answers = await runSequence(target, setup);
    const bad = answers.find((a) => !("status" in a) || a.status !== 201);
    if (bad) throw new Error(`${who} refused a CRD of the setup: ${JSON.stringify(bad).slice(0, 2000)}`);
  }
  [want, got] = await Promise.all([runSequence(oracle.target, seq), runSequence({ url: crdkit.url, kubectlFlags: [] }, seq)]);
} finally {
  await oracleStop?.();
  await cluster.close();
  await crdkit.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}

// Results: one per request of the steps, in order.
const all: HttpStep[] = requests;
const stepOf = (name: string) => Number(/^#(\d+)/.exec(name)?.[1] ?? "0");
const groups = new Map<string, { count: number; example: number }>();
const differing = new Set<number>();
for (let i = 0; i < all.length; i++) {
  const req = all[i]!;
  const w = want[i];
  const g = got[i];
  const n = stepOf(req.name ?? "");
  if (only > 0 && n !== only) continue;
  const same = byChance(req, w) === byChance(req, g);
  if (same && only === 0) continue;
  if (!same) {
    differing.add(n);
    const sig = signature(req, w, g);
    const e = groups.get(sig);
    if (e) e.count++;
    else groups.set(sig, { count: 1, example: n });
  }
  if (quiet && only === 0) continue;
  const body = req.raw !== undefined ? req.raw : req.body !== undefined ? JSON.stringify(req.body) : "";
  process.stdout.write(`\n=== ${same ? "same" : "DIFFERS"}: ${req.name}\n`);
  process.stdout.write(`request: ${req.method} ${req.path}${req.contentType !== undefined ? ` (Content-Type: ${JSON.stringify(req.contentType)})` : ""}${req.headers ? ` ${JSON.stringify(req.headers)}` : ""}\n`);
  if (body) process.stdout.write(`body: ${cut(body)}\n`);
  process.stdout.write(`kubernetes: ${show(w)}\ncrdkit:     ${show(g)}\n`);
}

process.stdout.write(`\nfuzz:server --seed ${seed}: ${plan.steps.length} steps (${all.length} requests), ${differing.size} differ, ${groups.size} signatures\n`);
for (const [sig, { count: c, example }] of [...groups].sort((a, b) => b[1].count - a[1].count || (a[0] < b[0] ? -1 : 1))) {
  process.stdout.write(`${String(c).padStart(5)}  ${sig}  (e.g. --seed ${seed} --step ${example})\n`);
}
