/**
 * kubectl-validate's own test cases (`testcases/manifests/*.yaml` of sigs.k8s.io/kubectl-validate, in
 * the shared corpus): each YAML document carries kubectl-validate's expected result as a leading comment
 * (a JSON `metav1.Status`). This module reads those expectations and runs the same files through
 * `crdkit validate`, as comparable lists of messages per document.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { Result } from "../../src/cli/results.js";
import { builtinKindLookup } from "../../src/cli/builtin-lookup.js";
import { runValidate } from "../../src/cli/run-validate.js";

/** One non-empty YAML document of a case file. */
export interface CaseDocument {
  /** `file.yaml#N` (N: 0-based among the file's non-empty documents). */
  id: string;
  /** kubectl-validate's expectation: `field: message` per cause, the Status message when there are none; [] for success. */
  kubectlValidate: string[];
  /** crdkit's result in the same form (`skipped: reason` for a skipped document). */
  crdkit: string[];
}

interface Status {
  status?: string;
  message?: string;
  details?: { causes?: { field?: string; message?: string }[] };
}

/** Splits like apimachinery's YAMLReader: on `---` lines, dropping empty chunks. */
function splitYaml(text: string): string[] {
  const docs: string[] = [];
  let cur: string[] = [];
  for (const line of text.split("\n")) {
    if (line.startsWith("---") && line.slice(3).trim() === "") {
      if (cur.length > 0) docs.push(cur.join("\n"));
      cur = [];
    } else cur.push(line);
  }
  if (cur.length > 0 && cur.join("\n") !== "") docs.push(cur.join("\n"));
  return docs;
}

/** kubectl-validate's `IsEmptyYamlDocument`: only blank lines, comments and `---`. */
function isEmptyDocument(doc: string): boolean {
  return doc.split("\n").every((l) => {
    const t = l.trim();
    return t === "" || t.startsWith("#") || t === "---";
  });
}

/** The leading comment block of a document, parsed as kubectl-validate's test does. */
function expectation(doc: string): string[] {
  const comment: string[] = [];
  for (const line of doc.split("\n")) {
    if (comment.length === 0 && line.trim() === "") continue;
    if (!line.startsWith("#")) break;
    comment.push(line.slice(1));
  }
  const s = JSON.parse(comment.join("\n")) as Status;
  if (s.status === "Success") return [];
  const causes = s.details?.causes ?? [];
  if (causes.length === 0) return [s.message ?? ""];
  return causes.map((c) => (c.field ? `${c.field}: ${c.message ?? ""}` : (c.message ?? "")));
}

function crdkitMessages(r: Result): string[] {
  if (r.status === "skipped") return [`skipped: ${r.reason ?? ""}`];
  return r.errors.map((e) => e.message);
}

/** Runs every case file of `testcases/` through crdkit (CRDs from `testcases/crds`, as upstream's test). */
export function runKubectlValidateCases(testcases: string, kubernetesVersion: string): CaseDocument[] {
  const dir = join(testcases, "manifests");
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".yaml"))
    .sort();
  const results = runValidate({
    crds: [join(testcases, "crds")],
    old: [],
    inputs: files.map((f) => join(dir, f)),
    fieldValidation: "Strict",
    showObject: false,
    builtins: builtinKindLookup(kubernetesVersion),
  });
  const out: CaseDocument[] = [];
  for (const f of files) {
    const docs = splitYaml(readFileSync(join(dir, f), "utf8")).filter((d) => !isEmptyDocument(d));
    const mine = results.filter((r) => r.file === join(dir, f));
    docs.forEach((d, i) => {
      const r = mine[i];
      out.push({ id: `${f}#${i}`, kubectlValidate: expectation(d), crdkit: r ? crdkitMessages(r) : ["(no result)"] });
    });
    if (mine.length !== docs.length) out.push({ id: `${f}#count`, kubectlValidate: [String(docs.length)], crdkit: [String(mine.length)] });
  }
  return out;
}
