/**
 * `crdkit check -o junit|github`: CRD check results in the shape the `validate` formatters take (one
 * result per CRD, kind CustomResourceDefinition), so both commands print the same formats.
 */
import type { CheckResult } from "../check.js";
import type { Result, Summary } from "../results.js";

export function checkResultsAsResults(results: readonly CheckResult[]): { results: Result[]; summary: Summary } {
  const out: Result[] = results.map((c) => {
    const r: Result = {
      file: c.file,
      index: c.index,
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      namespace: "",
      name: c.name,
      operation: c.operation,
      status: c.valid ? "valid" : "invalid",
      valid: c.valid,
      errors: c.errors,
      warnings: c.warnings,
      line: c.line,
      column: c.column,
    };
    if (c.item !== undefined) r.item = c.item;
    return r;
  });
  const invalid = out.filter((r) => !r.valid).length;
  return { results: out, summary: { resources: out.length, valid: out.length - invalid, invalid, skipped: 0 } };
}
