/**
 * AST validators run after a successful type check (cel-go `cel.ASTValidators`): they see the
 * checked AST and report issues in the checker's format.
 * @module
 */
import { type CallExpr, type Expr, type ParsedAst, visitExpr } from "../../ast.js";
import { type CelType, ErrorType } from "../../types/types.js";
import type { CheckResult, Reference } from "../checker.js";
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
  /**
   * The call nodes whose resolved function name (the checker's reference name, else the call's
   * function) is `name`, in pre-order (no walk when no reference has that name).
   */
  callsNamed(name: string): readonly CallExpr[];
  /** Whether the AST contains a list or map literal (the checker counts them; no walk then). */
  hasAggregateLiterals(): boolean;
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
    return this.checked.typeOf(id) ?? ErrorType;
  }
  report(id: number, message: string): void {
    this.issues.report(id, this.ast.sourceInfo.positions.get(id) ?? -1, message);
  }
  visit(fn: (e: Expr) => void): void {
    visitExpr(this.ast.expr, fn);
  }
  /** Calls by resolved name, filled on demand (one walk per name that occurs). */
  private calls: Map<string, readonly CallExpr[]> | undefined;
  callsNamed(name: string): readonly CallExpr[] {
    let list = this.calls?.get(name);
    if (list === undefined) {
      // after a successful check every call has a reference naming its function: no reference
      // with this name, no such call (skips the walk, and the memo, in the common case)
      if (this.checked.issueCount === 0 && !mayHaveCallNamed(this.checked, name)) return NO_CALLS;
      const out: CallExpr[] = [];
      collectCalls(this.ast.expr, this.checked, name, out);
      list = out;
      (this.calls ??= new Map()).set(name, list);
    }
    return list;
  }
  hasAggregateLiterals(): boolean {
    const n = this.checked.aggregateLiterals;
    return n === undefined ? hasAggregate(this.ast.expr) : n > 0;
  }
}

const NO_CALLS: readonly CallExpr[] = [];

function mayHaveCallNamed(checked: CheckResult, name: string): boolean {
  if (checked.mayHaveCallNamed !== undefined) return checked.mayHaveCallNamed(name);
  const refs = checked.referenceList();
  for (let i = 0; i < refs.length; i++) if ((refs[i] as Reference).name === name) return true;
  return false;
}

/** Appends the calls resolved to `name` under `e`, in pre-order (recursive: parsed ASTs are depth-limited). */
function collectCalls(e: Expr, checked: CheckResult, name: string, out: CallExpr[]): void {
  switch (e.kind) {
    case "const":
    case "ident":
      return;
    case "select":
      collectCalls(e.operand, checked, name, out);
      return;
    case "call":
      if ((checked.referenceOf(e.id)?.name ?? e.function) === name) out.push(e);
      if (e.target !== undefined) collectCalls(e.target, checked, name, out);
      for (let i = 0; i < e.args.length; i++) collectCalls(e.args[i] as Expr, checked, name, out);
      return;
    case "list":
      for (let i = 0; i < e.elements.length; i++) collectCalls(e.elements[i] as Expr, checked, name, out);
      return;
    case "map":
      for (const en of e.entries) {
        collectCalls(en.key, checked, name, out);
        collectCalls(en.value, checked, name, out);
      }
      return;
    case "struct":
      for (const f of e.fields) collectCalls(f.value, checked, name, out);
      return;
    case "comprehension":
      collectCalls(e.iterRange, checked, name, out);
      collectCalls(e.accuInit, checked, name, out);
      collectCalls(e.loopCondition, checked, name, out);
      collectCalls(e.loopStep, checked, name, out);
      collectCalls(e.result, checked, name, out);
      return;
  }
}

/** Whether a list or map literal occurs under `e`. */
function hasAggregate(e: Expr): boolean {
  let found = false;
  visitExpr(e, (x) => {
    if (x.kind === "list" || x.kind === "map") found = true;
  });
  return found;
}

/** Builds a validation context collecting into `issues`. */
export function validationContext(ast: ParsedAst, checked: CheckResult, issues: IssueCollector): ValidationContext {
  return new Context(ast, checked, issues);
}
