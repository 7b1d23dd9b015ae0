/**
 * Compile-time driver over the real-world corpus: extracts every `x-kubernetes-validations` rule
 * from /work/shared/corpus CRDs (or the directory given as the first argument) and times
 * parse, check and plan separately with a Kubernetes-like environment (`self`/`oldSelf` as `dyn`).
 * Use with `node --cpu-prof --import tsx bench/cel/corpus-compile.ts` to profile compilation.
 *
 * Run: `node --import tsx bench/cel/corpus-compile.ts [dir | rules.json] [--rounds N] [--dump out.json]`
 * (`--dump` writes the extracted expressions as a JSON array, to profile without YAML parsing).
 * @module
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";
import { Env, isCompileFailure } from "../../src/cel/env.js";
import { parse } from "../../src/cel/parser/parser.js";
import { check } from "../../src/cel/checker/checker.js";
import { plan } from "../../src/cel/interpreter/planner.js";
import { KUBE_OPAQUE_TYPES, kubeLibraryFunctions } from "../../src/rules/library/functions.js";

function walkFiles(dir: string, out: string[]): void {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) walkFiles(p, out);
    else if (/\.ya?ml$/.test(name)) out.push(p);
  }
}

function collectRules(node: unknown, out: string[]): void {
  if (Array.isArray(node)) {
    for (const x of node) collectRules(x, out);
    return;
  }
  if (node === null || typeof node !== "object") return;
  for (const [k, v] of Object.entries(node)) {
    if (k === "x-kubernetes-validations" && Array.isArray(v)) {
      for (const r of v) {
        if (r !== null && typeof r === "object") {
          const rule = (r as Record<string, unknown>).rule;
          const msg = (r as Record<string, unknown>).messageExpression;
          if (typeof rule === "string") out.push(rule);
          if (typeof msg === "string") out.push(msg);
        }
      }
    } else collectRules(v, out);
  }
}

function main(): void {
  const args = process.argv.slice(2);
  const ri = args.indexOf("--rounds");
  const rounds = ri >= 0 ? Number(args[ri + 1]) : 5;
  const di = args.indexOf("--dump");
  const dir = args.find((a, i) => !a.startsWith("--") && (ri < 0 || i !== ri + 1) && (di < 0 || i !== di + 1)) ?? "/work/shared/corpus";
  const files: string[] = [];
  const rules: string[] = [];
  if (dir.endsWith(".json")) rules.push(...(JSON.parse(readFileSync(dir, "utf8")) as string[]));
  else walkFiles(dir, files);
  for (const f of files) {
    try {
      for (const d of parseAllDocuments(readFileSync(f, "utf8"))) collectRules(d.toJS({ mapAsMap: false }), rules);
    } catch {
      // not a parseable YAML document: skip
    }
  }
  if (di >= 0) writeFileSync(args[di + 1] as string, JSON.stringify(rules));
  const env = new Env({
    opaqueTypes: KUBE_OPAQUE_TYPES,
    functions: kubeLibraryFunctions(),
    extendedValidations: true,
    variables: { self: "dyn", oldSelf: "dyn" },
  });
  const functions = env.functions();
  const parseOptions = (env as unknown as { parseOptions: Parameters<typeof parse>[1] }).parseOptions;
  let ok = 0;
  let failed = 0;
  let tParse = 0;
  let tCheck = 0;
  let tPlan = 0;
  let tCompile = 0;
  for (let round = 0; round < rounds; round++) {
    ok = 0;
    failed = 0;
    tParse = tCheck = tPlan = tCompile = 0;
    for (const r of rules) {
      const t0 = performance.now();
      const p = parse(r, parseOptions);
      const t1 = performance.now();
      tParse += t1 - t0;
      if (p.ast === undefined) {
        failed++;
        continue;
      }
      const c = check(p.ast, env.decls);
      const t2 = performance.now();
      tCheck += t2 - t1;
      if (c.issueCount > 0) {
        failed++;
        continue;
      }
      plan(p.ast, { functions, checked: c });
      const t3 = performance.now();
      tPlan += t3 - t2;
      const t4 = performance.now();
      const full = env.compile(r);
      if (!isCompileFailure(full)) env.program(full);
      tCompile += performance.now() - t4;
      ok++;
    }
  }
  const us = (ms: number) => ((ms * 1000) / rules.length).toFixed(1);
  console.log(`${rules.length} expressions from ${files.length} files (${ok} compiled, ${failed} failed)`);
  console.log(
    `per expression (last of ${rounds} rounds): parse ${us(tParse)} µs, check ${us(tCheck)} µs, plan ${us(tPlan)} µs; ` +
      `env.compile+program ${us(tCompile)} µs`,
  );
}

main();
