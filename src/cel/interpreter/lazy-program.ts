/**
 * Programs planned on their first evaluation: the planner's closures are built when a program is first
 * evaluated and kept for every later evaluation, so an expression that is compiled but never evaluated
 * (`crdkit check`, a CRD whose resources are never written, rules of fields no document has, a
 * messageExpression whose rule passes) costs no planning.
 *
 * What {@link plan} rejects is still rejected when the program is made: with `optimize` (cel-go
 * `OptOptimize`), the type conversions of constants it evaluates while building the program
 * (`int('x')`, `uint(-1)`, `duration('1x')`, also over list/map literals of constants); and, with or
 * without it, an identifier the checker typed as a type the runtime does not know (`reference to undefined
 * type: duration`).
 * {@link checkInstantiation} plans and evaluates exactly those sub-expressions, in the order {@link plan}
 * meets them, and throws the {@link ProgramInstantiationError} that {@link plan} would throw.
 * @module
 */
import type { CallExpr, Expr, ParsedAst } from "../ast.js";
import { CelError } from "../values/values.js";
import {
  type Activation,
  type EvalOptions,
  type EvalResult,
  checkRegexConstant,
  isFoldedConstant,
  isRegexFunction,
  mayBeTypeConversion,
  isRuntimeTypeIdent,
  type PlanOptions,
  type Program,
  ProgramInstantiationError,
  plan,
} from "./planner.js";

/**
 * Throws the {@link ProgramInstantiationError} that cel-go's `Program()` fails with, if any, without planning
 * the whole expression (only the constant type conversions `optimize` evaluates are planned).
 */
export function checkInstantiation(ast: ParsedAst | Expr, opts: PlanOptions): void {
  const undefinedTypes = hasUndefinedTypeIdent(opts);
  if (opts.optimize !== true && opts.regexConstantFunctions === undefined && !undefinedTypes) return;
  // the checker lists the functions called: no type conversion or regex function among them, nothing to walk
  const names = opts.checked?.callNameList?.();
  if (!undefinedTypes && names !== undefined && !names.some((n) => mayBeTypeConversion(n) || isRegexFunction(n, opts))) return;
  checkExpr("sourceInfo" in ast ? ast.expr : ast, opts);
}

/**
 * The call as cel-go plans it: the checker writes the resolved name into a global call (`.int(x)` is
 * `int(x)`); `e` itself when that is its name.
 */
function asResolved(e: CallExpr, opts: PlanOptions): CallExpr {
  if (e.target !== undefined) return e;
  const name = opts.checked?.referenceOf?.(e.id)?.name;
  return name === undefined || name === e.function ? e : { kind: "call", id: e.id, function: name, args: e.args };
}

/**
 * cel-go's planner resolves an identifier the checker typed as a type (`type(duration)`) through the
 * runtime's type provider, and fails with `reference to undefined type: <name>` when it does not know it
 * (Kubernetes' checker resolves `duration` and `timestamp`, its runtime only `google.protobuf.Duration`, ...).
 */
function undefinedTypeIdent(id: number, opts: PlanOptions): string | undefined {
  const checked = opts.checked;
  const name = checked?.referenceOf?.(id)?.name;
  if (name === undefined || checked?.typeOf?.(id)?.kind !== "type") return undefined;
  const n = name.charCodeAt(0) === 46 /* . */ ? name.slice(1) : name;
  return isRuntimeTypeIdent(n, opts) ? undefined : n;
}

/** Whether some checked identifier names a type the runtime does not know (a scan of the references, no walk). */
function hasUndefinedTypeIdent(opts: PlanOptions): boolean {
  const refs = opts.checked?.referenceArray?.();
  if (refs === undefined || opts.checked?.typeOf === undefined) return false;
  for (let id = 0; id < refs.length; id++) {
    const r = refs[id];
    if (r !== undefined && r.overloadIds === undefined && r.name !== undefined && undefinedTypeIdent(id, opts) !== undefined) return true;
  }
  return false;
}

/**
 * The planner's walk, in its order (targets before arguments, map keys before values, a comprehension's
 * range, init, condition, step, result): the outermost constant type conversions are planned alone (their
 * nested conversions in the planner's order); the planner does not plan a struct's field values.
 */
function checkExpr(e: Expr, opts: PlanOptions): void {
  switch (e.kind) {
    case "ident": {
      const t = undefinedTypeIdent(e.id, opts);
      if (t !== undefined) throw new ProgramInstantiationError(`reference to undefined type: ${t}`);
      return;
    }
    case "call": {
      const call = asResolved(e, opts);
      if (opts.optimize === true && call.target === undefined && call.args.length === 1 && isFoldedConstant(call)) {
        plan(call, opts);
        return;
      }
      if (call.target !== undefined) checkExpr(call.target, opts);
      const args = call.args;
      for (let i = 0; i < args.length; i++) checkExpr(args[i] as Expr, opts);
      if (isRegexFunction(call.function, opts)) checkRegexConstant(call, opts);
      return;
    }
    case "select": {
      // a select the checker resolved as a qualified name is planned as that name
      const t = undefinedTypeIdent(e.id, opts);
      if (t !== undefined) throw new ProgramInstantiationError(`reference to undefined type: ${t}`);
      if (opts.checked?.referenceOf?.(e.id) === undefined) checkExpr(e.operand, opts);
      return;
    }
    case "list": {
      const elems = e.elements;
      for (let i = 0; i < elems.length; i++) checkExpr(elems[i] as Expr, opts);
      return;
    }
    case "map": {
      const entries = e.entries;
      for (let i = 0; i < entries.length; i++) {
        const en = entries[i] as (typeof entries)[number];
        checkExpr(en.key, opts);
        checkExpr(en.value, opts);
      }
      return;
    }
    case "comprehension":
      checkExpr(e.iterRange, opts);
      checkExpr(e.accuInit, opts);
      checkExpr(e.loopCondition, opts);
      checkExpr(e.loopStep, opts);
      checkExpr(e.result, opts);
      return;
    default:
      // const, ident, struct
      return;
  }
}

/**
 * `plan(ast, opts)`, the planning deferred to the first evaluation: throws here only what {@link plan}
 * throws for the expression ({@link checkInstantiation}); evaluations give the same values and costs.
 */
export function planOnFirstEval(ast: ParsedAst | Expr, opts: PlanOptions): Program {
  checkInstantiation(ast, opts);
  return new LazyPlan(ast, opts);
}

/** A program planned when first evaluated (then the planned program answers every evaluation). */
class LazyPlan implements Program {
  private planned: Program | undefined;
  private ast: ParsedAst | Expr | undefined;
  private opts: PlanOptions | undefined;

  constructor(ast: ParsedAst | Expr, opts: PlanOptions) {
    this.ast = ast;
    this.opts = opts;
  }

  eval(activation?: Activation, opts?: EvalOptions): EvalResult {
    const p = this.planned ?? this.build();
    return p.eval(activation, opts);
  }

  private build(): Program {
    let p: Program;
    try {
      p = plan(this.ast as ParsedAst | Expr, this.opts as PlanOptions);
    } catch (err) {
      // never reached for a checked expression (what plan rejects was rejected when this was made); an
      // evaluation reports it as an error value rather than throwing
      const value = new CelError(err instanceof Error ? err.message : String(err));
      p = { eval: () => ({ value, cost: 0 }) };
    }
    this.planned = p;
    this.ast = undefined;
    this.opts = undefined;
    return p;
  }
}
