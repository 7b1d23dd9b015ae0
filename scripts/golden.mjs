#!/usr/bin/env node
// `npm run golden`: builds tools/k8s-oracle (Go, the real k8s.io/apiextensions-apiserver) and regenerates
//   test/golden/<area>/<file>.json  from  test/cases/<area>/<file>.yaml
//   test/golden/corpus/<project>.json from the real-world corpus (CRDKIT_CORPUS, default /work/shared/corpus;
//                                      skipped when that directory does not exist)
// Flags: --no-corpus (skip the corpus), --only-corpus.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { buildOracle, repoRoot } from "./golden-oracle.mjs";

const args = new Set(process.argv.slice(2));
const casesDir = join(repoRoot, "test", "cases");
const goldenDir = join(repoRoot, "test", "golden");
const corpusDir = process.env.CRDKIT_CORPUS ?? "/work/shared/corpus";

const bin = buildOracle();

function walk(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

if (!args.has("--only-corpus")) {
  // drop goldens whose case file is gone (the corpus goldens have no case files, nor the server's, which
  // `npm run golden:server` records from test/server-diff/sequences)
  for (const g of walk(goldenDir)) {
    const rel = relative(goldenDir, g);
    if (!rel.endsWith(".json") || rel.startsWith("corpus/") || rel.startsWith("server/")) continue;
    const base = rel.slice(0, -".json".length);
    if (!existsSync(join(casesDir, `${base}.yaml`)) && !existsSync(join(casesDir, `${base}.yml`))) rmSync(g);
  }
  execFileSync(bin, ["golden", casesDir, goldenDir], { stdio: "inherit" });
}

if (!args.has("--no-corpus")) {
  if (!existsSync(corpusDir)) {
    console.log(`golden: corpus ${corpusDir} not found, corpus goldens left as they are`);
  } else {
    for (const name of readdirSync(corpusDir).sort()) {
      const p = join(corpusDir, name);
      if (!statSync(p).isDirectory()) continue;
      execFileSync(bin, ["corpus", p, join(goldenDir, "corpus", `${name}.json`)], { stdio: "inherit" });
    }
    console.log(`golden: corpus goldens written for ${corpusDir}`);
  }
}
