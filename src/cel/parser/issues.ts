/**
 * Compile-time issues (cel-go `common.Errors`) and their display format:
 * `ERROR: <input>:1:6: msg\n | source line\n | .....^`.
 *
 * @module
 */

import type { SourceInfo } from "../ast.js";
import { offsetLocation } from "../ast.js";

/** One compile-time error. `offset` is a code-point offset, or -1 for "no location". */
export interface CelIssue {
  readonly message: string;
  readonly offset: number;
  /** Expression id the error is attached to (0 if none). */
  readonly exprId: number;
  /**
   * The error is attached to an expression cel-go built without a location (a primary that failed to parse:
   * `newExpr(NoLocation)`, source offset -1), which cel-go locates at line 1, column -1 (shown as `1:0`);
   * `offset` is -1 then.
   */
  readonly atExprWithoutOffset?: true;
}

/** The line and column of an issue (line -1 for none). */
function issueLocation(info: SourceInfo, issue: CelIssue): { line: number; column: number } {
  if (issue.offset >= 0) return offsetLocation(info, issue.offset);
  return issue.atExprWithoutOffset === true ? { line: 1, column: -1 } : { line: -1, column: -1 };
}

const MAX_SNIPPET = 16384;
const MAX_ERRORS = 100;

function snippet(info: SourceInfo, line: number): string | undefined {
  const src = info.source;
  if (src.length === 0) return undefined;
  const lines = src.split("\n");
  if (line < 1 || line > lines.length) return undefined;
  return lines[line - 1];
}

/** Formats one issue exactly like cel-go's `Error.ToDisplayString`. */
export function formatIssue(info: SourceInfo, issue: CelIssue): string {
  const loc = issueLocation(info, issue);
  let result = `ERROR: ${info.description}:${loc.line}:${loc.column + 1}: ${issue.message}`;
  const snip = loc.line > 0 ? snippet(info, loc.line) : undefined;
  if (snip !== undefined) {
    const cps = Array.from(snip.replace(/\t/g, " "));
    // cel-go compares the snippet's UTF-8 byte length with the limit
    if (new TextEncoder().encode(snip).length <= MAX_SNIPPET) {
      let ind = "\n | ";
      let k = 0;
      for (; k < loc.column && k < cps.length; k++) ind += (cps[k] as string).codePointAt(0)! > 0x7f ? "\uff0e" : ".";
      const at = cps[k];
      ind += at !== undefined && at.codePointAt(0)! > 0x7f ? "\uff3e" : "^";
      result += "\n | " + cps.join("") + ind;
    }
  }
  return result;
}

/**
 * Formats a list of issues like cel-go's `Errors.ToDisplayString`: stable-sorted by
 * line then column, at most 100 shown, joined by newlines.
 */
export function formatIssues(info: SourceInfo, issues: readonly CelIssue[]): string {
  const withLoc = issues.map((iss, i) => {
    const loc = issueLocation(info, iss);
    return { iss, i, loc };
  });
  withLoc.sort((a, b) => a.loc.line - b.loc.line || a.loc.column - b.loc.column || a.i - b.i);
  const out: string[] = [];
  for (const w of withLoc.slice(0, MAX_ERRORS)) out.push(formatIssue(info, w.iss));
  if (issues.length > MAX_ERRORS) out.push(`${issues.length - MAX_ERRORS} more errors were truncated`);
  return out.join("\n");
}
