/** Text output: `file:line:column: <message>` per error, warnings and a summary line. */
import type { Result, Summary } from "../results.js";
import { counted, oneLine } from "./one-line.js";

export function formatText(results: readonly Result[], summary: Summary, opts: { color: boolean; verbose: boolean; noun?: string }): string {
  const c = (code: string, s: string) => (opts.color ? `\u001b[${code}m${s}\u001b[0m` : s);
  const lines: string[] = [];
  for (const r of results) {
    const where = `${r.file}:${r.line}:${r.column}`;
    if (r.status === "skipped") {
      if (opts.verbose) lines.push(`${c("2", where)}: ${c("2", `skipped: ${r.reason ?? ""}`)}`);
      continue;
    }
    for (const e of r.errors) lines.push(`${c("1", `${r.file}:${e.line ?? r.line}:${e.column ?? r.column}`)}: ${c("31", oneLine(e.message, e.line))}`);
    for (const w of r.warnings) {
      lines.push(`${c("1", `${r.file}:${w.line ?? r.line}:${w.column ?? r.column}`)}: ${c("33", `warning: ${oneLine(w.message, w.line)}`)}`);
    }
  }
  const text = `Summary: ${counted(summary.resources, opts.noun ?? "resource")}: ${summary.valid} valid, ${summary.invalid} invalid, ${summary.skipped} skipped`;
  lines.push(summary.invalid > 0 ? c("31", text) : c("32", text));
  return lines.join("\n") + "\n";
}
