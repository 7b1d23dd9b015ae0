/**
 * Differential fuzzer: crdkit against the real Kubernetes code (tools/k8s-oracle).
 *
 *   npm run fuzz:k8s -- --seed 1 --count 10000 [--batch 500] [--out test/cases/fuzz] [--quiet] [--junctors P] [--shapes P]
 *
 * `--junctors P` adds value validations under allOf / anyOf / oneOf / not to P% of the schema nodes
 * (test/fuzz/junctors.ts) from a second random stream: a seed's cases without it stay the same.
 * `--shapes P` gives P% of the schema nodes a shape of real CRDs (test/fuzz/shapes.ts: int-or-string
 * defaults, two-key list maps, preserve-unknown-fields items, CEL on embedded resources, rules with
 * messageExpression / fieldPath / reason, `default: {}`) from a third stream; the objects follow them.
 *
 * Generates random structural schemas and valid / nearly-valid objects (test/fuzz/generate.ts), runs
 * them through the oracle in batches (one process per batch) and through crdkit, prints every
 * disagreement as a ready-to-commit case file (also written to --out when given), and ends with the
 * line `agreed A of M`.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { SKIP, runPipelineCase } from "../test/golden/lib/compare.js";
import { loadCrdkit } from "../test/golden/lib/crdkit-api.js";
import { parseTaggedJson } from "../test/golden/lib/tagged-json.js";
import { type FuzzCase, genCase, type ShapeHook } from "../test/fuzz/generate.js";
import { jsonText } from "../test/fuzz/json-text.js";
import { withJunctors } from "../test/fuzz/junctors.js";
import { applyShape } from "../test/fuzz/shapes.js";
import { Rng } from "../test/fuzz/rng.js";
import { isObject } from "../src/value/json-value.js";
import { intFlag, stringFlag } from "./fuzz-flags.js";
// @ts-expect-error plain ESM helper without type declarations
import { buildOracle } from "./golden-oracle.mjs";


const seed = intFlag("seed", 1);
const count = intFlag("count", 100);
const batch = Math.max(1, intFlag("batch", 500));
const outDir = stringFlag("out");
const quiet = process.argv.includes("--quiet");
const junctors = intFlag("junctors", 0);
const junctorRng = new Rng((seed ^ 0x27d4eb2f) >>> 0);
const shapes = intFlag("shapes", 0);
const shapeRng = new Rng((seed ^ 0x165667b1) >>> 0);
const shapeHook: ShapeHook | undefined = shapes > 0 ? (s) => applyShape(shapeRng, s, shapes) : undefined;

const bin = (buildOracle as () => string)();
const api = await loadCrdkit();
const rng = new Rng(seed);

function caseFile(c: FuzzCase, diffs: string[]): string {
  const doc: Record<string, unknown> = {
    description: `fuzz:k8s --seed ${seed}, ${c.id}: ${(diffs[0] ?? "").replace(/: - (only )?kubernetes, \+ (only )?crdkit$/, "")} ${(diffs[1] ?? "").trim()}`.slice(0, 300),
    crd: JSON.parse(jsonText(c.crd)),
    operation: c.operation,
    fieldValidation: c.fieldValidation,
    objectJson: jsonText(c.object),
  };
  if (c.oldObject !== undefined) doc["oldObjectJson"] = jsonText(c.oldObject);
  return stringify(doc, { lineWidth: 0, version: "1.1" });
}

let agreed = 0;
let done = 0;
let crdRejected = 0;
let skipped = 0;
for (let start = 0; start < count; start += batch) {
  const cases: FuzzCase[] = [];
  for (let i = start; i < Math.min(count, start + batch); i++) {
    const c = genCase(rng, `seed${seed}-${i}`, shapeHook);
    if (junctors > 0) withJunctors(junctorRng, c.crd, junctors);
    cases.push(c);
  }
  const input = cases
    .map((c) =>
      JSON.stringify({
        id: c.id,
        operation: c.operation,
        fieldValidation: c.fieldValidation,
        crd: JSON.parse(jsonText(c.crd)),
        objectJson: jsonText(c.object),
        ...(c.oldObject !== undefined ? { oldObjectJson: jsonText(c.oldObject) } : {}),
      }),
    )
    .join("\n");
  const run = spawnSync(bin, ["batch"], { input, encoding: "utf8", maxBuffer: 1 << 30 });
  if (run.status !== 0) throw new Error(`oracle failed: ${run.stderr}`);
  const lines = run.stdout.split("\n").filter((l) => l.trim() !== "");
  if (lines.length !== cases.length) throw new Error(`oracle returned ${lines.length} records for ${cases.length} cases`);
  lines.forEach((line, i) => {
    const c = cases[i]!;
    const rec = parseTaggedJson(line);
    done++;
    if (!isObject(rec) || !isObject(rec["result"])) throw new Error(`bad oracle record for ${c.id}`);
    if (isObject(rec["result"]["crdResult"])) crdRejected++;
    const crd = rec["crd"];
    const diffs = isObject(crd) ? runPipelineCase(api, rec, crd) : ["oracle record without CRD"];
    if (diffs.length === 0) {
      agreed++;
      return;
    }
    if (diffs.length === 1 && diffs[0]!.startsWith(SKIP)) {
      skipped++;
      return;
    }
    const text = caseFile(c, diffs);
    if (outDir) {
      mkdirSync(outDir, { recursive: true });
      writeFileSync(join(outDir, `${c.id}.yaml`), text);
    }
    if (!quiet) {
      console.log(`# ---- disagreement ${c.id} (save as test/cases/fuzz/${c.id}.yaml)`);
      console.log(diffs.map((d) => `# ${d}`).join("\n"));
      console.log(text);
    }
  });
}
console.log(`# ${crdRejected} of ${done} generated CRDs were rejected by Kubernetes (crdkit must reject them too)`);
if (skipped > 0) console.log(`# ${skipped} cases could not be compared through crdkit's API (counted as not agreed)`);
console.log(`agreed ${agreed} of ${done}`);
