/**
 * The setup cost of x-kubernetes-validations in a fresh process: for every version schema of a corpus
 * project's CRDs, the rule validator tree (`newRuleValidator`) and the compilation of every rule node as
 * the runtime validator compiles it (declaration types, environments, parse, check, plan; costs lazily) —
 * what a `crdkit validate` run pays when its documents reach every rule. Each round runs one child
 * process per project (the environments and caches are per process) and reports its CPU time.
 *
 *   node --import tsx bench/cel/rule-setup.ts [project ...] [--rounds N]
 *   (default projects: envoy-gateway gateway-api argo-workflows; N = 5)
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { JSONSchemaProps } from "../../src/crd/types.js";
import { decodeDocuments } from "../../src/io/decode.js";
import { newRuleValidator, type RuleValidator } from "../../src/rules/validator.js";
import { newStructural, StructuralError } from "../../src/structural/new-structural.js";
import type { Structural } from "../../src/structural/structural.js";
import { isObject } from "../../src/value/json-value.js";
import { corpusRoot } from "../../test/corpus-root.js";

function schemas(project: string): Structural[] {
  const dir = join(corpusRoot(), project, "crds");
  const out: Structural[] = [];
  for (const f of readdirSync(dir).filter((n) => /\.ya?ml$/.test(n)).sort()) {
    for (const d of decodeDocuments(readFileSync(join(dir, f), "utf8"))) {
      const v = d.value;
      if (!isObject(v) || v["kind"] !== "CustomResourceDefinition" || !isObject(v["spec"])) continue;
      const versions = v["spec"]["versions"];
      for (const ver of Array.isArray(versions) ? versions : []) {
        if (!isObject(ver) || !isObject(ver["schema"]) || !isObject(ver["schema"]["openAPIV3Schema"])) continue;
        const s = newStructural(ver["schema"]["openAPIV3Schema"] as unknown as JSONSchemaProps);
        if (!(s instanceof StructuralError)) out.push(s);
      }
    }
  }
  return out;
}

/** Compiles every node of a validator tree; returns the number of rules. */
function compileAll(v: RuleValidator | undefined): number {
  if (!v) return 0;
  let n = v.compiled.length;
  n += compileAll(v.items) + compileAll(v.additionalProperties);
  for (const p of v.properties?.values() ?? []) n += compileAll(p);
  for (const a of v.allOf) n += compileAll(a);
  return n;
}

function child(project: string): void {
  const list = schemas(project);
  const t = process.cpuUsage();
  let rules = 0;
  for (const s of list) rules += compileAll(newRuleValidator(s, true));
  const d = process.cpuUsage(t);
  process.stdout.write(JSON.stringify({ ms: (d.user + d.system) / 1000, rules, schemas: list.length }));
}

function main(): void {
  const args = process.argv.slice(2);
  const ci = args.indexOf("--child");
  if (ci >= 0) {
    child(args[ci + 1] as string);
    return;
  }
  const ri = args.indexOf("--rounds");
  const rounds = ri >= 0 ? Number(args[ri + 1]) : 5;
  const named = args.filter((a, i) => !a.startsWith("--") && (ri < 0 || i !== ri + 1));
  const projects = named.length > 0 ? named : ["envoy-gateway", "gateway-api", "argo-workflows"];
  const self = fileURLToPath(import.meta.url);
  const runs = new Map<string, number[]>(projects.map((p) => [p, []]));
  const info = new Map<string, string>();
  for (let r = 0; r < rounds; r++) {
    for (const p of projects) {
      const out = JSON.parse(execFileSync(process.execPath, ["--import", "tsx", self, "--child", p], { encoding: "utf8" })) as { ms: number; rules: number; schemas: number };
      runs.get(p)?.push(out.ms);
      info.set(p, `${out.rules} rules in ${out.schemas} schemas`);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  for (const p of projects) {
    const xs = runs.get(p) ?? [];
    console.log(`${p.padEnd(16)} ${info.get(p)}: best ${Math.min(...xs).toFixed(0)} ms, median ${median(xs).toFixed(0)} ms CPU (${rounds} rounds)`);
  }
}

main();
