/**
 * Differential fuzzer of manifest decoding: crdkit's reader (src/io `decodeDocuments`) against
 * sigs.k8s.io/yaml `YAMLToJSON` / `YAMLToJSONStrict` over go-yaml v2 (tools/k8s-oracle `decode-yaml`),
 * which is what kubectl does with every document of a file. Same JSON text or same error text, and the
 * same strict (duplicate key) error.
 *
 *   npm run fuzz:yaml -- --seed 1 --count 10000 [--batch 1000] [--show 5] [--out dir]
 *
 * Disagreements are grouped (value, error where the other side has a value, error wording, strict error)
 * with a few examples each; `--out dir` writes every disagreement as a `decode-yaml` case file. The last
 * line is `agreed A of M`.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { crdkitDecodeYaml, diffDecode } from "../test/golden/lib/decode-case.js";
import { parseTaggedJson } from "../test/golden/lib/tagged-json.js";
import { Rng } from "../test/fuzz/rng.js";
import { genYamlDocument } from "../test/fuzz/yaml-gen.js";
import { isObject } from "../src/value/json-value.js";
import { decodeGoYamlDocument } from "../src/io/goyaml/decode-document.js";
import { intFlag, stringFlag } from "./fuzz-flags.js";
// @ts-expect-error plain ESM helper without type declarations
import { buildOracle } from "./golden-oracle.mjs";

const RANDOM_COLLISION = "random in Go: keys collide after JSON conversion (Go's map order decides)";
const RANDOM_UNSUPPORTED = "random in Go: several keys JSON cannot hold (Go's map order picks the one reported)";
const UNSUPPORTED_KEY = "unsupported map key of type";

const seed = intFlag("seed", 1);
const count = intFlag("count", 1000);
const batch = Math.max(1, intFlag("batch", 1000));
const show = intFlag("show", 5);
const outDir = stringFlag("out");

const bin = (buildOracle as () => string)();
const rng = new Rng(seed);
const groups = new Map<string, { n: number; examples: string[] }>();
let agreed = 0;
let done = 0;

function classify(text: string, result: Record<string, unknown>, got: { json?: string; error?: string; strictError?: string }): string {
  const kErr = typeof result["error"] === "string";
  const cErr = got.error !== undefined;
  // Go ranges over maps in random order: keys that collide after the JSON conversion (`1` and `"1"`),
  // or several keys JSON cannot hold, give answers that change from run to run
  if (decodeGoYamlDocument(text).keyCollision) return RANDOM_COLLISION;
  if (kErr && cErr && String(result["error"]).startsWith(UNSUPPORTED_KEY) && got.error!.startsWith(UNSUPPORTED_KEY)) return RANDOM_UNSUPPORTED;
  if (kErr && cErr) return "both fail, different error text";
  if (kErr) return "kubernetes fails, crdkit decodes";
  if (cErr) return "crdkit fails, kubernetes decodes";
  if (result["json"] !== got.json) return "different value";
  return "different strict (duplicate key) error";
}

while (done < count) {
  const n = Math.min(batch, count - done);
  const cases = Array.from({ length: n }, (_, i) => ({ id: `s${seed}-${done + i}`, operation: "decode-yaml", text: genYamlDocument(rng) }));
  const r = spawnSync(bin, ["batch"], { input: cases.map((c) => JSON.stringify(c)).join("\n"), maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`oracle failed: ${r.stderr.toString()}`);
  const lines = r.stdout.toString().split("\n").filter((l) => l.trim() !== "");
  lines.forEach((line, i) => {
    const rec = parseTaggedJson(line);
    const c = cases[i]!;
    const result = isObject(rec) && isObject(rec["result"]) ? rec["result"] : {};
    const got = crdkitDecodeYaml(c.text);
    const diffs = diffDecode(result, got);
    if (diffs.length === 0) {
      agreed++;
      return;
    }
    const g = classify(c.text, result as Record<string, unknown>, got);
    const entry = groups.get(g) ?? { n: 0, examples: [] };
    entry.n++;
    if (entry.examples.length < show) entry.examples.push(`${c.id} ${JSON.stringify(c.text)}\n${diffs.join("\n")}`);
    groups.set(g, entry);
    if (outDir) {
      mkdirSync(outDir, { recursive: true });
      writeFileSync(join(outDir, `${c.id}.yaml`), `description: "fuzz:yaml --seed ${seed}, ${c.id}: ${g}"\noperation: decode-yaml\ntext: ${JSON.stringify(c.text)}\n`);
    }
  });
  done += n;
}

for (const [g, e] of [...groups].sort((a, b) => b[1].n - a[1].n)) {
  console.log(`\n== ${g}: ${e.n}`);
  for (const x of e.examples) console.log(x);
}
const random = (groups.get(RANDOM_COLLISION)?.n ?? 0) + (groups.get(RANDOM_UNSUPPORTED)?.n ?? 0);
console.log(`\nagreed ${agreed} of ${count} (seed ${seed}); ${random} of the others differ where Go's answer depends on its random map order`);
