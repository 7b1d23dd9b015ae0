/**
 * cel-go's built-in per-overload call costs (the `switch overloadID` of `functionCost` in
 * checker/cost.go): string traversal, regex, `in`, concatenation, comparison and conditional
 * costs; everything else costs 1 plus its arguments.
 * @module
 */
import type { CallExpr, Expr } from "../ast.js";
import {
  add,
  addU64,
  type CostEstimate,
  fixed,
  minU64,
  mulU64,
  multiply,
  multiplyByCostFactor,
  REGEX_STRING_LENGTH_COST_FACTOR,
  type SizeEstimate,
  STRING_TRAVERSAL_COST_FACTOR,
  union,
} from "./estimates.js";
import type { AstNode, CallEstimate } from "./estimator.js";

/** Sizes of a list's or map's entries. */
export interface EntrySize {
  readonly containerKind: "list" | "map";
  readonly key: SizeEstimate;
  readonly val: SizeEstimate;
}

/** What the built-in costs need from the estimator. */
export interface CallCostContext {
  sizeOrUnknown(node: Expr | AstNode): SizeEstimate;
  computeEntrySize(e: Expr): EntrySize | undefined;
  setEntrySize(id: number, entry: EntrySize): void;
}

const ZERO: CostEstimate = { min: 0n, max: 0n };

/** Union of two entry-size estimates (undefined when either is unknown). */
export function unionEntry(a: EntrySize | undefined, b: EntrySize | undefined): EntrySize | undefined {
  if (a === undefined || b === undefined) return undefined;
  return { containerKind: a.containerKind, key: union(a.key, b.key), val: union(a.val, b.val) };
}

/** A cost with an optional result size. */
export function withSize(c: CostEstimate, resultSize: SizeEstimate | undefined): CallEstimate {
  return resultSize === undefined ? { min: c.min, max: c.max } : { min: c.min, max: c.max, resultSize };
}


/** The cost of one overload of call `e` (arguments' costs included). */
export function builtinCallCost(
  ctx: CallCostContext,
  e: CallExpr,
  overloadId: string,
  target: AstNode | undefined,
  args: readonly AstNode[],
  argCosts: readonly CostEstimate[],
  argSum: () => CostEstimate,
): CallEstimate {
  const a0 = args[0];
  const a1 = args[1];
  switch (overloadId) {
    case "string_format":
      if (target !== undefined) {
        return add(multiplyByCostFactor(ctx.sizeOrUnknown(target), STRING_TRAVERSAL_COST_FACTOR), argSum());
      }
      break;
    case "string_to_bytes":
      if (args.length === 1 && a0 !== undefined) {
        const sz = ctx.sizeOrUnknown(a0);
        return withSize(add(multiplyByCostFactor(sz, STRING_TRAVERSAL_COST_FACTOR), argSum()), {
          min: sz.min,
          max: mulU64(sz.max, 4n),
        });
      }
      break;
    case "bytes_to_string":
      if (args.length === 1 && a0 !== undefined) {
        const sz = ctx.sizeOrUnknown(a0);
        return withSize(add(multiplyByCostFactor(sz, STRING_TRAVERSAL_COST_FACTOR), argSum()), {
          min: sz.min / 4n,
          max: sz.max,
        });
      }
      break;
    case "strings_quote":
      if (args.length === 1 && a0 !== undefined) {
        const sz = ctx.sizeOrUnknown(a0);
        return withSize(add(multiplyByCostFactor(sz, STRING_TRAVERSAL_COST_FACTOR), argSum()), {
          min: addU64(sz.min, 2n),
          max: addU64(mulU64(sz.max, 2n), 2n),
        });
      }
      break;
    case "starts_with_string":
    case "ends_with_string":
      if (args.length === 1 && a0 !== undefined) {
        return add(multiplyByCostFactor(ctx.sizeOrUnknown(a0), STRING_TRAVERSAL_COST_FACTOR), argSum());
      }
      break;
    case "in_list":
      if (args.length === 2 && a1 !== undefined) {
        return add(multiplyByCostFactor(ctx.sizeOrUnknown(a1), 1), argSum());
      }
      break;
    case "matches_string":
      if (target !== undefined && args.length === 1 && a0 !== undefined) {
        const strCost = multiplyByCostFactor(add(ctx.sizeOrUnknown(target), fixed(1)), STRING_TRAVERSAL_COST_FACTOR);
        const regexCost = multiplyByCostFactor(ctx.sizeOrUnknown(a0), REGEX_STRING_LENGTH_COST_FACTOR);
        return add(multiply(strCost, regexCost), argSum());
      }
      break;
    case "contains_string":
      if (target !== undefined && args.length === 1 && a0 !== undefined) {
        const strCost = multiplyByCostFactor(ctx.sizeOrUnknown(target), STRING_TRAVERSAL_COST_FACTOR);
        const subCost = multiplyByCostFactor(ctx.sizeOrUnknown(a0), STRING_TRAVERSAL_COST_FACTOR);
        return add(multiply(strCost, subCost), argSum());
      }
      break;
    case "logical_or":
    case "logical_and": {
      const lhs = argCosts[0] ?? ZERO;
      const rhs = argCosts[1] ?? ZERO;
      return { min: lhs.min, max: add(lhs, rhs).max };
    }
    case "conditional": {
      if (a0 === undefined || a1 === undefined || args[2] === undefined) break;
      const a2 = args[2];
      const size = union(ctx.sizeOrUnknown(a1), ctx.sizeOrUnknown(a2));
      const entry = unionEntry(ctx.computeEntrySize(a1.expr), ctx.computeEntrySize(a2.expr));
      if (entry !== undefined) ctx.setEntrySize(e.id, entry);
      const c0 = argCosts[0] ?? ZERO;
      return withSize(add(c0, union(argCosts[1] ?? ZERO, argCosts[2] ?? ZERO)), size);
    }
    case "add_string":
    case "add_bytes":
    case "add_list":
      if (args.length === 2 && a0 !== undefined && a1 !== undefined) {
        const resultSize = add(ctx.sizeOrUnknown(a0), ctx.sizeOrUnknown(a1));
        const entry = unionEntry(ctx.computeEntrySize(a0.expr), ctx.computeEntrySize(a1.expr));
        if (entry !== undefined) ctx.setEntrySize(e.id, entry);
        if (overloadId === "add_list") return withSize(add(fixed(1), argSum()), resultSize);
        return withSize(add(multiplyByCostFactor(resultSize, STRING_TRAVERSAL_COST_FACTOR), argSum()), resultSize);
      }
      break;
    case "less_string":
    case "greater_string":
    case "less_equals_string":
    case "greater_equals_string":
    case "less_bytes":
    case "greater_bytes":
    case "less_equals_bytes":
    case "greater_equals_bytes":
    case "equals":
    case "not_equals": {
      if (a0 === undefined || a1 === undefined) break;
      const l = ctx.sizeOrUnknown(a0);
      const r = ctx.sizeOrUnknown(a1);
      const smallestMax = minU64(l.max, r.max);
      const min = smallestMax > 0n ? 1n : 0n;
      return add(multiplyByCostFactor({ min, max: smallestMax }, STRING_TRAVERSAL_COST_FACTOR), argSum());
    }
    default:
      break;
  }
  return add(fixed(1), argSum());
}
