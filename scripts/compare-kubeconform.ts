/**
 * Measures crdkit against kubeconform on the custom resources of the shared corpus (every project,
 * kubectl-validate's test cases included), with Kubernetes itself as the referee: the corpus goldens
 * (test/golden/corpus/<project>.json, recorded from the real apiextensions-apiserver by tools/k8s-oracle)
 * hold the API server's verdict on each document. Every document is written to its own JSON file (the
 * body the oracle sent); both tools get the same CRD per kind (the oracle's: the first CRD of a kind in
 * the project), kubeconform through the JSON-Schema files that kubeconform's own converter writes
 * (`scripts/openapi2jsonschema.py` of the kubeconform module, as its README tells users, with
 * `FILENAME_FORMAT='{kind}-{fullgroup}-{version}'`; needs python3 with PyYAML). Without python3 the
 * schemas come from bench/process/kubeconform-schemas.ts, which differs from the real script (it also
 * closes the root object, converts `nullable` and `x-kubernetes-int-or-string`), and the script says so.
 *
 *   nice go install github.com/yannh/kubeconform/cmd/kubeconform@v0.7.0
 *   node --import tsx scripts/compare-kubeconform.ts [--kubeconform PATH] [--openapi2jsonschema PATH]
 *                                                    [--show N] [--keep] [--write-golden PATH]
 *
 * Built-in kinds are left out: kubeconform reads them from https://raw.githubusercontent.com/yannh/
 * kubernetes-json-schema, which an offline machine cannot reach (every built-in document is then a
 * kubeconform error, not a verdict).
 *
 * `--write-golden PATH` (with `--kubeconform-version V`) records kubeconform's verdicts (test/kubeconform/kubeconform-corpus.json, the data
 * of test/kubeconform/kubeconform-corpus.test.ts).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { writeKubeconformSchemas } from "../bench/process/kubeconform-schemas.js";
import type { Result } from "../src/cli/results.js";
import { runValidate } from "../src/cli/run-validate.js";
import { goJsonMarshal } from "../src/go/json.js";
import { corpusRoot } from "../test/corpus-root.js";
import {
  type KubeconformAnswer,
  type Verdict,
  classifyKubeconform,
  corpusCustomResources,
  crdkitVerdict,
  kubeconformVerdict,
} from "../test/kubeconform/kubeconform-compare.js";

const argv = process.argv.slice(2);
const flag = (name: string, dflt: string) => {
  const i = argv.indexOf(name);
  return i >= 0 && argv[i + 1] ? argv[i + 1]! : dflt;
};
const kc = flag("--kubeconform", join(homedir(), "go", "bin", "kubeconform"));
const show = Number(flag("--show", "2"));
const keep = argv.includes("--keep");
const goModCache = (() => {
  try {
    return execFileSync("go", ["env", "GOMODCACHE"], { encoding: "utf8" }).trim();
  } catch {
    return join(homedir(), "go", "pkg", "mod");
  }
})();
const o2j = flag("--openapi2jsonschema", join(goModCache, "github.com", "yannh", "kubeconform@v0.7.0", "scripts", "openapi2jsonschema.py"));
const realConverter = existsSync(o2j) && (() => {
  try {
    execFileSync("python3", ["-c", "import yaml"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
if (!realConverter) console.log(`(${o2j} or python3 with PyYAML not found: schemas from bench/process/kubeconform-schemas.ts instead)`);
const golden = flag("--write-golden", "");
const root = corpusRoot();
const goldenDir = new URL("../test/golden/corpus/", import.meta.url).pathname;
const work = join(tmpdir(), `crdkit-kc-compare-${process.pid}`);

interface Row {
  id: string;
  kubernetes: Verdict;
  crdkit: Verdict;
  kubeconform: Verdict;
  crdkitMessages: string[];
  kubeconformMessages: string[];
}
const rows: Row[] = [];

for (const g of readdirSync(goldenDir).filter((f) => f.endsWith(".json")).sort()) {
  const project = g.replace(/\.json$/, "");
  const { crds, docs } = corpusCustomResources(root, JSON.parse(readFileSync(join(goldenDir, g), "utf8")));
  if (docs.length === 0) continue;
  const dir = join(work, project);
  const crdDir = join(dir, "crds");
  const schemaDir = join(dir, "schemas");
  const docDir = join(dir, "docs");
  for (const d of [crdDir, schemaDir, docDir]) mkdirSync(d, { recursive: true });
  for (const [i, c] of [...crds.values()].entries()) writeFileSync(join(crdDir, `${String(i).padStart(3, "0")}.json`), goJsonMarshal(c));
  if (realConverter) {
    const crdFiles = readdirSync(crdDir).sort().map((f) => join(crdDir, f));
    execFileSync("python3", [o2j, ...crdFiles], { cwd: schemaDir, env: { ...process.env, FILENAME_FORMAT: "{kind}-{fullgroup}-{version}" }, stdio: "ignore" });
  } else writeKubeconformSchemas(schemaDir, [crdDir]);
  const files = docs.map((d, i) => {
    const p = join(docDir, `${String(i).padStart(5, "0")}.json`);
    writeFileSync(p, goJsonMarshal(d.body));
    return p;
  });

  // crdkit, in-process (Strict, as kubectl sends)
  const mine = new Map<string, Result>();
  for (const r of runValidate({ crds: [crdDir], old: [], inputs: files, fieldValidation: "Strict", showObject: false })) {
    if (files.includes(r.file) && !mine.has(r.file)) mine.set(r.file, r);
  }

  // kubeconform -strict with the converted schemas only (no network)
  const theirs = new Map<string, KubeconformAnswer>();
  for (let i = 0; i < files.length; i += 300) {
    const chunk = files.slice(i, i + 300);
    let out: string;
    try {
      out = execFileSync(kc, ["-strict", "-verbose", "-n", "2", "-output", "json", "-schema-location", `${schemaDir}/{{ .ResourceKind }}-{{ .Group }}-{{ .ResourceAPIVersion }}.json`, ...chunk], {
        encoding: "utf8",
        maxBuffer: 256 << 20,
      });
    } catch (e) {
      out = (e as { stdout?: string }).stdout ?? "";
    }
    const parsed = JSON.parse(out) as { resources?: (KubeconformAnswer & { filename: string })[] };
    for (const { filename, ...a } of parsed.resources ?? []) if (!theirs.has(filename)) theirs.set(filename, a);
  }

  docs.forEach((d, i) => {
    const f = files[i]!;
    const k = theirs.get(f) ?? { status: "statusError", msg: "(no result)" };
    const c = mine.get(f);
    rows.push({
      id: `${project}/${d.id}`,
      kubernetes: d.kubernetes,
      crdkit: crdkitVerdict(c),
      kubeconform: kubeconformVerdict(k),
      crdkitMessages: c ? c.errors.map((e) => e.message) : ["(no result)"],
      kubeconformMessages: k.validationErrors?.map((e) => `${e.path}: ${e.msg}`) ?? (k.msg ? [k.msg] : []),
    });
  });
  if (!keep) rmSync(dir, { recursive: true, force: true });
}

// built-in kinds: can kubeconform reach its default schema location (the network) from here?
const probeDir = join(work, "probe");
mkdirSync(probeDir, { recursive: true });
writeFileSync(join(probeDir, "cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: probe\n");
let probe: KubeconformAnswer | undefined;
try {
  probe = (JSON.parse(execFileSync(kc, ["-strict", "-output", "json", "-verbose", join(probeDir, "cm.yaml")], { encoding: "utf8", timeout: 120_000 })) as { resources?: KubeconformAnswer[] }).resources?.[0];
} catch (e) {
  const out = (e as { stdout?: string }).stdout ?? "";
  probe = out.startsWith("{") ? (JSON.parse(out) as { resources?: KubeconformAnswer[] }).resources?.[0] : undefined;
}
console.log(`kubeconform on a built-in ConfigMap (default schema location): ${probe ? `${probe.status}${probe.msg ? `: ${probe.msg.slice(0, 200)}` : ""}` : "no answer"}`);

const agree = rows.filter((r) => r.crdkit === r.kubeconform);
const crdkitRight = rows.filter((r) => r.crdkit === r.kubernetes).length;
const kcRight = rows.filter((r) => r.kubeconform === r.kubernetes).length;
console.log(`${rows.length} custom resources of ${new Set(rows.map((r) => r.id.split("/")[0])).size} corpus projects (built-in kinds left out: kubeconform cannot reach its schemas offline)`);
console.log(`same verdict as kubeconform: ${agree.length} (${((100 * agree.length) / rows.length).toFixed(1)}%), different: ${rows.length - agree.length}`);
console.log(`verdict of Kubernetes (oracle): crdkit ${crdkitRight} (${((100 * crdkitRight) / rows.length).toFixed(1)}%), kubeconform ${kcRight} (${((100 * kcRight) / rows.length).toFixed(1)}%)`);
const classes = new Map<string, { n: number; examples: string[] }>();
for (const r of rows) {
  if (r.crdkit === r.kubeconform && r.crdkit === r.kubernetes) continue;
  const right = r.crdkit === r.kubernetes ? (r.kubeconform === r.kubernetes ? "both" : "crdkit") : r.kubeconform === r.kubernetes ? "kubeconform" : "neither";
  const cls = `${right} right (Kubernetes: ${r.kubernetes}, crdkit: ${r.crdkit}, kubeconform: ${r.kubeconform}): ${classifyKubeconform(r.crdkitMessages, r.kubeconformMessages, r.kubeconform)}`;
  const e = classes.get(cls) ?? { n: 0, examples: [] };
  e.n++;
  if (e.examples.length < show) e.examples.push(`${r.id}\n      kubeconform: ${JSON.stringify(r.kubeconformMessages).slice(0, 400)}\n      crdkit:      ${JSON.stringify(r.crdkitMessages).slice(0, 400)}`);
  classes.set(cls, e);
}
for (const [cls, e] of [...classes].sort((a, b) => b[1].n - a[1].n)) {
  console.log(`${e.n} × ${cls}`);
  for (const x of e.examples) console.log(`    ${x}`);
}
if (golden !== "") {
  // kubeconform's answers that are not `statusValid` (messages only), and the number of documents per project
  const counts: Record<string, number> = {};
  for (const r of rows) counts[r.id.split("/")[0]!] = (counts[r.id.split("/")[0]!] ?? 0) + 1;
  const lines = rows.filter((r) => r.kubeconform !== "valid").map((r) => `  ${JSON.stringify(r.id)}: ${JSON.stringify(r.kubeconformMessages)}`);
  const head = `{"kubeconform": ${JSON.stringify(flag("--kubeconform-version", "v0.7.0"))}, "converter": ${JSON.stringify(realConverter ? "openapi2jsonschema.py" : "bench/process/kubeconform-schemas.ts")}, "documents": ${JSON.stringify(counts)}, "notValid": {`;
  writeFileSync(golden, `${head}\n${lines.join(",\n")}\n}}\n`);
}
if (!keep) rmSync(work, { recursive: true, force: true });
