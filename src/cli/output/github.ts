/** GitHub Actions workflow commands: `::error file=F,line=L,col=C::message`. */
import type { Result, Summary } from "../results.js";
import { counted, oneLine } from "./one-line.js";

function data(s: string): string {
  return s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

function prop(s: string): string {
  return data(s).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

/** A `::warning` annotation for a file and line. */
export function githubWarning(file: string, line: number, message: string): string {
  return `::warning file=${prop(file)},line=${line}::${data(oneLine(message))}`;
}

export function formatGithub(results: readonly Result[], summary: Summary, noun = "resource"): string {
  const out: string[] = [];
  for (const r of results) {
    for (const e of r.errors) {
      out.push(`::error file=${prop(r.file)},line=${e.line ?? r.line},col=${e.column ?? r.column}::${data(oneLine(e.message, e.line))}`);
    }
    for (const w of r.warnings) {
      out.push(`::warning file=${prop(r.file)},line=${w.line ?? r.line},col=${w.column ?? r.column}::${data(oneLine(w.message, w.line))}`);
    }
  }
  out.push(`${counted(summary.resources, noun)}: ${summary.valid} valid, ${summary.invalid} invalid, ${summary.skipped} skipped`);
  return out.join("\n") + "\n";
}
