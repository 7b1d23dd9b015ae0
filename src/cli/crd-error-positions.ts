/**
 * Source positions for the errors of a CRD that failed the CRD checks in `crdkit validate`: compiling a CRD
 * yields error texts only, so the failure path re-runs the checks for their field paths and maps each to
 * the node as written (the same mapping `crdkit check` uses). Errors without a field (schema compilation
 * problems) stay at the document start.
 */
import { errorString } from "../errors/field-error.js";
import type { DecodedDocument } from "../io/decode.js";
import { validateCrdCreateComplete } from "../pipeline/check-crd-create.js";
import { type JsonValue, getKey, isObject } from "../value/json-value.js";
import { documentPath } from "./check.js";
import type { ResultError } from "./results.js";

/** `InvalidCRD` result errors for `texts`, each at its field's node when known. */
export function invalidCrdErrors(value: JsonValue, texts: readonly string[], doc: DecodedDocument, prefix: string): ResultError[] {
  const fields = new Map<string, string>();
  const checked = validateCrdCreateComplete(value);
  for (const e of checked.errors) if (!fields.has(errorString(e))) fields.set(errorString(e), e.field);
  const apiVersion = isObject(value) && typeof getKey(value, "apiVersion") === "string" ? (getKey(value, "apiVersion") as string) : "";
  const at = (p: string) => (prefix === "" ? p : p === "" ? prefix : `${prefix}.${p}`);
  return texts.map((message) => {
    const field = fields.get(message) ?? "";
    const pos = doc.locate(field === "" ? at("<nil>") : at(documentPath(field, apiVersion)));
    return { type: "InvalidCRD", field, message, line: pos.line, column: pos.column };
  });
}
