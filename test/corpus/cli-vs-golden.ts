/**
 * `crdkit validate` (runValidate, as the CLI runs it: Strict field validation, the project's CRD files, its
 * example files) against the Kubernetes oracle's answers recorded in test/golden/corpus/<project>.json.
 * The engine-level comparison (test/golden/lib/corpus.ts) feeds each document to compileCrd directly; this
 * one goes through the CLI's file reading, document splitting, kind resolution and result building, so a
 * document whose CLI verdict or texts differ from the real code shows up here.
 *
 * A golden record is matched to a CLI result by the sha256 of its JSON form (the document index the CLI
 * reports skips empty documents, the oracle's does not). The oracle registers the first CRD of a name (in
 * file order); the CLI uses the last one given, so the CRD files are passed in reverse order.
 * (test/corpus/corpus.test.ts checks the same documents for crashes and located errors.)
 */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { goJsonMarshal } from "../../src/go/json.js";
import { decodeDocuments } from "../../src/io/decode.js";
import type { Result } from "../../src/cli/results.js";
import { runValidate } from "../../src/cli/run-validate.js";
import type { BuiltinLookup } from "../../src/cli/kind-resolution.js";
import { isObject, type JsonObject, type JsonValue } from "../../src/value/json-value.js";
import { diffLists } from "../golden/lib/compare.js";
import { sha256 } from "../golden/lib/corpus.js";

export interface CliOutcome {
  id: string;
  /** Empty when the CLI agrees with the oracle. */
  diffs: string[];
  /**
   * Why a difference is by design: the document has a duplicate YAML key, which the CLI reports as the
   * API server's strict decoding error of a YAML body, while the oracle received kubectl's JSON (where the
   * duplicate is already gone).
   */
  byDesign?: string;
}

const strs = (v: JsonValue | undefined): string[] => (Array.isArray(v) ? v.map((x) => String(x)) : []);

/** Compares one project of the corpus; one outcome per golden example record. */
export function compareProjectCli(golden: JsonObject, corpusRoot: string, builtins: BuiltinLookup): CliOutcome[] {
  const project = String(golden["project"]);
  const root = join(corpusRoot, project);
  // kubectl-validate's test suite has a CRD of CustomResourceDefinitions: the oracle validates CRD documents
  // as its instances, while the CLI (like the API server, whose built-in kind comes first) checks them as CRDs
  const records = (Array.isArray(golden["examples"]) ? golden["examples"].filter(isObject) : []).filter(
    (r) => r["setupError"] === undefined && r["crd"] !== "customresourcedefinitions.apiextensions.k8s.io",
  );
  // the files the oracle read its CRDs from (crds/, or kubectl-validate's testcases/crds/)
  const crdFiles = [...new Set((Array.isArray(golden["crds"]) ? golden["crds"].filter(isObject) : []).map((r) => join(root, String(r["file"]))))];
  const inputFiles = [...new Set(records.map((r) => join(root, String(r["file"]))))].sort();
  const results = runValidate({
    crds: crdFiles.reverse(),
    old: [],
    inputs: inputFiles,
    fieldValidation: "Strict",
    showObject: false,
    ignoreMissingSchemas: true,
    builtins,
  });
  const byIndex = new Map<string, Result>();
  for (const r of results) if (r.item === undefined) byIndex.set(`${relative(root, r.file)}#${r.index}`, r);
  // sha256 of each document's JSON → its index and duplicate-key errors
  const docs = new Map<string, Map<string, { index: number; strict: string[] }>>();
  const docsOf = (file: string) => {
    let m = docs.get(file);
    if (!m) {
      m = new Map();
      for (const d of decodeDocuments(readFileSync(join(root, file), "utf8"))) {
        if (d.value !== undefined) m.set(sha256(goJsonMarshal(d.value)), { index: d.index, strict: d.strictErrors });
      }
      docs.set(file, m);
    }
    return m;
  };
  const out: CliOutcome[] = [];
  for (const rec of records) {
    const file = String(rec["file"]);
    const id = `corpus/${project}/${file}#${String(rec["doc"])}`;
    const doc = docsOf(file).get(String(rec["bodySha256"]));
    const r = doc && byIndex.get(`${file}#${doc.index}`);
    if (!doc || !r) {
      out.push({ id, diffs: [doc ? "no CLI result for this document" : "input not found"] });
      continue;
    }
    const diffs: string[] = [];
    const code = typeof rec["code"] === "number" ? rec["code"] : 0;
    const gValid = code >= 200 && code < 300 && !isObject(rec["crdResult"]);
    if (r.status === "skipped") diffs.push(`skipped by the CLI: ${r.reason ?? ""}`);
    else if (gValid !== r.valid) diffs.push(`verdict differs: kubernetes ${gValid ? "valid" : "invalid"} (${code}), crdkit ${r.valid ? "valid" : "invalid"}`);
    const gDecode = typeof rec["decodeError"] === "string" ? rec["decodeError"] : "";
    if (gDecode !== (r.decodeError ?? "")) diffs.push("decodeError differs:", `    - ${gDecode || "<none>"}`, `    + ${r.decodeError ?? "<none>"}`);
    const gErrors = (Array.isArray(rec["errors"]) ? rec["errors"].filter(isObject) : []).map((e) => String(e["message"]));
    const cErrors = r.errors.filter((e) => !["DecodeError", "UnknownField", "DuplicateField"].includes(e.type)).map((e) => e.message);
    diffs.push(...diffLists("errors", gErrors, cErrors, rec["errorOrder"] === "unordered"));
    diffs.push(...diffLists("warnings", strs(rec["warnings"]), r.warnings.map((w) => w.message)));
    const dup = doc.strict.length > 0 && gDecode === "" && r.errors.some((e) => e.type === "DuplicateField");
    out.push(dup && diffs.length > 0 ? { id, diffs, byDesign: `duplicate YAML key: ${doc.strict.join("; ")}` } : { id, diffs });
  }
  return out;
}
