/**
 * Runtime cost model of cel-go (`interpreter/runtimecost.go` `costCall`) in
 * cel-go cost units.
 *
 * @module
 */

import { codePointLength } from "../values/ops.js";
import type { CelValue } from "../values/values.js";
import { CelMap, CelOptional } from "../values/values.js";

/** cel-go `common` cost constants. */
export const COST = {
  selectAndIdent: 1,
  const: 0,
  listCreateBase: 10,
  mapCreateBase: 30,
  structCreateBase: 40,
  stringTraversalFactor: 0.1,
  regexStringLengthFactor: 0.25,
} as const;

/** cel-go `actualSize`: size of strings (code points), bytes, lists, maps, optionals; else 1. */
export function actualSize(v: CelValue): number {
  if (typeof v === "string") return codePointLength(v);
  if (Array.isArray(v)) return v.length;
  if (v instanceof Uint8Array) return v.length;
  if (v instanceof CelMap) return v.size;
  if (v instanceof CelOptional && v.value !== undefined) return actualSize(v.value);
  return 1;
}

/** cel-go v0.29.2 `costCall`: prefix/suffix functions traverse their argument. */
const TRAVERSE_SECOND = new Set(["starts_with_string", "ends_with_string"]);
const TRAVERSE_FIRST = new Set([
  "string_to_bytes",
  "bytes_to_string",
  "strings_quote",
  "string_format",
]);
const MIN_SIZE = new Set([
  "less_string",
  "greater_string",
  "less_equals_string",
  "greater_equals_string",
  "less_bytes",
  "greater_bytes",
  "less_equals_bytes",
  "greater_equals_bytes",
  "equals",
  "not_equals",
]);

/** Default cost of one call with overload `id` (cel-go `CostTracker.costCall` without estimator). */
export function defaultCallCost(id: string, a: CelValue, b: CelValue): number {
  if (TRAVERSE_SECOND.has(id)) return Math.ceil(actualSize(b) * COST.stringTraversalFactor);
  if (TRAVERSE_FIRST.has(id)) return Math.ceil(actualSize(a) * COST.stringTraversalFactor);
  if (MIN_SIZE.has(id)) return Math.ceil(Math.min(actualSize(a), actualSize(b)) * COST.stringTraversalFactor);
  switch (id) {
    case "in_list":
      return actualSize(b);
    case "add_string":
    case "add_bytes":
      return Math.ceil((actualSize(a) + actualSize(b)) * COST.stringTraversalFactor);
    case "matches_string":
    case "matches": {
      const s = Math.ceil((1 + actualSize(a)) * COST.stringTraversalFactor);
      const r = Math.ceil(actualSize(b) * COST.regexStringLengthFactor);
      return s * r;
    }
    case "contains_string":
      return (
        Math.ceil(actualSize(a) * COST.stringTraversalFactor) * Math.ceil(actualSize(b) * COST.stringTraversalFactor)
      );
    default:
      return 1;
  }
}

/** A per-overload runtime cost function of the call's first two arguments. */
export type CostFn = (a: CelValue, b: CelValue) => number;

/** The cost function of every call that costs 1 (the planner charges such calls without calling it). */
export const UNIT_COST: CostFn = () => 1;
const ONE = UNIT_COST;

/** Specialized {@link defaultCallCost} for overload `id` (resolved once at plan time). */
export function callCostFn(id: string): CostFn {
  const f = COST.stringTraversalFactor;
  if (TRAVERSE_SECOND.has(id)) return (_a, b) => Math.ceil(actualSize(b) * f);
  if (TRAVERSE_FIRST.has(id)) return (a) => Math.ceil(actualSize(a) * f);
  if (MIN_SIZE.has(id))
    return (a, b) => {
      // numbers, bools, null...: both sizes are 1, ceil(0.1) = 1
      if (typeof a === "bigint" && typeof b === "bigint") return 1;
      if (typeof a === "string" && typeof b === "string") {
        // code-point length <= UTF-16 length: a short non-empty operand bounds the cost at 1
        if (a.length === 0 || b.length === 0) return 0;
        if (a.length <= 10 || b.length <= 10) return 1;
      }
      return Math.ceil(Math.min(actualSize(a), actualSize(b)) * f);
    };
  switch (id) {
    case "in_list":
      return (_a, b) => actualSize(b);
    case "add_string":
    case "add_bytes":
      return (a, b) => Math.ceil((actualSize(a) + actualSize(b)) * f);
    case "matches_string":
    case "matches":
      return (a, b) =>
        Math.ceil((1 + actualSize(a)) * f) * Math.ceil(actualSize(b) * COST.regexStringLengthFactor);
    case "contains_string":
      return (a, b) => Math.ceil(actualSize(a) * f) * Math.ceil(actualSize(b) * f);
    default:
      return ONE;
  }
}

/**
 * cel-go overload cost trackers registered by `ext.Lists` (version >= 3) and `ext.Sets`. Like cel-go's
 * `OverloadCostTracker`s they take precedence over the host's call-cost model.
 */
export type TrackerFn = (args: readonly CelValue[], result: CelValue) => number;

function allocatingListCall(factor: number, size: number): number {
  const f = factor < 0 ? 1 : factor;
  return Math.trunc(size * f) + 1 + COST.listCreateBase;
}

/** `ext` package `actualSize`: only sized values (no optional unwrapping). */
function extSize(v: CelValue): number {
  return v instanceof CelOptional ? 1 : actualSize(v);
}

const setsCost =
  (factor: number): TrackerFn =>
  (args) =>
    1 + Math.trunc(extSize(args[0] ?? null) * extSize(args[1] ?? null) * factor);

function selfCompare(l: CelValue): number {
  const sz = actualSize(l);
  if (sz === 0 || !Array.isArray(l)) return allocatingListCall(2, 0);
  const first = l[0];
  const factor = typeof first === "string" || first instanceof Uint8Array ? 2 + COST.stringTraversalFactor : 2;
  return allocatingListCall(factor, sz * sz);
}

const outputSize: TrackerFn = (_args, result) => allocatingListCall(1, actualSize(result));
const flatten: TrackerFn = (args) =>
  allocatingListCall(args.length === 2 ? Number(args[1] as bigint) : 1, actualSize(args[0] ?? null));

/** The `ext.Lists` v3 overload tracker for `id`, if any. */
export function trackerFor(id: string): TrackerFn | undefined {
  switch (id) {
    case "list_slice":
    case "lists_range":
    case "list_reverse":
      return outputSize;
    case "list_flatten":
    case "list_flatten_int":
      return flatten;
    case "list_distinct":
      return (args) => selfCompare(args[0] ?? null);
    case "list_sets_contains_list":
    case "list_sets_intersects_list":
      return setsCost(1);
    case "list_sets_equivalent_list":
      return setsCost(2);
    default: {
      // sort overloads are per element type: test the id once, then remember the answer
      const known = sortTrackers.get(id);
      if (known !== undefined || sortTrackers.has(id)) return known;
      let t: TrackerFn | undefined;
      if (/^list_\w+_sort$/.test(id)) t = sortSelf;
      else if (/^list_\w+_sortByAssociatedKeys$/.test(id)) t = sortByKeys;
      if (sortTrackers.size < 10000) sortTrackers.set(id, t);
      return t;
    }
  }
}

const sortSelf: TrackerFn = (args) => selfCompare(args[0] ?? null);
const sortByKeys: TrackerFn = (args) => selfCompare(args[1] ?? null);
/** {@link trackerFor}'s answers for the ids of its default case. */
const sortTrackers = new Map<string, TrackerFn | undefined>();
