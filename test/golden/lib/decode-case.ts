/**
 * `decode-yaml` golden cases: one manifest document converted to JSON as kubectl does (sigs.k8s.io/yaml
 * `YAMLToJSON` over go-yaml v2), compared with crdkit's reader (src/io `decodeDocuments`): the same JSON
 * value (the oracle's JSON text read as the API server reads it, int64 / float64), or the same error text; and the same strict-decoding error
 * (`YAMLToJSONStrict`: duplicate keys).
 */
import { decodeDocuments } from "../../../src/io/decode.js";
import { decodeJsonStream } from "../../../src/io/json-decode.js";
import { goJsonMarshal } from "../../../src/go/json.js";
import { type JsonValue, isObject } from "../../../src/value/json-value.js";

/** What crdkit makes of one document, in the oracle's terms. */
export interface DecodeOutcome {
  json?: string;
  error?: string;
  strictError?: string;
}

/**
 * crdkit's reading of `text` as one YAML document (an empty or null document is JSON `null`), whole as the
 * oracle's `YAMLToJSON` reads it (and the API server a request body), not split at `---` lines.
 */
export function crdkitDecodeYaml(text: string): DecodeOutcome {
  const docs = decodeDocuments(text, { format: "yaml", whole: true });
  const d = docs[0];
  if (!d) return { json: "null" };
  if (d.problem) return { error: d.problem.message };
  const out: DecodeOutcome = { json: goJsonMarshal(d.value!) };
  if (d.strictErrors.length > 0) out.strictError = d.strictErrors[0]!;
  return out;
}

function str(v: JsonValue | undefined): string | undefined {
  return typeof v === "string" ? v : undefined;
}

/** Differences between the oracle's record `result` and crdkit's outcome (empty = agreement). */
export function diffDecode(result: JsonValue | undefined, got: DecodeOutcome): string[] {
  const want: DecodeOutcome = {};
  if (isObject(result)) {
    for (const k of ["json", "error", "strictError"] as const) {
      const v = str(result[k]);
      if (v !== undefined) want[k] = v;
    }
  }
  // the JSON text as the API server decodes it (int64 when an integer fits, else float64), re-marshalled
  if (want.json !== undefined) {
    const d = decodeJsonStream(want.json).documents[0];
    if (d) want.json = goJsonMarshal(d.value);
  }
  const out: string[] = [];
  for (const k of ["json", "error", "strictError"] as const) {
    if (want[k] !== got[k]) out.push(`${k} differs: - kubernetes, + crdkit`, `    - ${want[k] ?? "(none)"}`, `    + ${got[k] ?? "(none)"}`);
  }
  return out;
}

/** Runs one golden `decode-yaml` record. */
export function runDecodeCase(c: { [k: string]: JsonValue }): string[] {
  return diffDecode(c["result"], crdkitDecodeYaml(str(c["text"]) ?? ""));
}
