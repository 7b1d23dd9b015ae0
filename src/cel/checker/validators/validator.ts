/**
 * AST validators run after a successful type check (cel-go `cel.ASTValidators`): they see the
 * checked AST and report issues in the checker's format.
 * @module
 */
import { type Expr, type ParsedAst, visitExpr } from "../../ast.js";
import { type CelType, ErrorType } from "../../types/types.js";
import type { CheckResult } from "../checker.js";
import type { IssueCollector } from "../issues.js";

/** What a validator gets. */
export interface ValidationContext {
  readonly ast: ParsedAst;
  readonly checked: CheckResult;
  /** Checked type of a node (error type when absent). */
  typeOf(id: number): CelType;
  /** Reports an issue at the start position of node `id`. */
  report(id: number, message: string): void;
  /** Visits every node (pre-order). */
  visit(fn: (e: Expr) => void): void;
}

/** A validator. */
export type AstValidator = (ctx: ValidationContext) => void;

class Context implements ValidationContext {
  constructor(
    readonly ast: ParsedAst,
    readonly checked: CheckResult,
    private readonly issues: IssueCollector,
  ) {}
  typeOf(id: number): CelType {
    return this.checked.types.get(id) ?? ErrorType;
  }
  report(id: number, message: string): void {
    this.issues.report(id, this.ast.sourceInfo.positions.get(id) ?? -1, message);
  }
  visit(fn: (e: Expr) => void): void {
    visitExpr(this.ast.expr, fn);
  }
}

/** Builds a validation context collecting into `issues`. */
export function validationContext(ast: ParsedAst, checked: CheckResult, issues: IssueCollector): ValidationContext {
  return new Context(ast, checked, issues);
}
