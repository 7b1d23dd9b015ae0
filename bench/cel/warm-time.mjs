/**
 * Time of a warm pass of CEL compilation over the corpus rules, and what the garbage collector takes of
 * it: PASSES passes (default 100) after WARM warm-up passes (default 30), each timed alone; prints the
 * wall time per pass (minimum and median), the process CPU time per pass (V8's helper threads, i.e.
 * concurrent TurboFan and parallel scavenges, included), and the collections per pass with their
 * main-thread pause (`performance` GC entries). Run it for crdkit and cel-js, interleaved, several times:
 *
 *   node bench/cel/warm-time.mjs ROOT MODE [WARM] [PASSES]     MODE: parse | check | compile | program | first-eval | cel-js | cel-js-eval | cel-js-parse
 *
 * ROOT is a checkout with `dist/` built; the expressions are those both engines compile (as in
 * cold-instructions.mjs). `cel-js-parse` is cel-js's `parse()` alone (crdkit's counterpart: `parse`).
 * Optimizations and deoptimizations in the timed passes: run with `node --trace-opt --trace-deopt` and
 * count the lines after the `timed passes` line.
 * @module
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { PerformanceObserver, performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { celPasses, loadCelEngines } from "./cel-engines.mjs";

const [root, mode, warmArg, passesArg] = process.argv.slice(2);
if (root === undefined || mode === undefined) throw new Error("usage: warm-time.mjs ROOT MODE [WARM] [PASSES]");
const dir = mkdtempSync(join(tmpdir(), "cel-time-"));
const listFile = join(dir, "list.json");
execFileSync(process.execPath, [join(dirname(fileURLToPath(import.meta.url)), "cold-instructions.mjs"), root, "--list", listFile]);
const list = JSON.parse(readFileSync(listFile, "utf8"));
rmSync(dir, { recursive: true, force: true });
const engines = await loadCelEngines(root);
const passes = celPasses(engines, list);
passes["cel-js-parse"] = () => list.filter((r) => engines.marc.parse(r) !== undefined).length;
const pass = passes[mode];
if (pass === undefined) throw new Error(`unknown mode ${mode}`);
for (let i = 0, n = Number(warmArg ?? 30); i < n; i++) pass();

const gcs = [];
const observer = new PerformanceObserver((l) => {
  for (const e of l.getEntries()) gcs.push(e);
});
observer.observe({ entryTypes: ["gc"] });
console.log("timed passes");
const n = Number(passesArg ?? 100);
const times = [];
const cpu0 = process.cpuUsage();
for (let i = 0; i < n; i++) {
  const t = performance.now();
  pass();
  times.push(performance.now() - t);
}
const cpu = process.cpuUsage(cpu0);
// GC entries arrive asynchronously
await new Promise((resolve) => setTimeout(resolve, 50));
observer.disconnect();
times.sort((a, b) => a - b);
const scavenges = gcs.filter((e) => e.detail?.kind === 1);
const ms = (xs) => xs.reduce((s, e) => s + e.duration, 0) / n;
console.log(
  `${mode}: wall per pass min ${times[0].toFixed(3)} ms, median ${times[n >> 1].toFixed(3)} ms; CPU per pass ${((cpu.user + cpu.system) / 1000 / n).toFixed(3)} ms; ` +
    `per pass ${(gcs.length / n).toFixed(2)} collections (${(scavenges.length / n).toFixed(2)} scavenges), pause ${ms(gcs).toFixed(3)} ms`,
);
