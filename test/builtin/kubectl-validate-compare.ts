/**
 * Comparing crdkit with kubectl-validate on built-in kinds: the corpus documents of built-in kinds, both
 * tools' messages in one form (`field: message` per cause), and the classes of known differences. Used by
 * `scripts/compare-kubectl-validate.ts` (live, with the kubectl-validate binary) and by
 * `kubectl-validate-corpus.test.ts` (against kubectl-validate's recorded answers).
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { BuiltinKind } from "../../src/builtin/builtin-kind.js";
import type { BuiltinSchemas } from "../../src/builtin/builtin-schemas.js";
import type { Result } from "../../src/cli/results.js";
import { decodeDocuments } from "../../src/io/decode.js";

function* yamlFiles(dir: string): Generator<string> {
  for (const e of readdirSync(dir).sort()) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) yield* yamlFiles(p);
    else if (/\.ya?ml$/.test(e)) yield p;
  }
}

/** The non-empty documents of a YAML stream, split on `---` lines as apimachinery's YAMLReader does. */
export function splitYaml(text: string): string[] {
  const docs: string[] = [];
  let cur: string[] = [];
  for (const line of text.split("\n")) {
    if (line.startsWith("---") && line.slice(3).trim() === "") {
      if (cur.length > 0) docs.push(cur.join("\n"));
      cur = [];
    } else cur.push(line);
  }
  if (cur.length > 0) docs.push(cur.join("\n"));
  return docs.filter((d) => d.split("\n").some((l) => l.trim() !== "" && !l.trim().startsWith("#")));
}

/** Every document of a built-in kind of `release` in the corpus (CRD folders left out), by `path#index`. */
export function builtinDocuments(root: string, builtins: BuiltinSchemas, release: string): { source: string; text: string }[] {
  const out: { source: string; text: string }[] = [];
  for (const f of yamlFiles(root)) {
    if (f.includes("/crds/") || f.includes("/more-crds/")) continue;
    splitYaml(readFileSync(f, "utf8")).forEach((text, i) => {
      let v: unknown;
      try {
        v = decodeDocuments(text)[0]?.value;
      } catch {
        return;
      }
      if (typeof v !== "object" || v === null || Array.isArray(v)) return;
      const o = v as Record<string, unknown>;
      if (typeof o["apiVersion"] !== "string" || typeof o["kind"] !== "string") return;
      if (builtins.lookup(o["apiVersion"], o["kind"], release) instanceof BuiltinKind) out.push({ source: `${relative(root, f)}#${i}`, text });
    });
  }
  return out;
}

/** kubectl-validate's `-o json` answer for one document (a `metav1.Status`). */
export interface Status {
  status?: string;
  message?: string;
  details?: { causes?: { field?: string; message?: string }[] };
}

export function kubectlValidateMessages(s: Status): string[] {
  if (s.status === "Success") return [];
  const causes = s.details?.causes ?? [];
  return causes.length === 0 ? [s.message ?? ""] : causes.map((c) => (c.field ? `${c.field}: ${c.message ?? ""}` : (c.message ?? "")));
}

export function crdkitMessages(r: Result | undefined): string[] {
  return !r ? ["(no result)"] : r.status === "skipped" ? [`skipped: ${r.reason ?? ""}`] : r.errors.map((e) => e.message);
}

/** Classes in which crdkit's verdict differs from kubectl-validate's on purpose (crdkit follows the API server). */
export const VERDICT_CLASSES: ReadonlySet<string> = new Set([
  "int-or-string type checked (kubectl-validate does not)",
  "namespace not checked by kubectl-validate (its scope bug: a group-version's kinds all get the scope of the first kind it validated)",
]);

/** The class of a difference between kubectl-validate's (`k`) and crdkit's (`c`) messages; "other" when unexplained. */
export function classify(k: string[], c: string[]): string {
  if (JSON.stringify([...k].sort()) === JSON.stringify([...c].sort())) return "same messages in another order (kubectl-validate follows Go's random map order)";
  const unknownK = k.filter((m) => m.endsWith(": Invalid value: value provided for unknown field")).map((m) => m.split(":")[0]);
  const unknownC = c.filter((m) => m.startsWith("unknown field ")).map((m) => m.slice(15, -1));
  if (unknownK.length > 0 && unknownK.length === k.length && JSON.stringify(unknownK.sort()) === JSON.stringify(unknownC.sort())) {
    return "unknown fields: same fields, API server's text";
  }
  if (k.length === 0 && c.length > 0 && c.every((m) => m.includes("in body must be of type integer,string"))) return "int-or-string type checked (kubectl-validate does not)";
  if (k.length === 0 && c.length > 0 && c.every((m) => m.startsWith("metadata.namespace: "))) {
    return "namespace not checked by kubectl-validate (its scope bug: a group-version's kinds all get the scope of the first kind it validated)";
  }
  if (k.length === 1 && c.length === 1 && c[0]!.includes("cannot be handled as a") && c[0]!.endsWith(`: ${k[0]}`)) return "decode error: API server's full text";
  if (k.length === 1 && c.length === 1 && c[0] === `yaml: unmarshal errors:\n  ${k[0]}`) return "duplicate key: go-yaml's full text";
  const goSyntax = (m: string) => m.replace(/map\[string\]interface \{\}\{/g, "{").replace(/\[\]interface \{\}\{\}/g, "[]");
  if (k.some((m) => m.includes("interface {}")) && JSON.stringify(k.map(goSyntax)) === JSON.stringify(c.map(goSyntax).map((m) => m.replace(/,"/g, ', "')))) {
    return "values rendered with Go's %#v by the older apimachinery in kubectl-validate v0.0.4";
  }
  return "other";
}
