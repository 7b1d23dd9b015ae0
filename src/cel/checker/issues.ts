/**
 * Collection of checker issues as {@link CelIssue}s (rendered by the parser's cel-go
 * `ToDisplayString` formatter, shared by parse and check errors).
 * @module
 */
import type { CelIssue } from "../parser/issues.js";

/** cel-go's default number of reported errors. */
export const MAX_ERRORS_TO_REPORT = 100;

/** Collects issues; stops keeping them after the limit (but still counts them). */
export class IssueCollector {
  readonly issues: CelIssue[] = [];
  count = 0;
  constructor(private readonly max: number = MAX_ERRORS_TO_REPORT) {}

  /** Records `message` for node `exprId` at code-point `offset` (-1: no location). */
  report(exprId: number, offset: number, message: string): void {
    this.count++;
    if (this.count > this.max) return;
    this.issues.push({ exprId, offset, message });
  }
}
