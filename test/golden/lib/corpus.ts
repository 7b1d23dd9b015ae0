/**
 * Comparison of crdkit with the corpus goldens (test/golden/corpus/<project>.json): every CRD of the
 * project through validateCrdCreate, every example custom resource through compileCrd(...).create in
 * Strict mode. Inputs are read from the corpus directory (not in the repository) and matched to the
 * golden records by the sha256 of their JSON form (Go json.Marshal of the YAML document, as kubectl
 * sends it).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";
import { goJsonMarshal } from "../../../src/go/json.js";
import { type JsonObject, type JsonValue, isObject } from "../../../src/value/json-value.js";
import { type CompileOutcome, type CrdkitApi, compileWith } from "./crdkit-api.js";
import { diffErrors, diffLists, type GoldenError, withOracleGeneratedName } from "./compare.js";

export const sha256 = (s: string): string => createHash("sha256").update(s).digest("hex");

type DecodeDocuments = (text: string) => { value?: JsonValue }[];
let crdkitDecode: DecodeDocuments | undefined;
try {
  // crdkit's own manifest reader (src/io), when present: its conversions are then under test too
  const io = (await import("../../../src/io/index.js")) as Record<string, unknown>;
  if (typeof io["decodeDocuments"] === "function") crdkitDecode = io["decodeDocuments"] as DecodeDocuments;
} catch {
  crdkitDecode = undefined;
}

/**
 * Documents of a corpus file: through crdkit's reader (src/io `decodeDocuments`) when it exists, else
 * an approximation of kubectl's conversion (YAML 1.1 scalars, timestamps kept as strings). A document
 * the reader converts differently from kubectl shows up as "input not found".
 */
export function yamlDocs(path: string): JsonValue[] {
  const text = readFileSync(path, "utf8");
  if (crdkitDecode) {
    const out: JsonValue[] = [];
    for (const d of crdkitDecode(text)) if (d.value !== undefined) out.push(d.value);
    return out;
  }
  const docs = parseAllDocuments(text, {
    version: "1.1",
    merge: true,
    uniqueKeys: false,
    logLevel: "error",
    customTags: (tags) => tags.filter((t) => (typeof t === "string" ? t !== "timestamp" : t.tag !== "tag:yaml.org,2002:timestamp")),
  });
  const out: JsonValue[] = [];
  for (const d of Array.isArray(docs) ? docs : [docs]) {
    if (!("toJS" in d) || d.errors.length > 0) continue;
    try {
      out.push(d.toJS({ maxAliasCount: -1 }) as JsonValue);
    } catch {
      // skipped like an unparsable document
    }
  }
  return out;
}

function strs(v: JsonValue | undefined): string[] {
  return Array.isArray(v) ? v.map((x) => String(x)) : [];
}

function errs(v: JsonValue | undefined): GoldenError[] {
  return Array.isArray(v) ? (v.filter(isObject) as unknown as GoldenError[]) : [];
}

export interface CorpusOutcome {
  id: string;
  diffs: string[];
}

/** Compares one project; returns one outcome per golden record. */
export function compareProject(api: CrdkitApi, golden: JsonObject, corpusRoot: string): CorpusOutcome[] {
  const project = String(golden["project"]);
  const root = join(corpusRoot, project);
  const docCache = new Map<string, Map<string, JsonObject>>();
  const docsOf = (file: string): Map<string, JsonObject> => {
    let m = docCache.get(file);
    if (!m) {
      m = new Map();
      try {
        for (const d of yamlDocs(join(root, file))) if (isObject(d)) m.set(sha256(goJsonMarshal(d)), d);
      } catch {
        // missing file: every record of it reports "input not found"
      }
      docCache.set(file, m);
    }
    return m;
  };
  const out: CorpusOutcome[] = [];
  const crdByName = new Map<string, JsonObject>();
  for (const rec of Array.isArray(golden["crds"]) ? golden["crds"].filter(isObject) : []) {
    const id = `corpus/${project}/${String(rec["file"])}#${String(rec["doc"])}`;
    const doc = docsOf(String(rec["file"])).get(String(rec["bodySha256"]));
    if (!doc) {
      out.push({ id, diffs: ["input not found: no YAML document of this file converts to the JSON the oracle used"] });
      continue;
    }
    if (!crdByName.has(String(rec["name"]))) crdByName.set(String(rec["name"]), doc);
    const res = rec["result"];
    if (!isObject(res) || res["setupError"] !== undefined || res["decodeError"] !== undefined) continue;
    if (!api.validateCrdCreate) {
      out.push({ id, diffs: [api.missing["validateCrdCreate"] ?? "no validateCrdCreate"] });
      continue;
    }
    try {
      const r = api.validateCrdCreate(doc);
      const d = diffErrors("errors", errs(res["errors"]), r.errors ?? [], true);
      if ((r.errors ?? []).length === 0) d.push(...diffLists("warnings", strs(res["warnings"]), r.warnings ?? [], true));
      out.push({ id, diffs: d });
    } catch (e) {
      out.push({ id, diffs: [`crdkit threw: ${e instanceof Error ? e.message : String(e)}`] });
    }
  }
  const compiled = new Map<string, CompileOutcome>();
  for (const rec of Array.isArray(golden["examples"]) ? golden["examples"].filter(isObject) : []) {
    const id = `corpus/${project}/${String(rec["file"])}#${String(rec["doc"])}`;
    if (rec["setupError"] !== undefined) continue;
    const doc = docsOf(String(rec["file"])).get(String(rec["bodySha256"]));
    const crd = crdByName.get(String(rec["crd"]));
    if (!doc || !crd) {
      out.push({ id, diffs: [doc ? "CRD input not found" : "input not found: no YAML document of this file converts to the JSON the oracle used"] });
      continue;
    }
    let c = compiled.get(String(rec["crd"]));
    if (!c) {
      c = compileWith(api, crd);
      compiled.set(String(rec["crd"]), c);
    }
    if (isObject(rec["crdResult"])) {
      out.push({ id, diffs: c.ok ? ["kubernetes rejects this CRD, crdkit compiled it"] : [] });
      continue;
    }
    if (!c.ok) {
      out.push({ id, diffs: [`compileCrd failed: ${c.message}`] });
      continue;
    }
    try {
      const version = typeof rec["version"] === "string" ? rec["version"] : undefined;
      const r = c.compiled.create(doc, { fieldValidation: "Strict", wipeSystemFields: true, ...(version ? { version } : {}) });
      const d: string[] = [];
      const gDecode = typeof rec["decodeError"] === "string" ? rec["decodeError"] : "";
      if (gDecode !== (r.decodeError ?? "")) d.push("decodeError differs:", `    - ${gDecode || "<none>"}`, `    + ${r.decodeError ?? "<none>"}`);
      d.push(...diffErrors("errors", errs(rec["errors"]), r.errors ?? [], rec["errorOrder"] === "unordered"));
      d.push(...diffLists("warnings", strs(rec["warnings"]), r.warnings ?? []));
      // stored object on success, else the object as validated (what crdkit returns next to errors)
      const stored = typeof rec["objectSha256"] === "string" ? rec["objectSha256"] : null;
      const gSha = stored ?? (typeof rec["validatedObjectSha256"] === "string" ? rec["validatedObjectSha256"] : null);
      if (gSha !== null) {
        const md = doc["metadata"];
        const gen = isObject(md) && typeof md["generateName"] === "string" && !md["name"] ? md["generateName"] : undefined;
        const obj = r.object && gen !== undefined ? withOracleGeneratedName(gen, r.object) : r.object;
        const aSha = obj ? sha256(goJsonMarshal(obj)) : null;
        if (gSha !== aSha) {
          d.push(`${stored ? "stored" : "validated"} object differs (sha256 of json.Marshal): kubernetes ${gSha}, crdkit ${aSha ?? "none"}`);
        }
      }
      out.push({ id, diffs: d });
    } catch (e) {
      out.push({ id, diffs: [`crdkit threw: ${e instanceof Error ? e.message : String(e)}`] });
    }
  }
  return out;
}
