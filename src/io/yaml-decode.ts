/**
 * One YAML document → the value the API server would see, through crdkit's go-yaml v2 reader
 * (src/io/goyaml): YAML 1.1 scalars, merge keys, aliases, go-yaml's syntax errors, duplicate keys recorded as
 * go-yaml's strict errors (`line N: key "x" already set in map`), then sigs.k8s.io/yaml's conversion to JSON
 * and the server's int64/float64 decoding. The parser events (for source positions) are only produced
 * when asked for, for documents that turn out to have errors.
 */
import type { JsonValue } from "../value/json-value.js";
import { decodeGoYamlDocument } from "./goyaml/decode-document.js";
import type { YamlEvent } from "./goyaml/parser.js";

/**
 * crdkit's nesting limit for the objects the server keeps and patches (the YAML reader itself goes to
 * go-yaml's 10000, `yaml: exceeded max depth of 10000`, and JSON to encoding/json's 10000).
 */
export const MAX_DEPTH = 1000;

/** A fatal problem decoding a document (syntax or conversion), with the offset it refers to. */
export interface DecodeProblem {
  message: string;
  /** Offset in the chunk's text. */
  offset: number;
}

export interface YamlDocumentResult {
  /** The decoded value; `undefined` when the chunk holds no document (only comments / whitespace). */
  value?: JsonValue;
  /** Strict-decoding errors (duplicate keys) in go-yaml's wording, without the `yaml: unmarshal errors:` head. */
  duplicateKeys: string[];
  /** Offset (in the chunk) of the value of the first duplicate key. */
  firstDuplicateOffset?: number;
  problem?: DecodeProblem;
  /** Offset (in the chunk) of the document's root node. */
  rootOffset: number;
  /** Whether the value is known to nest no deeper than encoding/json allows (else check {@link events}). */
  shallow: boolean;
  /** Parser events of the document's root node (for positions), computed on first call. */
  events(): YamlEvent[];
  /** Offset (in the chunk) of the node at a field path, or of the deepest part of it that exists (./locate.ts). */
  offsetOf(path: string): number;
}

/**
 * Decodes the first YAML document of `text` (as go-yaml's Unmarshal does); `bom`: a byte-order mark
 * (dropped from `text`) came before it, which go-yaml's reader counts.
 */
export function decodeYamlDocument(text: string, bom = false): YamlDocumentResult {
  const d = decodeGoYamlDocument(text, bom);
  const r: YamlDocumentResult = { duplicateKeys: d.strictErrors, rootOffset: d.rootOffset, shallow: d.shallow, events: d.events, offsetOf: d.offsetOf };
  if (d.problem) r.problem = d.problem;
  else if (d.value !== undefined) r.value = d.value;
  if (d.firstDuplicateOffset !== undefined) r.firstDuplicateOffset = d.firstDuplicateOffset;
  return r;
}
