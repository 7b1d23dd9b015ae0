/** JUnit XML output: one test case per document, failures carry the error texts. */
import type { Result, Summary } from "../results.js";
import { oneLine } from "./one-line.js";

function xml(s: string): string {
  return s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "");
}

export function formatJunit(results: readonly Result[], summary: Summary, suite = "crdkit validate"): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(`<testsuites name="crdkit" tests="${summary.resources}" failures="${summary.invalid}" skipped="${summary.skipped}">`);
  out.push(`  <testsuite name="${xml(suite)}" tests="${summary.resources}" failures="${summary.invalid}" skipped="${summary.skipped}">`);
  for (const r of results) {
    const name = `${r.kind || "document"}${r.namespace ? `/${r.namespace}` : ""}/${r.name || `#${r.index}`}${r.item !== undefined ? `[${r.item}]` : ""}`;
    out.push(`    <testcase classname="${xml(r.file)}" name="${xml(name)}">`);
    if (r.status === "skipped") out.push(`      <skipped message="${xml(r.reason ?? "")}"/>`);
    else if (r.status === "invalid") {
      const body = r.errors.map((e) => `${r.file}:${e.line ?? r.line}:${e.column ?? r.column}: ${oneLine(e.message, e.line)}`).join("\n");
      out.push(`      <failure message="${xml(r.errors[0]?.message ?? "invalid")}" type="${xml(r.errors[0]?.type ?? "")}">${xml(body)}</failure>`);
    }
    if (r.warnings.length > 0) out.push(`      <system-out>${xml(r.warnings.map((w) => `warning: ${w.message}`).join("\n"))}</system-out>`);
    out.push("    </testcase>");
  }
  out.push("  </testsuite>", "</testsuites>");
  return out.join("\n") + "\n";
}
