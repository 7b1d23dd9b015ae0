/**
 * Static cost estimators of cel-go's `ext.Lists` (version 3+) overloads (ext/lists.go,
 * ext/costs.go), registered by the lists library in cel-go.
 * @module
 */
import { LIST_CREATE_BASE_COST, MAX_UINT64, multiply, multiplyByCostFactor, add, fixed, type SizeEstimate, STRING_TRAVERSAL_COST_FACTOR, UNKNOWN_SIZE } from "./estimates.js";
import type { AstNode, CallEstimate, CostEstimator, FunctionEstimator } from "./estimator.js";

function estimateSize(estimator: CostEstimator, node: AstNode): SizeEstimate {
  return node.computedSize ?? estimator.estimateSize(node) ?? UNKNOWN_SIZE;
}

/** cel-go `nodeAsUintValue`: a non-negative int literal, else the default. */
function nodeAsUint(node: AstNode | undefined, dflt: bigint): bigint {
  const e = node?.expr;
  if (e === undefined || e.kind !== "const" || e.value.kind !== "int") return dflt;
  return e.value.value < 0n ? 0n : e.value.value;
}

function allocatingListCall(costFactor: number, listSize: SizeEstimate): CallEstimate {
  const cost = add(add(multiplyByCostFactor(listSize, costFactor), fixed(1)), fixed(LIST_CREATE_BASE_COST));
  return { ...cost, resultSize: listSize };
}

function sortCost(estimator: CostEstimator, node: AstNode, elemKind: string): CallEstimate {
  const sz = estimateSize(estimator, node);
  let factor = 2.0;
  if (elemKind === "string" || elemKind === "bytes") factor += STRING_TRAVERSAL_COST_FACTOR;
  return allocatingListCall(factor, multiply(sz, sz));
}

const SORTABLE: readonly [string, string][] = [
  ["int", "int"],
  ["uint", "uint"],
  ["double", "double"],
  ["bool", "bool"],
  ["google.protobuf.Duration", "duration"],
  ["google.protobuf.Timestamp", "timestamp"],
  ["string", "string"],
  ["bytes", "bytes"],
];

/** Overload id → estimator, as cel-go's lists library (version ≥ 3) registers them. */
export function listsExtEstimators(): Map<string, FunctionEstimator> {
  const m = new Map<string, FunctionEstimator>();
  m.set("list_slice", (est, target, args) => {
    if (target === undefined || args.length !== 2) return undefined;
    const sz = estimateSize(est, target);
    const start = nodeAsUint(args[0], 0n);
    const end = nodeAsUint(args[1], sz.max);
    return allocatingListCall(1, fixed((end - start) & MAX_UINT64));
  });
  const flatten: FunctionEstimator = (est, target, args) => {
    if (target === undefined || args.length > 1) return undefined;
    const depth = args.length === 1 ? nodeAsUint(args[0], MAX_UINT64) : 1n;
    return allocatingListCall(Number(depth), estimateSize(est, target));
  };
  m.set("list_flatten", flatten);
  m.set("list_flatten_int", flatten);
  m.set("lists_range", (_est, target, args) => {
    if (target !== undefined || args.length !== 1) return undefined;
    return allocatingListCall(1, fixed(nodeAsUint(args[0], MAX_UINT64)));
  });
  m.set("list_reverse", (est, target, args) => {
    if (target === undefined || args.length !== 0) return undefined;
    return allocatingListCall(1, estimateSize(est, target));
  });
  m.set("list_distinct", (est, target, args) => {
    if (target === undefined || args.length !== 0) return undefined;
    const sz = estimateSize(est, target);
    return allocatingListCall(2.0, multiply(sz, sz));
  });
  for (const [name, kind] of SORTABLE) {
    m.set(`list_${name}_sort`, (est, target, args) =>
      target === undefined || args.length !== 0 ? undefined : sortCost(est, target, kind),
    );
    m.set(`list_${name}_sortByAssociatedKeys`, (est, target, args) =>
      target === undefined || args.length !== 1 || args[0] === undefined ? undefined : sortCost(est, args[0], kind),
    );
  }
  return m;
}
