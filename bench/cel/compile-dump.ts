/**
 * Dumps what CEL compilation produces for every corpus expression, one JSON line each, to compare two
 * builds of the engine after a change that must not alter compile output (performance work):
 *
 * - every distinct corpus rule and messageExpression plus every cel-spec conformance expression, compiled
 *   with `self` / `oldSelf` as `dyn` and the Kubernetes libraries: the issues text and list, or the AST
 *   (ids), positions, macro calls, line offsets, types, references, output type, the static cost (with an
 *   estimator that knows no sizes) and the value of one evaluation;
 * - every rule of every corpus CRD version compiled as the runtime validator compiles it (real schema
 *   types): maximum cost, cardinality, errors, messageExpression cost, whether it uses oldSelf.
 *
 *   node --import tsx bench/cel/compile-dump.ts OUT [SOURCE_ROOT]
 *
 * SOURCE_ROOT is a checkout (or `git archive` copy) whose `src/` is dumped, default this repository; diff
 * the outputs of two roots with `cmp`.
 * @module
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { tests as checking } from "@bufbuild/cel-spec/testdata/checking.js";
import { tests as conformance } from "@bufbuild/cel-spec/testdata/conformance.js";
import { corpusRoot } from "../../test/corpus-root.js";

type Mod = Record<string, unknown>;
// biome-ignore lint/suspicious/noExplicitAny: modules of another source root are loaded untyped
type Any = any;

const out = process.argv[2];
if (out === undefined) throw new Error("usage: compile-dump.ts OUT [SOURCE_ROOT]");
const root = resolve(process.argv[3] ?? join(dirname(fileURLToPath(import.meta.url)), "../.."));
const load = (p: string): Promise<Mod> => import(join(root, p)) as Promise<Mod>;
const { Env, isCompileFailure } = (await load("src/cel/env.ts")) as Any;
const { KUBE_OPAQUE_TYPES, kubeLibraryFunctions } = (await load("src/rules/library/functions.ts")) as Any;
const { decodeDocuments } = (await load("src/io/decode.ts")) as Any;
const { newRuleValidator } = (await load("src/rules/validator.ts")) as Any;
const { newStructural, StructuralError } = (await load("src/structural/new-structural.ts")) as Any;

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** Rule and messageExpression texts under `node`, and conformance `expr` strings. */
function collect(node: unknown, key: string, out: Set<string>): void {
  if (Array.isArray(node)) {
    for (const x of node) collect(x, key, out);
    return;
  }
  if (!isObj(node)) return;
  for (const [k, v] of Object.entries(node)) {
    if (key === "x-kubernetes-validations" && k === key && Array.isArray(v)) {
      for (const r of v) {
        if (isObj(r) && typeof r["rule"] === "string") out.add(r["rule"]);
        if (isObj(r) && typeof r["messageExpression"] === "string") out.add(r["messageExpression"]);
      }
    } else if (key === "expr" && k === key && typeof v === "string") out.add(v);
    else collect(v, key, out);
  }
}

const projects = readdirSync(corpusRoot()).sort();
const crdFiles: string[] = [];
for (const p of projects) {
  try {
    for (const f of readdirSync(join(corpusRoot(), p, "crds")).sort()) if (/\.ya?ml$/.test(f)) crdFiles.push(join(corpusRoot(), p, "crds", f));
  } catch {
    // a project without a crds folder
  }
}
const docs: unknown[] = [];
for (const f of crdFiles) for (const d of decodeDocuments(readFileSync(f, "utf8"))) docs.push(d.value);
const exprs = new Set<string>();
collect(docs, "x-kubernetes-validations", exprs);
collect([checking, conformance], "expr", exprs);

const ser = (v: unknown): string =>
  JSON.stringify(v, (_k, x) =>
    typeof x === "bigint" ? `${x}n` : x instanceof Map ? [...x.entries()] : x instanceof Uint8Array ? [...x] : x,
  );
const env = new Env({
  opaqueTypes: KUBE_OPAQUE_TYPES,
  functions: kubeLibraryFunctions(),
  extendedValidations: true,
  variables: { self: "dyn", oldSelf: "dyn" },
});
const noSizes = { estimateSize: () => undefined, estimateCallCost: () => undefined };
const lines: string[] = [];
for (const r of exprs) {
  const c = env.compile(r);
  if (isCompileFailure(c)) {
    lines.push(ser({ r, issues: c.issues, list: c.issueList }));
    continue;
  }
  let value: string;
  try {
    value = ser(env.program(c).eval({ self: { a: 1 }, oldSelf: { a: 1 } }).value);
  } catch (e) {
    value = `threw ${(e as Error).message}`;
  }
  const info = c.ast.sourceInfo;
  lines.push(
    ser({
      r,
      ast: c.ast.expr,
      positions: info.positions,
      macroCalls: info.macroCalls,
      lineOffsets: info.lineOffsets,
      types: c.checked.types,
      references: c.checked.references,
      outputType: c.outputType,
      cost: env.estimateCost(c, noSizes),
      value,
    }),
  );
}
for (const [i, d] of docs.entries()) {
  if (!isObj(d) || d["kind"] !== "CustomResourceDefinition" || !isObj(d["spec"])) continue;
  const versions = d["spec"]["versions"];
  for (const ver of Array.isArray(versions) ? versions : []) {
    if (!isObj(ver) || !isObj(ver["schema"]) || !isObj(ver["schema"]["openAPIV3Schema"])) continue;
    const s = newStructural(ver["schema"]["openAPIV3Schema"]);
    if (s instanceof StructuralError) continue;
    const walk = (v: Any, path: string): void => {
      if (v === undefined) return;
      for (const c of v.compiled) {
        lines.push(
          ser({
            path,
            rule: c.rule.rule,
            maxCost: c.maxCost,
            maxCardinality: c.maxCardinality,
            error: c.error,
            messageExpressionError: c.messageExpressionError,
            messageExpressionMaxCost: c.messageExpressionMaxCost,
            usesOldSelf: c.usesOldSelf,
          }),
        );
      }
      walk(v.items, `${path}[]`);
      walk(v.additionalProperties, `${path}{}`);
      for (const [k, p] of v.properties ?? []) walk(p, `${path}.${k}`);
      for (const [j, a] of (v.allOf as Any[]).entries()) walk(a, `${path}/allOf${j}`);
    };
    walk(newRuleValidator(s, true), `doc${i}/${String(ver["name"])}`);
  }
}
writeFileSync(out, `${lines.join("\n")}\n`);
console.log(`${lines.length} lines (${exprs.size} expressions, ${crdFiles.length} CRD files) from ${root}/src`);
