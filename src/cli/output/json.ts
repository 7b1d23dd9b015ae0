/**
 * JSON output (stable, documented in README.md): `{"results":[...],"summary":{...}}`. Objects (with
 * --show-object) are written as Go's encoding/json would (sorted keys).
 */
import { goJsonMarshal } from "../../go/json.js";
import type { Result, Summary } from "../results.js";

function resultJson(r: Result): string {
  const { object, ...rest } = r;
  const base = JSON.stringify(rest);
  if (object === undefined) return base;
  return `${base.slice(0, -1)},"object":${object === null ? "null" : goJsonMarshal(object)}}`;
}

/** `runWarnings`: warnings about the run rather than a document (a CRD defined twice), only when present. */
export function formatJson(results: readonly Result[], summary: Summary, runWarnings: readonly RunWarning[] = []): string {
  const extra = runWarnings.length > 0 ? `,"warnings":${JSON.stringify(runWarnings)}` : "";
  return `{"results":[${results.map(resultJson).join(",")}],"summary":${JSON.stringify(summary)}${extra}}\n`;
}

export interface RunWarning {
  message: string;
  file: string;
  line: number;
}
