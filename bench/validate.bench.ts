/**
 * Validation throughput on the corpus examples (/work/shared/corpus or $CRDKIT_CORPUS): CRDs are compiled
 * once, then every example document is decoded and validated. Prints resources/s and MB/s next to the cost
 * of YAML parsing alone (crdkit's decoder, js-yaml, the `yaml` package) measured in the same run.
 *
 *   npm run bench            (CRDKIT_BENCH_ROUNDS=5 for more rounds)
 */
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { loadAll } from "js-yaml";
import { parseAllDocuments } from "yaml";
import { CrdRegistry } from "../src/cli/registry.js";
import { decodeDocuments } from "../src/io/decode.js";
import { tryCompileCrd } from "../src/pipeline/compile.js";
import { getKey, isObject } from "../src/value/json-value.js";
import { corpusRoot } from "../test/corpus-root.js";

const root = corpusRoot();
const rounds = Number(process.env["CRDKIT_BENCH_ROUNDS"] ?? 3);
if (!existsSync(root)) {
  console.log(`corpus not found at ${root} (set CRDKIT_CORPUS)`);
  process.exit(0);
}

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const n of readdirSync(dir).sort()) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else if (/\.(ya?ml|json)$/.test(n)) out.push(p);
  }
  return out;
}

const registry = new CrdRegistry();
const texts: string[] = [];
const t = performance.now();
for (const project of readdirSync(root).sort()) {
  for (const f of files(join(root, project, "crds"))) {
    for (const d of decodeDocuments(readFileSync(f, "utf8"))) {
      if (isObject(d.value) && d.value["kind"] === "CustomResourceDefinition") {
        const r = tryCompileCrd(d.value);
        if (r.ok) registry.add(r.compiled);
      }
    }
  }
  for (const f of files(join(root, project, "examples"))) texts.push(readFileSync(f, "utf8"));
}
const compileMs = performance.now() - t;
const bytes = texts.reduce((a, s) => a + Buffer.byteLength(s), 0);
const mb = bytes / 1e6;

interface Measured {
  ms: number;
  n: number;
}

/** Runs every measurement once per round, interleaved (so load changes hit them alike); keeps the best. */
function measureAll(fns: ((text: string) => number)[]): Measured[] {
  const out: Measured[] = fns.map(() => ({ ms: Number.POSITIVE_INFINITY, n: 0 }));
  for (let r = 0; r < rounds; r++) {
    fns.forEach((fn, i) => {
      let n = 0;
      const t0 = performance.now();
      for (const s of texts) {
        try {
          n += fn(s);
        } catch {
          // files the parser refuses (templates) count as zero documents
        }
      }
      const ms = performance.now() - t0;
      if (ms < out[i]!.ms) out[i] = { ms, n };
    });
  }
  return out;
}

let skipped = 0;
const validateAll = (s: string) => {
  let n = 0;
  for (const d of decodeDocuments(s)) {
    if (!isObject(d.value)) continue;
    const av = getKey(d.value, "apiVersion");
    const kind = getKey(d.value, "kind");
    const crd = typeof av === "string" && typeof kind === "string" ? registry.lookup(av, kind) : undefined;
    const version = typeof av === "string" ? av.slice(av.indexOf("/") + 1) : "";
    if (!crd?.servedVersions.includes(version)) {
      skipped++;
      continue;
    }
    crd.create(d.value, { version, fieldValidation: "Strict", strictDecodingErrors: d.strictErrors });
    n++;
  }
  return n;
};
const [full, decode, jsyaml, yamlPkg] = measureAll([
  validateAll,
  (s) => decodeDocuments(s).length,
  (s) => loadAll(s).length,
  (s) => parseAllDocuments(s).length,
]) as [Measured, Measured, Measured, Measured];

const row = (name: string, r: Measured, docs?: number) =>
  `${name.padEnd(34)} ${r.ms.toFixed(0).padStart(7)} ms  ${(mb / (r.ms / 1000)).toFixed(1).padStart(7)} MB/s` +
  (docs !== undefined ? `  ${((docs / r.ms) * 1000).toFixed(0).padStart(7)} resources/s` : "") +
  `  ${(r.ms / decode.ms).toFixed(2)}x crdkit decode  ${(r.ms / jsyaml.ms).toFixed(2)}x js-yaml`;

console.log(`corpus: ${texts.length} example files, ${mb.toFixed(2)} MB; ${registry.size} CRDs compiled in ${compileMs.toFixed(0)} ms`);
console.log(`validated per round: ${full.n} resources (create, Strict), ${Math.round(skipped / rounds)} documents without a CRD; best of ${rounds} rounds`);
console.log(row("decode + validate (crdkit)", full, full.n));
console.log(row("decode only (crdkit, go-yaml rules)", decode));
console.log(row("js-yaml loadAll (no fidelity)", jsyaml));
console.log(row("yaml parseAllDocuments", yamlPkg));
