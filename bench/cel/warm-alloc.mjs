/**
 * Where a warm pass of CEL compilation over the corpus rules allocates: V8's sampling heap profiler,
 * counting objects that were collected too (so it measures allocation, not what stays live), over PASSES
 * passes after 20 warm-up passes; prints the bytes per pass and the top allocating functions.
 *
 *   node bench/cel/warm-alloc.mjs ROOT MODE [PASSES]     MODE: parse | check | compile | program | cel-js
 *
 * ROOT is a checkout with `dist/` built; the expressions are those both engines compile (as in
 * cold-instructions.mjs; written to a temporary file first). Sampled every 512 bytes: totals repeat
 * within ~2 %.
 * @module
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { celPasses, loadCelEngines } from "./cel-engines.mjs";

const [root, mode, passesArg] = process.argv.slice(2);
if (root === undefined || mode === undefined) throw new Error("usage: warm-alloc.mjs ROOT MODE [PASSES]");
const dir = mkdtempSync(join(tmpdir(), "cel-alloc-"));
const listFile = join(dir, "list.json");
execFileSync(process.execPath, [join(dirname(fileURLToPath(import.meta.url)), "cold-instructions.mjs"), root, "--list", listFile]);
const list = JSON.parse(readFileSync(listFile, "utf8"));
rmSync(dir, { recursive: true, force: true });
const passes = celPasses(await loadCelEngines(root), list);
const pass = passes[mode];
if (pass === undefined) throw new Error(`unknown mode ${mode}`);
for (let i = 0; i < 20; i++) pass();
const session = new Session();
session.connect();
await session.post("HeapProfiler.enable");
await session.post("HeapProfiler.startSampling", {
  samplingInterval: 512,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
});
const n = Number(passesArg ?? 10);
for (let i = 0; i < n; i++) pass();
const { profile } = await session.post("HeapProfiler.stopSampling");
session.disconnect();
const self = new Map();
let total = 0;
const walk = (node) => {
  const cf = node.callFrame;
  const key = `${cf.functionName || "(anonymous)"} ${cf.url.split("/").slice(-2).join("/")}:${cf.lineNumber + 1}`;
  total += node.selfSize;
  self.set(key, (self.get(key) ?? 0) + node.selfSize);
  for (const c of node.children) walk(c);
};
walk(profile.head);
console.log(`${mode}: ${(total / n / 1e6).toFixed(2)} MB allocated per pass (${list.length} expressions)`);
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${(v / n / 1e3).toFixed(0).padStart(7)} KB  ${k}`);
