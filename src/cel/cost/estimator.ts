/**
 * Static cost estimation of a checked CEL expression — a port of cel-go `checker/cost.go`.
 * Sizes of variables and fields come from the caller's {@link CostEstimator} (Kubernetes derives
 * them from maxLength / maxItems / maxProperties); per-function costs may be supplied through
 * {@link CostEstimator.estimateCallCost} or per-overload {@link FunctionEstimator}s.
 * @module
 */
import { ACCUMULATOR_NAME, type CallExpr, type ComprehensionExpr, type Expr, type ParsedAst } from "../ast.js";
import type { CheckResult } from "../checker/checker.js";
import { builtinCallCost, type CallCostContext, type EntrySize, withSize } from "./builtin-call-costs.js";
import { type CelType, ErrorType } from "../types/types.js";
import {
  add,
  CONST_COST,
  type CostEstimate,
  fixed,
  LIST_CREATE_BASE_COST,
  MAP_CREATE_BASE_COST,
  MAX_UINT64,
  multiply,
  SELECT_AND_IDENT_COST,
  type SizeEstimate,
  STRUCT_CREATE_BASE_COST,
  UNKNOWN_SIZE,
  union,
} from "./estimates.js";

/** A node handed to estimators: its field path from a variable, type, and computed size. */
export interface AstNode {
  /** e.g. `["self", "spec", "items", "@items"]`; undefined for accumulators / unknown. */
  readonly path: readonly string[] | undefined;
  readonly type: CelType;
  readonly expr: Expr;
  readonly computedSize: SizeEstimate | undefined;
}

/** A call's cost, and optionally the size of its result. */
export interface CallEstimate extends CostEstimate {
  readonly resultSize?: SizeEstimate;
}

/** Caller-supplied size and call cost estimates (cel-go `checker.CostEstimator`). */
export interface CostEstimator {
  estimateSize(node: AstNode): SizeEstimate | undefined;
  estimateCallCost(
    fn: string,
    overloadId: string,
    target: AstNode | undefined,
    args: readonly AstNode[],
  ): CallEstimate | undefined;
}

/** A per-overload estimator (cel-go `checker.FunctionEstimator`). */
export type FunctionEstimator = (
  estimator: CostEstimator,
  target: AstNode | undefined,
  args: readonly AstNode[],
) => CallEstimate | undefined;

/** Options of {@link estimateCost}. */
export interface CostOptions {
  /** cel-go `PresenceTestHasCost` (default true: `has()` costs 1). */
  readonly presenceTestHasCost?: boolean;
  readonly overloadEstimators?: ReadonlyMap<string, FunctionEstimator>;
}

/** Anything with a parsed AST and its check result. */
export interface CheckedExpression {
  readonly ast: ParsedAst;
  readonly checked: CheckResult;
}


interface LocalVar {
  readonly path: readonly string[] | undefined;
  readonly size: SizeEstimate | undefined;
  readonly entrySize: EntrySize | undefined;
}

const ZERO: CostEstimate = { min: 0n, max: 0n };
const HIDDEN_ACCUMULATOR_NAME = "__result__";

/** Estimates the cost range of evaluating a checked expression (cel-go `checker.Cost`). */
export function estimateCost(
  expr: CheckedExpression,
  estimator: CostEstimator,
  options: CostOptions = {},
): CostEstimate {
  return new Coster(expr, estimator, options).cost(expr.ast.expr);
}

class Coster implements CallCostContext {
  private readonly exprPaths = new Map<number, readonly string[]>();
  private readonly localVars = new Map<string, LocalVar[]>();
  private readonly computedSizes = new Map<number, SizeEstimate>();
  private readonly computedEntrySizes = new Map<number, EntrySize>();
  private readonly presenceTestCost: CostEstimate;
  private readonly overloadEstimators: ReadonlyMap<string, FunctionEstimator>;

  constructor(
    private readonly expr: CheckedExpression,
    private readonly estimator: CostEstimator,
    options: CostOptions,
  ) {
    this.presenceTestCost = options.presenceTestHasCost === false ? ZERO : fixed(SELECT_AND_IDENT_COST);
    this.overloadEstimators = options.overloadEstimators ?? new Map();
  }

  cost(e: Expr): CostEstimate {
    switch (e.kind) {
      case "const":
        return fixed(CONST_COST);
      case "ident":
        return this.costIdent(e.id, this.identName(e.id, e.name));
      case "select":
        return this.costSelect(e);
      case "call":
        return this.costCall(e);
      case "list":
        return this.costCreateList(e);
      case "map":
        return this.costCreateMap(e);
      case "struct": {
        let sum = ZERO;
        for (const f of e.fields) sum = add(sum, this.cost(f.value));
        return add(sum, fixed(STRUCT_CREATE_BASE_COST));
      }
      case "comprehension":
        return this.isBind(e) ? this.costBind(e) : this.costComprehension(e);
    }
  }

  /** The identifier name as rewritten by the checker (qualified / disambiguated). */
  private identName(id: number, fallback: string): string {
    return this.expr.checked.referenceOf(id)?.name ?? fallback;
  }

  private costIdent(id: number, name: string): CostEstimate {
    const v = this.peek(name);
    const p = v !== undefined ? v.path : [name];
    if (p !== undefined) this.exprPaths.set(id, p);
    return fixed(SELECT_AND_IDENT_COST);
  }

  private costSelect(e: Extract<Expr, { kind: "select" }>): CostEstimate {
    const ref = this.expr.checked.referenceOf(e.id);
    if (ref?.name !== undefined) return this.costIdent(e.id, ref.name); // qualified identifier
    let sum = ZERO;
    if (e.testOnly) {
      sum = add(sum, this.presenceTestCost);
      return add(sum, this.cost(e.operand));
    }
    sum = add(sum, this.cost(e.operand));
    const tk = this.getType(e.operand).kind;
    if (tk === "map" || tk === "struct" || tk === "type_param") sum = add(sum, fixed(SELECT_AND_IDENT_COST));
    this.exprPaths.set(e.id, [...(this.getPath(e.operand) ?? []), e.field]);
    return sum;
  }

  private costCall(e: CallExpr): CostEstimate {
    const ref = this.expr.checked.referenceOf(e.id);
    const fnName = ref?.name ?? e.function;
    const isMember = e.target !== undefined && fnName === e.function;
    if (fnName === "dyn" && !isMember && e.args.length === 1) {
      const arg = e.args[0] as Expr;
      const argCost = this.cost(arg);
      this.copySizeEstimates(e, arg);
      return add(fixed(1), argCost);
    }
    const argNodes: AstNode[] = [];
    const argCosts: CostEstimate[] = [];
    for (const a of e.args) {
      argCosts.push(this.cost(a));
      argNodes.push(this.newAstNode(a));
    }
    const ids = ref?.overloadIds ?? [];
    if (ids.length === 0) return ZERO;
    let sum = ZERO;
    let targetNode: AstNode | undefined;
    if (isMember && e.target !== undefined) {
      sum = add(sum, this.cost(e.target));
      targetNode = this.newAstNode(e.target);
    }
    let fnCost: CostEstimate = { min: MAX_UINT64, max: 0n };
    let resultSize: SizeEstimate | undefined;
    for (const id of ids) {
      const oc = this.functionCost(e, fnName, id, targetNode, argNodes, argCosts);
      fnCost = union(fnCost, oc);
      if (oc.resultSize !== undefined) {
        resultSize = resultSize === undefined ? oc.resultSize : union(resultSize, oc.resultSize);
      }
      if ((id === "index_list" || id === "index_map") && e.args.length > 0) {
        const a0 = e.args[0] as Expr;
        resultSize = this.computeEntrySize(a0)?.val;
        this.exprPaths.set(e.id, [...(this.getPath(a0) ?? []), id === "index_list" ? "@items" : "@values"]);
      }
      if (resultSize === undefined) resultSize = this.computeSize(e);
    }
    this.setSize(e, resultSize);
    return add(sum, fnCost);
  }

  private costCreateList(e: Extract<Expr, { kind: "list" }>): CostEstimate {
    let sum = ZERO;
    let itemSize: SizeEstimate = { min: e.elements.length === 0 ? 0n : MAX_UINT64, max: 0n };
    for (const el of e.elements) {
      sum = add(sum, this.cost(el));
      itemSize = union(itemSize, this.sizeOrUnknown(el));
    }
    this.computedEntrySizes.set(e.id, { containerKind: "list", key: fixed(1), val: itemSize });
    return add(sum, fixed(LIST_CREATE_BASE_COST));
  }

  private costCreateMap(e: Extract<Expr, { kind: "map" }>): CostEstimate {
    let sum = ZERO;
    const empty = e.entries.length === 0;
    let keySize: SizeEstimate = { min: empty ? 0n : MAX_UINT64, max: 0n };
    let valSize: SizeEstimate = { min: empty ? 0n : MAX_UINT64, max: 0n };
    for (const en of e.entries) {
      sum = add(sum, this.cost(en.key));
      sum = add(sum, this.cost(en.value));
      keySize = union(keySize, this.sizeOrUnknown(en.key));
      valSize = union(valSize, this.sizeOrUnknown(en.value));
    }
    this.computedEntrySizes.set(e.id, { containerKind: "map", key: keySize, val: valSize });
    return add(sum, fixed(MAP_CREATE_BASE_COST));
  }

  private costComprehension(e: ComprehensionExpr): CostEstimate {
    let sum = ZERO;
    sum = add(sum, this.cost(e.iterRange));
    sum = add(sum, this.cost(e.accuInit));
    this.pushLocalVar(e.accuVar, e.accuInit);
    if (e.iterVar2 !== undefined) {
      this.pushIter(e.iterVar, e.iterRange, "key");
      this.pushIter(e.iterVar2, e.iterRange, "value");
    } else {
      this.pushIter(e.iterVar, e.iterRange, "single");
    }
    const loopCost = this.cost(e.loopCondition);
    const stepCost = this.cost(e.loopStep);
    this.pop(e.iterVar);
    if (e.iterVar2 !== undefined) this.pop(e.iterVar2);
    sum = add(sum, this.cost(e.result));
    this.pop(e.accuVar);
    const rangeCnt = this.sizeOrUnknown(e.iterRange);
    sum = add(sum, multiply(rangeCnt, add(stepCost, loopCost)));
    switch (e.accuInit.kind) {
      case "const":
        this.setSize(e, this.computeSize(e.accuInit));
        break;
      case "list":
      case "map": {
        this.setSize(e, rangeCnt);
        const stepEntry = this.computeEntrySize(e.loopStep);
        if (stepEntry !== undefined) this.computedEntrySizes.set(e.id, stepEntry);
        break;
      }
      default:
        break;
    }
    return sum;
  }

  private isBind(e: ComprehensionExpr): boolean {
    return (
      e.iterRange.kind === "list" &&
      e.iterRange.elements.length === 0 &&
      e.loopCondition.kind === "const" &&
      e.loopCondition.value.kind === "bool" &&
      !e.loopCondition.value.value &&
      e.accuVar !== ACCUMULATOR_NAME
    );
  }

  private costBind(e: ComprehensionExpr): CostEstimate {
    let sum = ZERO;
    sum = add(sum, this.cost(e.iterRange));
    sum = add(sum, this.cost(e.accuInit));
    this.pushLocalVar(e.accuVar, e.accuInit);
    sum = add(sum, this.cost(e.result));
    this.pop(e.accuVar);
    this.copySizeEstimates(e, e.result);
    return sum;
  }

  private functionCost(
    e: CallExpr,
    fnName: string,
    overloadId: string,
    target: AstNode | undefined,
    args: readonly AstNode[],
    argCosts: readonly CostEstimate[],
  ): CallEstimate {
    const argSum = () => argCosts.reduce((s, c) => add(s, c), ZERO);
    const custom = this.overloadEstimators.get(overloadId);
    if (custom !== undefined) {
      const est = custom(this.estimator, target, args);
      if (est !== undefined) return withSize(add(est, argSum()), est.resultSize);
    }
    const est = this.estimator.estimateCallCost(fnName, overloadId, target, args);
    if (est !== undefined) return withSize(add(est, argSum()), est.resultSize);
    return builtinCallCost(this, e, overloadId, target, args, argCosts, argSum);
  }

  private getType(e: Expr): CelType {
    return this.expr.checked.typeOf(e.id) ?? ErrorType;
  }

  /** cel-go `getPath`: the path of a field/variable expression; nil (undefined) for anything else. */
  private getPath(e: Expr): readonly string[] | undefined {
    if (e.kind === "ident") {
      const v = this.peek(this.identName(e.id, e.name));
      if (v !== undefined) return v.path;
    }
    return this.exprPaths.get(e.id);
  }

  private newAstNode(e: Expr): AstNode {
    let path = this.getPath(e);
    const first = path?.[0];
    if (first === ACCUMULATOR_NAME || first === HIDDEN_ACCUMULATOR_NAME) path = undefined;
    return { path, type: this.getType(e), expr: e, computedSize: this.computeSize(e) };
  }

  private setSize(e: Expr, size: SizeEstimate | undefined): void {
    if (size !== undefined) this.computedSizes.set(e.id, size);
  }

  setEntrySize(id: number, entry: EntrySize): void {
    this.computedEntrySizes.set(id, entry);
  }

  sizeOrUnknown(node: Expr | AstNode): SizeEstimate {
    const sz = "kind" in node ? this.computeSize(node) : node.computedSize;
    return sz ?? UNKNOWN_SIZE;
  }

  private copySizeEstimates(dst: Expr, src: Expr): void {
    this.setSize(dst, this.computeSize(src));
    const es = this.computeEntrySize(src);
    if (es !== undefined) this.computedEntrySizes.set(dst.id, es);
  }

  private computeSize(e: Expr): SizeEstimate | undefined {
    const known = this.computedSizes.get(e.id);
    if (known !== undefined) return known;
    const exprSize = computeExprSize(e);
    if (exprSize !== undefined) return exprSize;
    const node: AstNode = { expr: e, path: this.getPath(e), type: this.getType(e), computedSize: undefined };
    const est = this.estimator.estimateSize(node);
    if (est !== undefined) {
      this.computedSizes.set(e.id, est);
      return est;
    }
    if (isScalar(this.getType(e))) return fixed(1);
    if (e.kind === "ident") {
      const v = this.peek(this.identName(e.id, e.name));
      if (v?.size !== undefined) return v.size;
    }
    return undefined;
  }

  computeEntrySize(e: Expr): EntrySize | undefined {
    const known = this.computedEntrySizes.get(e.id);
    if (known !== undefined) return known;
    if (e.kind === "ident") {
      const v = this.peek(this.identName(e.id, e.name));
      if (v?.entrySize !== undefined) return v.entrySize;
    }
    return undefined;
  }

  private peek(name: string): LocalVar | undefined {
    const stack = this.localVars.get(name);
    return stack === undefined ? undefined : stack[stack.length - 1];
  }

  private push(name: string, v: LocalVar): void {
    const stack = this.localVars.get(name);
    if (stack === undefined) this.localVars.set(name, [v]);
    else stack.push(v);
  }

  private pop(name: string): void {
    this.localVars.get(name)?.pop();
  }

  private pushLocalVar(name: string, e: Expr): void {
    this.push(name, { path: this.getPath(e), size: this.computeSize(e), entrySize: this.computeEntrySize(e) });
  }

  private pushIter(name: string, range: Expr, mode: "key" | "value" | "single"): void {
    const entry = this.computeEntrySize(range);
    const container = entry?.containerKind ?? this.getType(range).kind;
    const isList = container === "list";
    let size: SizeEstimate | undefined;
    let sub: string;
    if (mode === "key") {
      size = entry?.key;
      sub = isList ? "@indices" : "@keys";
    } else if (mode === "value") {
      size = entry?.val;
      sub = isList ? "@items" : "@values";
    } else {
      size = isList ? entry?.val : entry?.key;
      sub = isList ? "@items" : "@keys";
    }
    this.push(name, { path: [...(this.getPath(range) ?? []), sub], size, entrySize: undefined });
  }
}

function computeExprSize(e: Expr): SizeEstimate | undefined {
  switch (e.kind) {
    case "const":
      switch (e.value.kind) {
        case "string":
          return fixed(Array.from(e.value.value).length);
        case "bytes":
          return fixed(e.value.value.length);
        default:
          return fixed(1);
      }
    case "list":
      return fixed(e.elements.length);
    case "map":
      return fixed(e.entries.length);
    default:
      return undefined;
  }
}

function isScalar(t: CelType): boolean {
  switch (t.kind) {
    case "bool":
    case "double":
    case "duration":
    case "int":
    case "timestamp":
    case "uint":
      return true;
    case "opaque":
      return t.name === "optional_type" && t.params[0] !== undefined && isScalar(t.params[0]);
    default:
      return false;
  }
}
