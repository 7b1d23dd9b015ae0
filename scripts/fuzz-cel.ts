/**
 * Differential CEL fuzzer: random x-kubernetes-validations rules over Kubernetes' CEL libraries
 * (test/fuzz/cel-gen.ts), each compiled at CRD creation and run on a custom resource create by the real
 * apiextensions code (tools/k8s-oracle) and by crdkit. Compares CRD errors, request errors, warnings and the
 * stored object (test/golden/lib/compare.ts).
 *
 *   npm run fuzz:cel -- --seed 1 --count 10000 [--batch 500] [--show 5] [--out dir] [--typos P]
 *
 * `--typos P` gives P% of the rules a user's typo (test/fuzz/cel-gen.ts `withTypo`: a token deleted,
 * doubled, replaced or a stray one inserted) from a second random stream, so that the cases of a seed
 * without `--typos` stay the same.
 *
 * Prints the disagreements (up to --show, each as a ready-to-commit case file), the number of CRDs
 * Kubernetes rejected, and `agreed A of M`.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { SKIP, runPipelineCase } from "../test/golden/lib/compare.js";
import { loadCrdkit } from "../test/golden/lib/crdkit-api.js";
import { parseTaggedJson } from "../test/golden/lib/tagged-json.js";
import { genCelCase, withTypo } from "../test/fuzz/cel-gen.js";
import { Rng } from "../test/fuzz/rng.js";
import { type JsonObject, isObject } from "../src/value/json-value.js";
import { intFlag, stringFlag } from "./fuzz-flags.js";
// @ts-expect-error plain ESM helper without type declarations
import { buildOracle } from "./golden-oracle.mjs";

const seed = intFlag("seed", 1);
const count = intFlag("count", 1000);
const batch = Math.max(1, intFlag("batch", 500));
const show = intFlag("show", 5);
const outDir = stringFlag("out");
const typos = intFlag("typos", 0);
const typoRng = new Rng((seed ^ 0x5bd1e995) >>> 0);

/** The case with a typo in some of its rules (`--typos`). */
function mutate<T extends { crd: JsonObject }>(c: T): T {
  if (typos === 0) return c;
  const spec = (c.crd as { spec: { versions: { schema: { openAPIV3Schema: { properties: { spec: JsonObject } } } }[] } }).spec.versions[0]!
    .schema.openAPIV3Schema.properties.spec;
  for (const rule of spec["x-kubernetes-validations"] as JsonObject[]) {
    if (typoRng.int(1, 100) <= typos) rule["rule"] = withTypo(typoRng, rule["rule"] as string);
  }
  return c;
}

const bin = (buildOracle as () => string)();
const api = await loadCrdkit();
const rng = new Rng(seed);
let agreed = 0;
let done = 0;
let crdRejected = 0;
let shown = 0;
for (let start = 0; start < count; start += batch) {
  const cases = Array.from({ length: Math.min(batch, count - start) }, (_, i) => ({
    id: `cel-s${seed}-${start + i}`,
    operation: "create",
    fieldValidation: "Strict",
    ...mutate(genCelCase(rng)),
  }));
  const run = spawnSync(bin, ["batch"], { input: cases.map((c) => JSON.stringify(c)).join("\n"), encoding: "utf8", maxBuffer: 1 << 30 });
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
    if (diffs.length === 1 && diffs[0]!.startsWith(SKIP)) return;
    const text = stringify(
      { description: `fuzz:cel --seed ${seed}, ${c.id}`, crd: c.crd, operation: "create", fieldValidation: "Strict", objectJson: c.objectJson },
      { lineWidth: 0, version: "1.1" },
    );
    if (outDir) {
      mkdirSync(outDir, { recursive: true });
      writeFileSync(join(outDir, `${c.id}.yaml`), text);
    }
    if (shown < show) {
      shown++;
      const rules = (c.crd as { spec: { versions: { schema: { openAPIV3Schema: { properties: { spec: Record<string, unknown> } } } }[] } }).spec.versions[0]!.schema.openAPIV3Schema.properties.spec["x-kubernetes-validations"];
      console.log(`# ---- ${c.id}: ${JSON.stringify(rules)} on ${c.objectJson}`);
      console.log(diffs.map((d) => `# ${d}`).join("\n"));
    }
  });
}
console.log(`# ${crdRejected} of ${done} generated CRDs were rejected by Kubernetes (crdkit must reject them too)`);
console.log(`agreed ${agreed} of ${done} (seed ${seed})`);
