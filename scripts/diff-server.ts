#!/usr/bin/env node
/**
 * `npm run diff:server [-- SEQUENCE...]`: replays the recorded server goldens against `crdkit serve` and prints,
 * per sequence, how many answers are identical and a compact diff of each one that is not.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startServer } from "../src/server/server.js";
import { loadKnownDifferences } from "../test/server-diff/known-differences.js";
import { loadSequences, REPO_ROOT, runSequence, type StepResult } from "../test/server-diff/runner.js";

function diffValues(a: unknown, b: unknown, path: string, out: string[]): void {
  if (JSON.stringify(a) === JSON.stringify(b)) return;
  if (a !== null && b !== null && typeof a === "object" && typeof b === "object" && Array.isArray(a) === Array.isArray(b)) {
    const keys = new Set([...Object.keys(a as object), ...Object.keys(b as object)]);
    for (const k of keys) diffValues((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`, out);
    if (!Array.isArray(a) && JSON.stringify(Object.keys(a as object)) !== JSON.stringify(Object.keys(b as object)) && out.length === 0) {
      out.push(`${path}: key order k8s ${JSON.stringify(Object.keys(a as object))} crdkit ${JSON.stringify(Object.keys(b as object))}`);
    }
    return;
  }
  out.push(`${path}: k8s ${JSON.stringify(a)} | crdkit ${JSON.stringify(b)}`);
}

const only = new Set(process.argv.slice(2));
const known = loadKnownDifferences();
let total = 0;
let same = 0;
for (const [name, seq] of loadSequences()) {
  if (only.size > 0 && !only.has(name)) continue;
  const golden = JSON.parse(readFileSync(join(REPO_ROOT, "test", "golden", "server", `${name}.json`), "utf8")) as { results: StepResult[] };
  // As the suite replays it (server-diff.test.ts): without the collector where the sequence asks.
  const server = await startServer({ port: 0, garbageCollectorController: seq.garbageCollectorController ?? true });
  const got = await runSequence({ url: server.url, kubectlFlags: [] }, seq);
  await server.close();
  let s = 0;
  golden.results.forEach((want, i) => {
    const out: string[] = [];
    diffValues(want, got[i], "", out);
    if (out.length === 0) s++;
    else {
      const k = known.get(`${name} | ${want.step}`);
      process.stdout.write(`\n[${name}] ${want.step}${k ? `  (known: ${k})` : ""}\n`);
      for (const l of out.slice(0, 12)) process.stdout.write(`  ${l.length > 400 ? `${l.slice(0, 400)}…` : l}\n`);
      if (out.length > 12) process.stdout.write(`  … ${out.length - 12} more\n`);
    }
  });
  total += golden.results.length;
  same += s;
  process.stdout.write(`== ${name}: ${s}/${golden.results.length} identical\n`);
}
process.stdout.write(`\nTOTAL ${same}/${total} identical\n`);
