/** GitHub Actions workflow commands: `::error file=F,line=L,col=C::message`. */
import type { Result, Summary } from "../results.js";

function data(s: string): string {
  return s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

function prop(s: string): string {
  return data(s).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

export function formatGithub(results: readonly Result[], summary: Summary): string {
  const out: string[] = [];
  for (const r of results) {
    for (const e of r.errors) {
      out.push(`::error file=${prop(r.file)},line=${e.line ?? r.line},col=${e.column ?? r.column}::${data(e.message)}`);
    }
    for (const w of r.warnings) out.push(`::warning file=${prop(r.file)},line=${r.line},col=${r.column}::${data(w.message)}`);
  }
  out.push(`${summary.resources} resources: ${summary.valid} valid, ${summary.invalid} invalid, ${summary.skipped} skipped`);
  return out.join("\n") + "\n";
}
