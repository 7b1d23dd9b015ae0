/**
 * CEL compile speed on the corpus rules: every `x-kubernetes-validations` rule and messageExpression of
 * the corpus CRDs, compiled (parse + type-check; the plan is built on the first evaluation) by crdkit's CEL engine and by
 * `@marcbachmann/cel-js` (parse + check), `self`/`oldSelf` as `dyn` in both, interleaved rounds, best
 * and median round each. Rounds are timed in process CPU time (`process.cpuUsage`), so other load on a
 * shared machine does not skew them as wall time would. Expressions that use Kubernetes library
 * functions cel-js does not have are timed for crdkit only and counted apart.
 *
 * Like with like: cel-js's parser builds nodes that carry their own evaluate functions and its check
 * stores each call's overload candidates while typing it; nothing more is built before an evaluation,
 * which walks that tree (each node swaps in its operator's evaluate function on its first evaluation, and a
 * call picks its overload among the candidates by the runtime types, on every evaluation). crdkit's
 * `program()` plans the expression (the planner's closures) on its first evaluation; when the program is
 * made it only checks what cel-go rejects then. So the `compile` rows are parse + check (+ crdkit's AST
 * validators and instantiation check) on both sides, and the `compile + first evaluation` row adds crdkit's
 * plan (one evaluation without variables: `self` absent, so the evaluation itself stops at its first read),
 * compared with cel-js's `parse().check()` alone: cel-js's own first-use work is not counted (without
 * variables it throws an `Error`, whose stack capture would dominate), so that ratio is conservative.
 * crdkit's compile also runs the AST validators Kubernetes enables (homogeneous aggregate literals,
 * duration / timestamp / regex literals, string.format), which cel-js does not have: the regex literal
 * check validates every `matches` pattern at compile time (the simple subset compiled by src/go/regexp-simple.ts,
 * any other pattern parsed by Go's parser, src/go/regexp-syntax.ts, its program compiled on first match), cel-js builds a native RegExp when it evaluates. Both
 * type-check against the same declarations (`self` / `oldSelf` dyn). The line
 * "crdkit parse + check" times crdkit without those validators and without planning, the nearest
 * counterpart of cel-js's `parse().check()` (crdkit still builds cel-go's ids, positions, macro calls,
 * reference map and overload id lists, which cel-js does not).
 * Set-up is not timed alike: cel-js builds its function registry in `new Environment()`, before any
 * round, while crdkit builds its runtime registry on the first `program()` call, inside the first
 * round (≈ 2 % of a cold pass, 10M of ~440M instructions under callgrind), and the regex literal check
 * is ≈ 85 % of crdkit's validator time in a cold pass (every `matches` pattern compiled once).
 *
 * `--cold` measures the short-process setting instead: each round compiles every expression once in a
 * fresh child process per engine (code still in V8's lower tiers, first uses included), as a
 * `crdkit validate` run compiles its rules on first use. The children run with Node's default V8 flags, so
 * much of a round is V8's optimizing compiler working on the engines' hot functions on a helper thread
 * (counted in process CPU time); a short `crdkit validate` run raises V8's interrupt budget 4× (see
 * bin/load-cli.js), which this row does not.
 *
 *   node --import tsx bench/cel/corpus-vs-cel-js.ts [--rounds N] [--cold]     (npm run bench:cel-corpus)
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Environment } from "@marcbachmann/cel-js";
import { expandPaths } from "../../src/cli/files.js";
import { Env, isCompileFailure } from "../../src/cel/env.js";
import { decodeDocuments } from "../../src/io/decode.js";
import { KUBE_OPAQUE_TYPES, kubeLibraryFunctions } from "../../src/rules/library/functions.js";
import { corpusRoot } from "../../test/corpus-root.js";

function collect(node: unknown, out: Set<string>): void {
  if (Array.isArray(node)) {
    for (const x of node) collect(x, out);
    return;
  }
  if (node === null || typeof node !== "object") return;
  for (const [k, v] of Object.entries(node)) {
    if (k === "x-kubernetes-validations" && Array.isArray(v)) {
      for (const r of v as Record<string, unknown>[]) {
        if (typeof r?.["rule"] === "string") out.add(r["rule"]);
        if (typeof r?.["messageExpression"] === "string") out.add(r["messageExpression"]);
      }
    } else collect(v, out);
  }
}

const ci = process.argv.indexOf("--child");
const ri = process.argv.indexOf("--rounds");
const rounds = ri >= 0 ? Number(process.argv[ri + 1]) : 5;

const crdkit = new Env({ opaqueTypes: KUBE_OPAQUE_TYPES, functions: kubeLibraryFunctions(), extendedValidations: true, variables: { self: "dyn", oldSelf: "dyn" } });
const marc = new Environment({ unlistedVariablesAreDyn: true });
// without Kubernetes' AST validators (the strings library's format check stays: it runs only on `format` calls)
const bare = new Env({ opaqueTypes: KUBE_OPAQUE_TYPES, functions: kubeLibraryFunctions(), variables: { self: "dyn", oldSelf: "dyn" } });
const crdkitCheck = (r: string) => !isCompileFailure(bare.compile(r));
const crdkitCompile = (r: string) => {
  const c = crdkit.compile(r);
  if (isCompileFailure(c)) return false;
  crdkit.program(c);
  return true;
};
const marcCompile = (r: string) => {
  try {
    return marc.parse(r).check().valid === true;
  } catch {
    return false;
  }
};
const crdkitFirstEval = (r: string) => {
  const c = crdkit.compile(r);
  if (isCompileFailure(c)) return false;
  crdkit.program(c).eval({});
  return true;
};
if (ci >= 0) {
  // one cold pass of one engine over the expressions both compile (listed by the parent)
  const list = JSON.parse(readFileSync(process.argv[ci + 2] as string, "utf8")) as string[];
  const engine = process.argv[ci + 1];
  const fn = engine === "crdkit" ? crdkitCompile : engine === "crdkit-check" ? crdkitCheck : marcCompile;
  const t = process.cpuUsage();
  for (const r of list) fn(r);
  const d = process.cpuUsage(t);
  process.stdout.write(String((d.user + d.system) / 1000));
  process.exit(0);
}
const set = new Set<string>();
const files = expandPaths([corpusRoot()]).filter((f) => f.includes("/crds/"));
for (const f of files) for (const d of decodeDocuments(readFileSync(f, "utf8"))) collect(d.value, set);
const rules = [...set];
// the expressions both engines compile (cel-js lacks the Kubernetes libraries)
const both = rules.filter((r) => crdkitCompile(r) && marcCompile(r));
if (process.argv.includes("--cold")) {
  const dir = mkdtempSync(join(tmpdir(), "cel-cold-"));
  const listFile = join(dir, "both.json");
  writeFileSync(listFile, JSON.stringify(both));
  const self = fileURLToPath(import.meta.url);
  const cold = { crdkit: [] as number[], marc: [] as number[], check: [] as number[] };
  for (let i = 0; i < rounds; i++) {
    for (const [engine, out] of [["crdkit", cold.crdkit], ["cel-js", cold.marc], ["crdkit-check", cold.check]] as const) {
      out.push(Number(execFileSync(process.execPath, ["--import", "tsx", self, "--child", engine, listFile], { encoding: "utf8" })));
    }
  }
  rmSync(dir, { recursive: true, force: true });
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  console.log(`${both.length} expressions compiled once in a fresh process per engine; ${rounds} rounds, CPU time`);
  for (const [label, pick] of [["best", (xs: number[]) => Math.min(...xs)], ["median", med]] as const) {
    const c = pick(cold.crdkit);
    const m = pick(cold.marc);
    const k = pick(cold.check);
    console.log(`${label} round: crdkit ${((c * 1000) / both.length).toFixed(1)} µs/expression (${c.toFixed(0)} ms), cel-js ${((m * 1000) / both.length).toFixed(1)} µs/expression (${m.toFixed(0)} ms), ratio ${(m / c).toFixed(2)}x; crdkit parse + check ${k.toFixed(0)} ms, ratio ${(m / k).toFixed(2)}x`);
  }
  process.exit(0);
}

/** CPU milliseconds (user + system) of one pass over `list`. */
function time(fn: (r: string) => boolean, list: readonly string[]): number {
  const t = process.cpuUsage();
  for (const r of list) fn(r);
  const d = process.cpuUsage(t);
  return (d.user + d.system) / 1000;
}
const runs = { crdkit: [] as number[], marc: [] as number[], crdkitAll: [] as number[], check: [] as number[], crdkitEval: [] as number[] };
for (let i = 0; i < rounds; i++) {
  runs.crdkit.push(time(crdkitCompile, both));
  runs.marc.push(time(marcCompile, both));
  runs.crdkitAll.push(time(crdkitCompile, rules));
  runs.check.push(time(crdkitCheck, both));
  runs.crdkitEval.push(time(crdkitFirstEval, both));
}
const best = (xs: number[]) => Math.min(...xs);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const us = (ms: number, n: number) => `${((ms * 1000) / n).toFixed(1)} µs/expression`;
console.log(`${rules.length} distinct corpus expressions from ${files.length} CRD files; ${both.length} compile in both engines; ${rounds} rounds, CPU time`);
for (const [label, pick] of [["best", best], ["median", median]] as const) {
  console.log(`${label} round:`);
  console.log(`  crdkit  ${us(pick(runs.crdkit), both.length)}   (all ${rules.length}: ${us(pick(runs.crdkitAll), rules.length)})`);
  console.log(`  cel-js  ${us(pick(runs.marc), both.length)}`);
  console.log(`  compile ratio, no evaluation (cel-js time / crdkit time, > 1: crdkit faster): ${(pick(runs.marc) / pick(runs.crdkit)).toFixed(2)}x`);
  console.log(`  crdkit parse + check (no AST validators, no plan) ${us(pick(runs.check), both.length)}, ratio ${(pick(runs.marc) / pick(runs.check)).toFixed(2)}x`);
  console.log(
    `  crdkit compile + first evaluation (the plan included) ${us(pick(runs.crdkitEval), both.length)}, ratio to cel-js parse + check ${(pick(runs.marc) / pick(runs.crdkitEval)).toFixed(2)}x`,
  );
}
