/**
 * One cold pass of CEL compilation over the corpus rules, for instruction counts under valgrind
 * (steadier than CPU time on a loaded machine). Driven by `bench/cel/cold-instructions.sh`, which runs
 * every mode in its own process and prints the differences to `none` (set-up only) per phase.
 *
 *   node bench/cel/cold-instructions.mjs ROOT --list OUT     writes the expressions both engines compile
 *   node bench/cel/cold-instructions.mjs ROOT MODE LIST      one pass: none | parse | check | compile | program | cel-js
 *
 * ROOT is a checkout whose `dist/` is built (`npx tsc -p tsconfig.build.json`). Modes: `parse` (parser
 * alone), `check` (parse + type-check, no AST validators), `compile` (with Kubernetes' AST validators),
 * `program` (compile + plan, what bench:cel-corpus times), `cel-js` (@marcbachmann/cel-js parse + check).
 * Every mode does the same set-up (modules loaded, environments and the runtime function registry
 * built) before its pass.
 * @module
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { celPasses, loadCelEngines } from "./cel-engines.mjs";

/** test/corpus-root.ts's answer (this file runs without tsx): $CRDKIT_CORPUS, ../shared/corpus, /work/shared/corpus. */
function corpus() {
  const beside = resolve(dirname(fileURLToPath(import.meta.url)), "../../../shared/corpus");
  return process.env.CRDKIT_CORPUS || (existsSync(beside) ? beside : "/work/shared/corpus");
}

const [root, mode, listFile] = process.argv.slice(2);
if (root === undefined || mode === undefined) throw new Error("usage: cold-instructions.mjs ROOT (--list OUT | MODE LIST)");
const engines = await loadCelEngines(root);
const { dist, isCompileFailure, full, marc } = engines;

if (mode === "--list") {
  const { expandPaths } = await dist("cli/files.js");
  const { decodeDocuments } = await dist("io/decode.js");
  const set = new Set();
  const collect = (node) => {
    if (Array.isArray(node)) for (const x of node) collect(x);
    else if (node !== null && typeof node === "object")
      for (const [k, v] of Object.entries(node)) {
        if (k === "x-kubernetes-validations" && Array.isArray(v)) {
          for (const r of v) {
            if (typeof r?.rule === "string") set.add(r.rule);
            if (typeof r?.messageExpression === "string") set.add(r.messageExpression);
          }
        } else collect(v);
      }
  };
  for (const f of expandPaths([corpus()]).filter((f) => f.includes("/crds/")))
    for (const d of decodeDocuments(readFileSync(f, "utf8"))) collect(d.value);
  const both = [...set].filter((r) => {
    if (isCompileFailure(full.compile(r))) return false;
    try {
      return marc.parse(r).check().valid === true;
    } catch {
      return false;
    }
  });
  writeFileSync(listFile, JSON.stringify(both));
  console.log(`${both.length} expressions`);
  process.exit(0);
}

const list = JSON.parse(readFileSync(listFile, "utf8"));
const passes = celPasses(engines, list);
const pass = passes[mode];
if (pass === undefined) throw new Error(`unknown mode ${mode}`);
// PASSES=N repeats the pass (warm instructions per pass: (run with N) - (run with M), divided by N - M)
const passCount = Number(process.env.PASSES ?? 1);
for (let i = 0; i < passCount; i++) {
  const n = pass();
  if (mode !== "none" && n !== list.length) throw new Error(`${mode}: ${n} of ${list.length} expressions compiled`);
}
