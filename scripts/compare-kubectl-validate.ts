/**
 * Measures crdkit against kubectl-validate on the built-in-kind documents of the shared corpus: every
 * YAML document whose apiVersion/kind is a built-in kind of the chosen release is written to its own file,
 * both tools validate the files (crdkit in-process, `kubectl-validate --version V -o json`), and the
 * verdicts (valid or not) and messages are compared. Differences are grouped by class.
 *
 *   nice go install sigs.k8s.io/kubectl-validate@latest    # v0.0.4: releases up to 1.30
 *   (or `go build -mod=vendor` in a checkout of kubernetes-sigs/kubectl-validate: releases up to 1.35)
 *   node --import tsx scripts/compare-kubectl-validate.ts [--kubernetes-version 1.30] [--kubectl-validate PATH]
 *                                                         [--show N] [--mutate N] [--seed S]
 *
 * `--write-golden PATH` records kubectl-validate's answers for the corpus documents (no mutants) as the
 * data of test/builtin/kubectl-validate-corpus.test.ts; `--commit C` names the kubectl-validate build.
 *
 * `--mutate N` adds N mutants of every document (JSON files): a value replaced by one of another type,
 * an unknown field added, a field removed, a string made invalid for its format — deterministic per seed.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { loadBuiltinSchemas } from "../src/cli/builtin-loader.js";
import type { Result } from "../src/cli/results.js";
import {
  type Status,
  builtinDocuments,
  classify,
  crdkitMessages,
  kubectlValidateMessages,
} from "../test/builtin/kubectl-validate-compare.js";
import { builtinKindLookup } from "../src/cli/builtin-lookup.js";
import { runValidate } from "../src/cli/run-validate.js";
import { decodeDocuments } from "../src/io/decode.js";
import { corpusRoot } from "../test/corpus-root.js";

const argv = process.argv.slice(2);
const flag = (name: string, dflt: string) => {
  const i = argv.indexOf(name);
  return i >= 0 && argv[i + 1] ? argv[i + 1]! : dflt;
};
const release = flag("--kubernetes-version", "1.30");
const kv = flag("--kubectl-validate", join(homedir(), "go", "bin", "kubectl-validate"));
const show = Number(flag("--show", "3"));
const mutants = Number(flag("--mutate", "0"));
let seed = Number(flag("--seed", "1")) >>> 0;
const keep = argv.includes("--keep");
const golden = flag("--write-golden", "");
const root = corpusRoot();
const work = join(tmpdir(), `crdkit-kv-compare-${process.pid}`);
mkdirSync(work, { recursive: true });

// 1. the built-in documents, one file each
const builtins = loadBuiltinSchemas();
const sources = new Map<string, string>();
let n = 0;
for (const d of builtinDocuments(root, builtins, release)) {
  const p = join(work, `${String(n++).padStart(5, "0")}.yaml`);
  writeFileSync(p, d.text);
  sources.set(p, d.source);
}

// mutants: deterministic random edits of the decoded documents, written as JSON
type J = null | boolean | number | string | J[] | { [k: string]: J };
function rand(n: number): number {
  seed = (Math.imul(seed ^ (seed >>> 15), 2246822507) + 0x9e3779b9) >>> 0;
  return seed % n;
}
function paths(v: J, at: (string | number)[], out: (string | number)[][]): void {
  out.push(at);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) paths(v[i]!, [...at, i], out);
  } else if (v !== null && typeof v === "object") {
    for (const k of Object.keys(v)) if (at.length > 0 || !["apiVersion", "kind"].includes(k)) paths(v[k]!, [...at, k], out);
  }
}
function mutate(doc: J): J {
  const copy = JSON.parse(JSON.stringify(doc)) as J;
  const all: (string | number)[][] = [];
  paths(copy, [], all);
  const p = all[1 + rand(all.length - 1)] ?? [];
  let parent = copy as { [k: string]: J } | J[];
  for (const k of p.slice(0, -1)) parent = (parent as Record<string | number, J>)[k] as { [k: string]: J };
  const last = p.at(-1)!;
  const cur = (parent as Record<string | number, J>)[last]!;
  const options: J[] = ["x", 7, true, [], {}, null, "not-a-date 12:00", "@@invalid@@"];
  switch (rand(4)) {
    case 0: // another type
      (parent as Record<string | number, J>)[last] = options[rand(options.length)]!;
      break;
    case 1: // unknown field next to it
      if (!Array.isArray(parent)) parent[`unknownField${rand(100)}`] = 1;
      else if (cur !== null && typeof cur === "object" && !Array.isArray(cur)) cur["unknownField"] = "x";
      break;
    case 2: // removed
      if (Array.isArray(parent)) parent.splice(last as number, 1);
      else delete parent[last as string];
      break;
    default: // duplicated list entry, or a string made invalid
      if (Array.isArray(parent)) parent.push(JSON.parse(JSON.stringify(cur)) as J);
      else (parent as Record<string, J>)[last as string] = typeof cur === "string" ? `${cur}!! @` : -1;
  }
  return copy;
}
if (mutants > 0) {
  for (const [p, src] of [...sources]) {
    const doc = decodeDocuments(readFileSync(p, "utf8"))[0]?.value as J;
    for (let i = 0; i < mutants; i++) {
      const m = join(work, `${String(n++).padStart(5, "0")}.json`);
      writeFileSync(m, JSON.stringify(mutate(doc)));
      sources.set(m, `${src} (mutant)`);
    }
  }
}
const files = [...sources.keys()];

// 2. crdkit
const mine = new Map<string, Result>();
for (const r of runValidate({ crds: [], old: [], inputs: files, fieldValidation: "Strict", showObject: false, builtins: builtinKindLookup(release) })) {
  if (!mine.has(r.file)) mine.set(r.file, r);
}

// 3. kubectl-validate (JSON: path → [metav1.Status])
const theirs = new Map<string, Status>();
for (let i = 0; i < files.length; i += 200) {
  const chunk = files.slice(i, i + 200);
  let out: string;
  try {
    out = execFileSync(kv, ["--version", release, "-o", "json", ...chunk], { encoding: "utf8", maxBuffer: 256 << 20 });
  } catch (e) {
    out = (e as { stdout?: string }).stdout ?? "";
  }
  const parsed = JSON.parse(out) as Record<string, Status[]>;
  for (const [p, list] of Object.entries(parsed)) theirs.set(p, list[0] ?? { status: "Success" });
}

// 4. compare
const kvMessages = kubectlValidateMessages;
const ckMessages = crdkitMessages;
let sameVerdict = 0;
let sameMessages = 0;
const classes = new Map<string, { n: number; examples: string[] }>();
for (const f of files) {
  const k = kvMessages(theirs.get(f) ?? { status: "Failure", message: "(no result)" });
  const c = ckMessages(mine.get(f));
  if ((k.length === 0) === (c.length === 0)) sameVerdict++;
  if (JSON.stringify(k) === JSON.stringify(c)) {
    sameMessages++;
    continue;
  }
  const cls = `${(k.length === 0) === (c.length === 0) ? "same verdict" : "different verdict"}, ${classify(k, c)}`;
  const e = classes.get(cls) ?? { n: 0, examples: [] };
  e.n++;
  if (e.examples.length < show) e.examples.push(`${sources.get(f)}${keep ? ` [${f}]` : ""}\n      kubectl-validate: ${JSON.stringify(k)}\n      crdkit:           ${JSON.stringify(c)}`);
  classes.set(cls, e);
}
if (golden !== "") {
  const documents: Record<string, string[]> = {};
  for (const f of files) if (!sources.get(f)!.endsWith("(mutant)")) documents[sources.get(f)!] = kvMessages(theirs.get(f) ?? {});
  const data = { kubernetesVersion: release, kubectlValidate: flag("--commit", "unknown build"), documents };
  const lines = Object.entries(data.documents).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`);
  const head = `{"kubernetesVersion": ${JSON.stringify(release)}, "kubectlValidate": ${JSON.stringify(data.kubectlValidate)}, "documents": {`;
  writeFileSync(golden, `${head}\n${lines.join(",\n")}\n}}\n`);
}
console.log(`Kubernetes ${release}: ${files.length} built-in documents from ${new Set([...sources.values()].map((x) => x.replace(/#\d+( \(mutant\))?$/, ""))).size} corpus files`);
console.log(`identical verdict: ${sameVerdict} (${((100 * sameVerdict) / files.length).toFixed(1)}%)`);
console.log(`identical messages: ${sameMessages} (${((100 * sameMessages) / files.length).toFixed(1)}%)`);
for (const [cls, e] of [...classes].sort((a, b) => b[1].n - a[1].n)) {
  console.log(`${e.n} × ${cls}`);
  for (const x of e.examples) console.log(`    ${x}`);
}
if (!keep) rmSync(work, { recursive: true, force: true });
