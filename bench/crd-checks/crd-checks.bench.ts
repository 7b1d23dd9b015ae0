/**
 * CPU cost of the CRD create checks and of compiling CRDs, on every CRD of the corpus (/work/shared/corpus
 * or $CRDKIT_CORPUS; CRDKIT_BENCH_PROJECTS=a,b to pick projects). YAML decoding is done once, before
 * measuring. Phases, run interleaved over several rounds (CRDKIT_BENCH_ROUNDS, default 5), best CPU time:
 * decoding the CRD (`decodeCrd`), the checks without CEL, the checks with CEL compilation and costs
 * (`validateCrdCreate` with `crdValidationOptions`, as `crdkit check` runs them) and check + compile
 * (`tryCompileCrd`, as `crdkit validate --no-cache` runs it). Prints a digest of every verdict so that two
 * builds can be compared.
 *
 *   node --import tsx bench/crd-checks/crd-checks.bench.ts
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { decodeCrd } from "../../src/crd/decode-crd.js";
import { validateCrdCreate } from "../../src/crdvalidation/validate-crd.js";
import { errorString } from "../../src/errors/field-error.js";
import { decodeDocuments } from "../../src/io/decode.js";
import { crdValidationOptions, defaultsHooks } from "../../src/pipeline/crd-hooks.js";
import { tryCompileCrd } from "../../src/pipeline/compile.js";
import { isObject, type JsonValue } from "../../src/value/json-value.js";
import { corpusRoot } from "../../test/corpus-root.js";
import { expandPaths } from "../../src/cli/files.js";

const root = corpusRoot();
const rounds = Number(process.env["CRDKIT_BENCH_ROUNDS"] ?? 5);
const only = process.env["CRDKIT_BENCH_PROJECTS"]?.split(",");
if (!existsSync(root)) {
  console.log(`corpus not found at ${root} (set CRDKIT_CORPUS)`);
  process.exit(0);
}

/** The YAML/JSON files under a directory, in the order `crdkit validate` reads them (none when it is absent). */
const files = (dir: string): string[] => (existsSync(dir) ? expandPaths([dir]) : []);

const texts: string[] = [];
for (const project of readdirSync(root).sort()) {
  if (only && !only.includes(project)) continue;
  for (const f of files(join(root, project, "crds"))) texts.push(readFileSync(f, "utf8"));
}

/** Every phase gets freshly decoded inputs (a phase must not see objects another one touched). */
function decodedCrds(): JsonValue[] {
  const out: JsonValue[] = [];
  for (const t of texts) {
    for (const d of decodeDocuments(t)) if (isObject(d.value) && d.value["kind"] === "CustomResourceDefinition") out.push(d.value);
  }
  return out;
}
let count = 0;

const phases: [string, (c: JsonValue) => string][] = [
  ["decodeCrd", (c) => { const d = decodeCrd(c); return d.ok ? d.unknownFields.join() : d.message; }],
  ["checks without CEL", (c) => digestOf(validateCrdCreate(c, { defaultsHooks }))],
  ["checks (crdkit check)", (c) => digestOf(validateCrdCreate(c, crdValidationOptions))],
  ["check + compile (validate --no-cache)", (c) => { const r = tryCompileCrd(c); return r.ok ? r.warnings.join("\n") : r.errors.join("\n"); }],
];

function digestOf(r: ReturnType<typeof validateCrdCreate>): string {
  return [r.decodeError ?? "", ...r.errors.map(errorString), ...r.warnings, ...r.unknownFields].join("\n");
}

const best = new Map<string, number>();
const digests = new Map<string, string>();
for (let round = 0; round < rounds; round++) {
  for (const [name, fn] of phases) {
    const inputs = decodedCrds();
    count = inputs.length;
    const h = createHash("sha256");
    const t = process.cpuUsage();
    for (const c of inputs) h.update(fn(c)).update("\0");
    const u = process.cpuUsage(t);
    const ms = (u.user + u.system) / 1000;
    best.set(name, Math.min(best.get(name) ?? Number.POSITIVE_INFINITY, ms));
    digests.set(name, h.digest("hex").slice(0, 16));
  }
}
console.log(`${count} CRDs, ${rounds} rounds, best CPU ms per phase`);
for (const [name] of phases) console.log(`${best.get(name)!.toFixed(0).padStart(8)} ms  ${name}  (digest ${digests.get(name)})`);
