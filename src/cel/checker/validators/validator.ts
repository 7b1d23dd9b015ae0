/**
 * AST validators run after a successful type check (cel-go `cel.ASTValidators`): they see the
 * checked AST and report issues in the checker's format.
 * @module
 */
import { type CallExpr, type Expr, type ParsedAst, visitExpr } from "../../ast.js";
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
  /**
   * The call nodes whose resolved function name (the checker's reference name, else the call's
   * function) is `name`, in pre-order. All lookups share one walk of the AST.
   */
  callsNamed(name: string): readonly CallExpr[];
  /** Whether the AST contains a list or map literal (shares the walk of {@link callsNamed}). */
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
    return this.checked.types.get(id) ?? ErrorType;
  }
  report(id: number, message: string): void {
    this.issues.report(id, this.ast.sourceInfo.positions.get(id) ?? -1, message);
  }
  visit(fn: (e: Expr) => void): void {
    visitExpr(this.ast.expr, fn);
  }
  private index: AstIndex | undefined;
  private indexed(): AstIndex {
    if (this.index === undefined) {
      this.index = { calls: new Map(), aggregates: false };
      indexNode(this.ast.expr, this.checked, this.index);
    }
    return this.index;
  }
  callsNamed(name: string): readonly CallExpr[] {
    return this.indexed().calls.get(name) ?? NO_CALLS;
  }
  hasAggregateLiterals(): boolean {
    return this.indexed().aggregates;
  }
}

const NO_CALLS: readonly CallExpr[] = [];

/** Calls by resolved name (pre-order) and whether list/map literals occur. */
interface AstIndex {
  readonly calls: Map<string, CallExpr[]>;
  aggregates: boolean;
}

/** Pre-order walk filling `out` (recursive: parsed ASTs are depth-limited). */
function indexNode(e: Expr, checked: CheckResult, out: AstIndex): void {
  switch (e.kind) {
    case "const":
    case "ident":
      return;
    case "select":
      indexNode(e.operand, checked, out);
      return;
    case "call": {
      const name = checked.references.get(e.id)?.name ?? e.function;
      const list = out.calls.get(name);
      if (list === undefined) out.calls.set(name, [e]);
      else list.push(e);
      if (e.target !== undefined) indexNode(e.target, checked, out);
      for (const a of e.args) indexNode(a, checked, out);
      return;
    }
    case "list":
      out.aggregates = true;
      for (const x of e.elements) indexNode(x, checked, out);
      return;
    case "map":
      out.aggregates = true;
      for (const en of e.entries) {
        indexNode(en.key, checked, out);
        indexNode(en.value, checked, out);
      }
      return;
    case "struct":
      for (const f of e.fields) indexNode(f.value, checked, out);
      return;
    case "comprehension":
      indexNode(e.iterRange, checked, out);
      indexNode(e.accuInit, checked, out);
      indexNode(e.loopCondition, checked, out);
      indexNode(e.loopStep, checked, out);
      indexNode(e.result, checked, out);
      return;
  }
}

/** Builds a validation context collecting into `issues`. */
export function validationContext(ast: ParsedAst, checked: CheckResult, issues: IssueCollector): ValidationContext {
  return new Context(ast, checked, issues);
}
