/**
 * Benchmark: x-kubernetes-validations evaluated per second over the corpus examples whose CRD has rules
 * (the examples listed in test/golden/corpus/*.json, read from CRDKIT_CORPUS, default /work/shared/corpus).
 * Run: npm run bench:rules
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { sha256, yamlDocs } from "../../test/golden/lib/corpus.js";
import { parseTaggedJson } from "../../test/golden/lib/tagged-json.js";
import { tryCompileCrd } from "../../src/pipeline/compile.js";
import type { Structural } from "../../src/structural/structural.js";
import { goJsonMarshal } from "../../src/go/json.js";
import { corpusRoot } from "../../test/corpus-root.js";
import { isObject, type JsonObject, type JsonValue } from "../../src/value/json-value.js";
import { validateRules } from "../../src/rules/index.js";

const dir = new URL("../../test/golden/corpus", import.meta.url).pathname;
const corpus = corpusRoot();
const str = (v: JsonValue | undefined): string => (typeof v === "string" ? v : "");

const work: { s: Structural; obj: JsonObject }[] = [];
const t0 = performance.now();
let crds = 0;
for (const f of readdirSync(dir).filter((n) => n.endsWith(".json")).sort()) {
  const g = parseTaggedJson(readFileSync(join(dir, f), "utf8"));
  if (!isObject(g)) continue;
  const root = join(corpus, str(g["project"]));
  const docs = new Map<string, Map<string, JsonValue>>();
  const get = (file: string, sha: string): JsonValue | undefined => {
    let m = docs.get(file);
    if (!m) {
      m = new Map();
      try {
        for (const d of yamlDocs(join(root, file))) m.set(sha256(goJsonMarshal(d)), d);
      } catch {
        // missing file: its examples are skipped
      }
      docs.set(file, m);
    }
    return m.get(sha);
  };
  const records = (k: string): JsonObject[] => (Array.isArray(g[k]) ? (g[k] as JsonValue[]).filter(isObject) : []);
  const crdDoc = new Map<string, JsonValue | undefined>();
  for (const r of records("crds")) if (!crdDoc.has(str(r["name"]))) crdDoc.set(str(r["name"]), get(str(r["file"]), str(r["bodySha256"])));
  const compiled = new Map<string, ReturnType<typeof tryCompileCrd> | null>();
  for (const r of records("examples")) {
    const doc = get(str(r["file"]), str(r["bodySha256"]));
    const crd = crdDoc.get(str(r["crd"]));
    if (!isObject(doc) || crd === undefined) continue;
    let c = compiled.get(str(r["crd"]));
    if (c === undefined) {
      c = tryCompileCrd(crd);
      compiled.set(str(r["crd"]), c);
      if (c.ok) crds++;
    }
    if (!c?.ok) continue;
    const vname = str(r["version"]) || str(doc["apiVersion"]).split("/").pop() || "";
    const v = c.compiled.ctx.versions.get(vname);
    if (!v?.structural || v.ruleCount === 0) continue;
    work.push({ s: v.structural, obj: doc });
  }
}
const t1 = performance.now();
let evaluated = 0;
for (const w of work) evaluated += validateRules(w.s, w.obj).evaluated;
const t2 = performance.now();
const ROUNDS = 5;
let n = 0;
for (let i = 0; i < ROUNDS; i++) for (const w of work) n += validateRules(w.s, w.obj).evaluated;
const t3 = performance.now();
const steady = (t3 - t2) / 1000;
console.log(
  JSON.stringify({
    examplesWithRules: work.length,
    crdsCompiled: crds,
    ruleEvaluationsPerPass: evaluated,
    loadMs: Math.round(t1 - t0),
    firstPassMs: Math.round(t2 - t1),
    steadyPassMs: Math.round((t3 - t2) / ROUNDS),
    rulesPerSecond: Math.round(n / steady),
    objectsPerSecond: Math.round((work.length * ROUNDS) / steady),
  }),
);
