/**
 * Comparing crdkit with kubeconform on the custom resources of the corpus, Kubernetes (the corpus goldens
 * recorded by tools/k8s-oracle) as the referee: the documents and their CRDs, the three verdicts, and the
 * classes of disagreement. Used by `scripts/compare-kubeconform.ts` (live, with the kubeconform binary) and
 * by `kubeconform-corpus.test.ts` (against kubeconform's recorded answers).
 */
import { join } from "node:path";
import type { Result } from "../../src/cli/results.js";
import { goJsonMarshal } from "../../src/go/json.js";
import { type JsonObject, type JsonValue, isObject } from "../../src/value/json-value.js";
import { sha256, yamlDocs } from "../golden/lib/corpus.js";

export type Verdict = "valid" | "invalid";

/** One resource of kubeconform's `-output json -verbose` answer (without `filename`). */
export interface KubeconformAnswer {
  kind?: string;
  name?: string;
  version?: string;
  status: string;
  msg?: string;
  validationErrors?: { path: string; msg: string }[];
}

export interface CorpusResource {
  /** `<file>#<doc>` in the project. */
  id: string;
  /** The request body the oracle sent. */
  body: JsonObject;
  /** The CRD (by name) the oracle used. */
  crd: string;
  /** The API server's verdict (Strict create). */
  kubernetes: Verdict;
}

/**
 * The custom resources of one project's corpus golden with their CRDs (the oracle's: the first CRD of
 * each name), read from the corpus; records the oracle could not run, or whose input is not found, are left out.
 */
export function corpusCustomResources(root: string, golden: JsonValue): { crds: Map<string, JsonObject>; docs: CorpusResource[] } {
  const crds = new Map<string, JsonObject>();
  const docs: CorpusResource[] = [];
  if (!isObject(golden)) return { crds, docs };
  const dir = join(root, String(golden["project"]));
  const cache = new Map<string, Map<string, JsonObject>>();
  const docsOf = (file: string): Map<string, JsonObject> => {
    let m = cache.get(file);
    if (!m) {
      m = new Map();
      try {
        for (const d of yamlDocs(join(dir, file))) if (isObject(d)) m.set(sha256(goJsonMarshal(d)), d);
      } catch {
        // a missing file: its records are left out
      }
      cache.set(file, m);
    }
    return m;
  };
  for (const rec of Array.isArray(golden["crds"]) ? golden["crds"].filter(isObject) : []) {
    const doc = docsOf(String(rec["file"])).get(String(rec["bodySha256"]));
    if (doc && !crds.has(String(rec["name"]))) crds.set(String(rec["name"]), doc);
  }
  const used = new Map<string, JsonObject>();
  for (const rec of Array.isArray(golden["examples"]) ? golden["examples"].filter(isObject) : []) {
    if (rec["setupError"] !== undefined) continue;
    const body = docsOf(String(rec["file"])).get(String(rec["bodySha256"]));
    const crd = crds.get(String(rec["crd"]));
    // CustomResourceDefinition documents validated against a CRD of CRDs (kubectl-validate's test data)
    // are CRDs to both tools, not custom resources
    if (!body || !crd || String(body["apiVersion"]).startsWith("apiextensions.k8s.io/")) continue;
    used.set(String(rec["crd"]), crd);
    const errors = Array.isArray(rec["errors"]) ? rec["errors"] : [];
    const invalid = rec["crdResult"] !== undefined || rec["decodeError"] !== undefined || errors.length > 0;
    docs.push({ id: `${String(rec["file"])}#${String(rec["doc"])}`, body, crd: String(rec["crd"]), kubernetes: invalid ? "invalid" : "valid" });
  }
  return { crds: used, docs };
}

export function crdkitVerdict(r: Result | undefined): Verdict {
  return r?.status === "valid" ? "valid" : "invalid";
}

/** kubeconform's verdict: `statusValid` is valid; invalid, error (schema or document unreadable) and skipped are not. */
export function kubeconformVerdict(a: KubeconformAnswer): Verdict {
  return a.status === "statusValid" ? "valid" : "invalid";
}

/** Classes of disagreement; in each, Kubernetes' verdict is crdkit's (see README, "crdkit vs kubeconform"). */
export const KUBECONFORM_CLASSES = {
  schemaUnusable:
    "kubeconform cannot use the schema openapi2jsonschema writes: a field named `properties` gets `additionalProperties: false` in its parent's property map, which the draft-4 meta-schema refuses, and kubeconform reports `could not find schema`",
  defaults: "a required field has a `default`: the API server defaults before validating, kubeconform validates the document as written",
  nulls:
    "a null value: the API server drops the null of a non-nullable field without default before validating (so a required field holding null is missing), kubeconform validates the null as written (and openapi2jsonschema does not convert `nullable`)",
  formats: "formats (`byte`, `ipv4`, `hostname`, … inside `oneOf`/`anyOf` or alone): the API server checks them, kubeconform treats them as annotations",
  cel: "an `x-kubernetes-validations` (CEL) rule fails: kubeconform does not run CEL",
  listType: "`x-kubernetes-list-type` map/set: a duplicate key or item, which JSON Schema does not express",
  metadata: "metadata (name required, name and namespace format): the API server validates ObjectMeta, the CRD schema leaves `metadata` open",
  rootUnknown: "an unknown field at the top level: openapi2jsonschema leaves the root object open (unless DENY_ROOT_ADDITIONAL_PROPERTIES is set)",
} as const;

const JSON_TYPES = new Set(["string", "integer", "number", "boolean", "object", "array", "null"]);

function crdkitClass(m: string): string {
  if (/^unknown field "[^".]*"$/.test(m)) return KUBECONFORM_CLASSES.rootUnknown;
  if (m.startsWith("metadata.")) return KUBECONFORM_CLASSES.metadata;
  if (/: Duplicate value: /.test(m)) return KUBECONFORM_CLASSES.listType;
  // kubeconform checks `required`: a required field it saw was a null the API server dropped
  if (/^[^ ]+: Required value$/.test(m)) return KUBECONFORM_CLASSES.nulls;
  const t = / in body must be of type ([^:]+):/.exec(m);
  if ((t && !JSON_TYPES.has(t[1]!)) || / must validate (one and only one|at least one) schema /.test(m)) return KUBECONFORM_CLASSES.formats;
  if (/: Invalid value: /.test(m) && !m.includes(" in body ")) return KUBECONFORM_CLASSES.cel;
  return "other";
}

/** The class of a verdict difference (`c`: crdkit's messages, `k`: kubeconform's); "other" when unexplained. */
export function classifyKubeconform(c: readonly string[], k: readonly string[], kubeconform: Verdict): string {
  if (kubeconform === "invalid") {
    if (k.length === 1 && k[0]!.startsWith("could not find schema for ")) return KUBECONFORM_CLASSES.schemaUnusable;
    if (k.length > 0 && k.every((m) => / missing propert(y|ies) /.test(m))) return KUBECONFORM_CLASSES.defaults;
    if (k.length > 0 && k.every((m) => / got null, want /.test(m))) return KUBECONFORM_CLASSES.nulls;
    if (k.length > 0 && k.every((m) => / oneOf failed, /.test(m))) return KUBECONFORM_CLASSES.formats;
    return "other";
  }
  const own = c.filter((m) => !m.startsWith("<nil>: Invalid value: null: some validation rules were not checked"));
  const classes = [...new Set(own.map(crdkitClass))];
  // a failed format stops CEL rules ("some validation rules were not checked"): formats explain it all
  if (classes.includes(KUBECONFORM_CLASSES.formats)) return KUBECONFORM_CLASSES.formats;
  return classes.length === 0 || classes.includes("other") ? "other" : classes.sort().join(" + ");
}
