/** The result model of `crdkit validate` (the `-o json` schema documented in README.md). */
import type { JsonObject } from "../value/json-value.js";

export interface ResultError {
  /** A `field.Error` type (`FieldValueInvalid`, ...), `UnknownField`, `DuplicateField` or `DecodeError`. */
  type: string;
  /** The field path (`spec.replicas`, `<nil>`), empty for document-level problems. */
  field: string;
  /** The exact Kubernetes text (`field.Error` string, `unknown field "spec.foo"`, ...). */
  message: string;
  line?: number;
  column?: number;
}

export interface ResultWarning {
  message: string;
  /** Where the warning points, when it is about a field (unknown or duplicate field in Warn mode). */
  line?: number;
  column?: number;
}

export interface Result {
  file: string;
  /** 0-based document index in the file. */
  index: number;
  /** Index inside `items` when the document is a `kind: List`. */
  item?: number;
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  /** `create` or `update` (with --old). */
  operation?: "create" | "update";
  status: "valid" | "invalid" | "skipped";
  valid: boolean;
  /** Why the document was skipped. */
  reason?: string;
  /** The API server's 400 message when decoding failed (e.g. strict unknown fields). */
  decodeError?: string;
  errors: ResultError[];
  warnings: ResultWarning[];
  /** Document position. */
  line: number;
  column: number;
  /** The object as the API server would store it (only with --show-object). */
  object?: JsonObject | null;
}

export interface Summary {
  resources: number;
  valid: number;
  invalid: number;
  skipped: number;
}

export function summarize(results: readonly Result[]): Summary {
  const s: Summary = { resources: results.length, valid: 0, invalid: 0, skipped: 0 };
  for (const r of results) s[r.status]++;
  return s;
}
