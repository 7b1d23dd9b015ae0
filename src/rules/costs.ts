/**
 * Cost models of Kubernetes' CEL libraries: the static estimator (apiserver `library.CostEstimator`
 * `EstimateCallCost` plus apiextensions' DeclType size estimator) and the runtime call costs (`CallCost`).
 */
import {
  type AstNode,
  type CallCostFn,
  type CallCostShape,
  type CallEstimate,
  CelMap,
  CelSpecial,
  type CelValue,
  type CostEstimate,
  type CostEstimator,
  codePointLength,
  fixed,
  MAX_UINT64,
  type SizeEstimate,
} from "../cel/index.js";
import { add, multiply, multiplyByCostFactor, mulFactorU64, union } from "../cel/cost/estimates.js";
import type { DeclType } from "./decl-type.js";
import { CIDR_TYPE, FORMAT_TYPE, FormatValue, IP_TYPE, QUANTITY_TYPE, SEMVER_TYPE, URL_TYPE } from "./library/kube-values.js";

const STRING_TRAVERSAL = 0.1;
const REGEX_FACTOR = 0.25;
const LIST_CREATE = 10n;
const STRUCT_CREATE = 40n;
/** `cel.MaxNameFormatRegexSize`. */
const MAX_NAME_FORMAT_REGEX_SIZE = 128;
/** `cel.MaxFormatSize`. */
const MAX_FORMAT_SIZE = 64n;

const UNKNOWN: SizeEstimate = { min: 0n, max: MAX_UINT64 };
const ONE: CostEstimate = fixed(1);

/** Kubernetes library functions with a constant cost of 1, estimated and actual (apiserver `library/cost.go`). */
const UNIT_COST_FUNCTIONS: ReadonlySet<string> = new Set([
  "masked", "prefixLength", "family", "isUnspecified", "isLoopback", "isLinkLocalMulticast", "isLinkLocalUnicast",
  "isGlobalUnicast", "format.named", "sign", "asInteger", "isInteger", "asApproximateFloat", "isGreaterThan",
  "isLessThan", "compareTo", "add", "sub", "major", "minor", "patch", "getScheme", "getHostname", "getHost",
  "getPort", "getEscapedPath", "getQuery",
]);

/** The apiextensions size estimator: walks `self`'s DeclType along the node path. */
export function declSizeEstimator(root: DeclType): (node: AstNode) => SizeEstimate | undefined {
  return (node) => {
    const path = node.path;
    if (!path || path.length === 0) return undefined;
    let cur: DeclType | undefined = root;
    for (const name of path.slice(1)) {
      if (!cur) return undefined;
      if (name === "@items" || name === "@values") cur = cur.elem;
      else if (name === "@keys") {
        // the key type is apiservercel.StringType, whose MaxElements is 0
        if (cur.kind !== "map") return undefined;
        return { min: 0n, max: 0n };
      } else cur = cur.fields?.get(name)?.type;
    }
    if (!cur) return undefined;
    return { min: 0n, max: BigInt(cur.maxElements) };
  };
}

function mulSize(a: SizeEstimate, b: SizeEstimate): SizeEstimate {
  return multiply(a, b);
}

/** `library.CostEstimator` with a size estimator. */
export function kubeCostEstimator(sizeOf: (node: AstNode) => SizeEstimate | undefined): CostEstimator {
  const est: CostEstimator = {
    estimateSize: sizeOf,
    estimateCallCost(fn, overloadId, target, args) {
      return kubeEstimateCallCost(est, fn, overloadId, target, args);
    },
  };
  return est;
}

function sizeEstimate(e: CostEstimator, n: AstNode): SizeEstimate {
  return n.computedSize ?? e.estimateSize(n) ?? UNKNOWN;
}

function listElementNode(list: AstNode): AstNode | undefined {
  const p = list.type.params[0];
  if (!p) return undefined;
  return { path: list.path ? [...list.path, "@items"] : undefined, type: p, expr: list.expr, computedSize: undefined };
}

function selectorCost(len: SizeEstimate): CostEstimate {
  const parse = multiplyByCostFactor(len, STRING_TRAVERSAL);
  const reqCount = multiplyByCostFactor(len, 0.5);
  const reqCost = multiplyByCostFactor(reqCount, Number(LIST_CREATE + STRUCT_CREATE));
  return add(add(fixed(LIST_CREATE), parse), reqCost);
}

function kubeEstimateCallCost(
  e: CostEstimator,
  fn: string,
  overloadId: string,
  target: AstNode | undefined,
  args: readonly AstNode[],
): CallEstimate | undefined {
  if (UNIT_COST_FUNCTIONS.has(fn)) return ONE;
  switch (fn) {
    case "fieldSelector":
    case "labelSelector":
      if (args.length === 1) return selectorCost(sizeEstimate(e, args[0]!));
      return undefined;
    case "isSorted":
    case "sum":
    case "max":
    case "min":
    case "indexOf":
    case "lastIndexOf":
    case "includes": {
      // (also the strings extension's indexOf/lastIndexOf: a string target has no element type)
      if (!target) break;
      let elCost: CostEstimate = ONE;
      const el = listElementNode(target);
      if (el) {
        if (el.type.kind === "string" || el.type.kind === "bytes") {
          elCost = add(elCost, multiplyByCostFactor(sizeEstimate(e, el), STRING_TRAVERSAL));
        }
        return multiply(sizeEstimate(e, target), elCost);
      }
      if (fn === "includes") return multiply(sizeEstimate(e, target), elCost);
      return multiplyByCostFactor(sizeEstimate(e, target), STRING_TRAVERSAL);
    }
    case "url":
      if (args.length === 1) {
        const sz = sizeEstimate(e, args[0]!);
        return { ...multiplyByCostFactor(sz, STRING_TRAVERSAL), resultSize: sz };
      }
      break;
    case "lowerAscii":
    case "upperAscii":
    case "substring":
    case "trim":
      if (target) {
        const sz = sizeEstimate(e, target);
        return { ...multiplyByCostFactor(sz, STRING_TRAVERSAL), resultSize: sz };
      }
      break;
    case "replace":
      if (target && args.length >= 2) {
        const sz = sizeEstimate(e, target);
        const toReplace = sizeEstimate(e, args[0]!);
        const replaceWith = sizeEstimate(e, args[1]!);
        let countMax = 0n;
        let countMin = 0n;
        let retMax = 0n;
        let retMin = 0n;
        if (toReplace.min === 0n) {
          countMax = sz.max < MAX_UINT64 ? sz.max + 1n : sz.max;
          retMax = sz.max;
        } else if (replaceWith.max <= toReplace.min) {
          retMax = sz.max;
        } else {
          countMax = BigInt(Math.ceil(Number(sz.max) / Number(toReplace.min)));
        }
        if (toReplace.max === 0n) {
          countMin = sz.min < MAX_UINT64 ? sz.min + 1n : sz.min;
          retMin = sz.min;
        } else if (toReplace.max <= replaceWith.min) {
          retMin = sz.min;
        } else {
          countMin = BigInt(Math.ceil(Number(sz.min) / Number(toReplace.max)));
        }
        const size = add(mulSize({ min: countMin, max: countMax }, replaceWith), { min: retMin, max: retMax });
        return { ...multiplyByCostFactor(sz, 2 * STRING_TRAVERSAL), resultSize: size };
      }
      break;
    case "split":
      if (target) {
        const sz = sizeEstimate(e, target);
        let max = sz.max;
        const lit = args[1]?.expr;
        if (lit?.kind === "const" && lit.value.kind === "int") max = BigInt.asUintN(64, lit.value.value);
        return { ...multiplyByCostFactor(sz, 2 * STRING_TRAVERSAL), resultSize: { min: 0n, max } };
      }
      break;
    case "join":
      if (target) {
        let sz: SizeEstimate = { min: 0n, max: 0n };
        const listSize = sizeEstimate(e, target);
        const el = listElementNode(target);
        if (el) sz = mulSize(listSize, sizeEstimate(e, el));
        if (args.length > 0) {
          const sep = sizeEstimate(e, args[0]!);
          const minSep = listSize.min > 0n ? listSize.min - 1n : 0n;
          const maxSep = listSize.max > 0n ? listSize.max - 1n : 0n;
          sz = add(sz, mulSize(sep, { min: minSep, max: maxSep }));
        }
        return { ...multiplyByCostFactor(sz, STRING_TRAVERSAL), resultSize: sz };
      }
      break;
    case "find":
    case "findAll":
      if (target && args.length >= 1) {
        const sz = sizeEstimate(e, target);
        const strCost = multiplyByCostFactor(add(sz, ONE), STRING_TRAVERSAL);
        const regexCost = multiplyByCostFactor(sizeEstimate(e, args[0]!), REGEX_FACTOR);
        return { ...multiply(strCost, regexCost), resultSize: { min: 0n, max: sz.max } };
      }
      break;
    case "cidr":
    case "isIP":
    case "isCIDR":
    case "quantity":
    case "isQuantity":
    case "semver":
    case "isSemver":
      if (args.length >= 1) return multiplyByCostFactor(sizeEstimate(e, args[0]!), STRING_TRAVERSAL);
      break;
    case "ip":
      if (overloadId === "cidr_ip") return ONE;
      if (args.length >= 1) return multiplyByCostFactor(sizeEstimate(e, args[0]!), STRING_TRAVERSAL);
      break;
    case "ip.isCanonical":
      if (args.length >= 1) return multiplyByCostFactor(sizeEstimate(e, args[0]!), 2 * STRING_TRAVERSAL);
      break;
    case "containsIP":
      if (args.length >= 1) {
        const sz: SizeEstimate = { min: 4n, max: 16n };
        let c = multiplyByCostFactor(add(sz, sz), STRING_TRAVERSAL);
        if (overloadId === "cidr_contains_ip_string") c = add(c, multiplyByCostFactor(sizeEstimate(e, args[0]!), STRING_TRAVERSAL));
        return c;
      }
      break;
    case "containsCIDR":
      if (args.length >= 1) {
        const sz: SizeEstimate = { min: 4n, max: 16n };
        let c = multiplyByCostFactor(add(sz, sz), STRING_TRAVERSAL);
        c = add(c, multiplyByCostFactor(sz, STRING_TRAVERSAL));
        c = add(c, ONE);
        if (overloadId === "cidr_contains_cidr_string") c = add(c, multiplyByCostFactor(sizeEstimate(e, args[0]!), STRING_TRAVERSAL));
        return c;
      }
      break;
    case "validate":
      if (args.length >= 1) {
        const sz = sizeEstimate(e, args[0]!);
        return multiplyByCostFactor(multiplyByCostFactor(sz, STRING_TRAVERSAL), MAX_NAME_FORMAT_REGEX_SIZE * REGEX_FACTOR);
      }
      break;
    case "_==_":
      if (args.length === 2) {
        const l = args[0]!.type;
        const r = args[1]!.type;
        if (l.kind === "opaque" && r.kind === "opaque" && l.name === r.name) {
          switch (l.name) {
            case IP_TYPE:
            case CIDR_TYPE:
            case QUANTITY_TYPE:
            case SEMVER_TYPE:
              return ONE;
            case FORMAT_TYPE:
              return multiplyByCostFactor({ min: 1n, max: MAX_FORMAT_SIZE }, STRING_TRAVERSAL);
            case URL_TYPE: {
              let size: SizeEstimate = ONE;
              const rs = args[1]!.computedSize;
              if (rs) size = union(rs, rs);
              return multiplyByCostFactor({ min: 1n, max: size.max }, STRING_TRAVERSAL);
            }
          }
        }
      }
      break;
  }
  return undefined;
}

function actualSize(v: CelValue): number {
  if (typeof v === "string") return codePointLength(v);
  if (v instanceof Uint8Array) return v.length;
  if (Array.isArray(v)) return v.length;
  if (v instanceof CelMap) return v.size;
  return 1;
}

function traversalCost(v: CelValue, depth = 0): number {
  if (depth > 100) return 1;
  if (typeof v === "string") return Math.floor(new TextEncoder().encode(v).length * STRING_TRAVERSAL);
  if (v instanceof Uint8Array) return Math.floor(v.length * STRING_TRAVERSAL);
  if (Array.isArray(v)) {
    let c = 0;
    for (const x of v) c += traversalCost(x as CelValue, depth + 1);
    return c;
  }
  if (v instanceof CelMap) {
    let c = 0;
    for (const [k, x] of v.entries()) c += traversalCost(k, depth + 1) + traversalCost(x, depth + 1);
    return c;
  }
  return 1;
}

const ceilT = (n: number, f = STRING_TRAVERSAL) => Number(mulFactorU64(BigInt(n), f));

/** The functions {@link kubeCallCost} prices by their arguments or result (the cases of its switch). */
const PER_CALL_FUNCTIONS: ReadonlySet<string> = new Set([
  "isSorted", "sum", "max", "min", "indexOf", "lastIndexOf", "includes", "url", "lowerAscii", "upperAscii",
  "substring", "trim", "replace", "split", "join", "find", "findAll", "cidr", "isIP", "isCIDR", "quantity",
  "isQuantity", "semver", "isSemver", "ip", "ip.isCanonical", "containsIP", "containsCIDR", "validate", "_==_",
]);

/** `_==_` is priced from its left operand alone. */
const EQUALS_SHAPE: CallCostShape = { byOperands: (a) => kubeEqualsCost(a) };

/** {@link kubeCallCost}'s cost of a call site, from its function and overload id alone. */
function kubeCallCostShape(fn: string, overloadId: string): CallCostShape {
  if (fn === "_==_") return EQUALS_SHAPE;
  if (UNIT_COST_FUNCTIONS.has(fn)) {
    if (fn === "add" || fn === "sub") return overloadId.startsWith("quantity_") ? 1 : "default";
    return 1;
  }
  return PER_CALL_FUNCTIONS.has(fn) ? "dynamic" : "default";
}

/** `library.CostEstimator.CallCost`: runtime costs of Kubernetes functions (undefined: default model). */
const kubeCallCostOf = (fn: string, overloadId: string, args: readonly CelValue[], result: CelValue): number | undefined => {
  // the most frequent priced call first
  if (fn === "_==_") return kubeEqualsCost(args[0]);
  if (UNIT_COST_FUNCTIONS.has(fn)) {
    // `add`/`sub` are only Kubernetes functions on quantities.
    if (fn === "add" || fn === "sub") return overloadId.startsWith("quantity_") ? 1 : undefined;
    return 1;
  }
  switch (fn) {
    case "isSorted":
    case "sum":
    case "max":
    case "min":
    case "indexOf":
    case "lastIndexOf":
    case "includes":
      // Kubernetes charges one traversal of the receiver, strings extension overloads included
      return args.length > 0 ? traversalCost(args[0] as CelValue) : 0;
    case "url":
    case "lowerAscii":
    case "upperAscii":
    case "substring":
    case "trim":
      return args.length >= 1 ? ceilT(actualSize(args[0] as CelValue)) : undefined;
    case "replace":
    case "split":
      return args.length >= 1 ? ceilT(actualSize(args[0] as CelValue), 2 * STRING_TRAVERSAL) : undefined;
    case "join":
      return ceilT(actualSize(result), 2 * STRING_TRAVERSAL);
    case "find":
    case "findAll":
      if (args.length >= 2) {
        const s = ceilT(1 + actualSize(args[0] as CelValue));
        const r = ceilT(actualSize(args[1] as CelValue), REGEX_FACTOR);
        return s * r;
      }
      return undefined;
    case "cidr":
    case "isIP":
    case "isCIDR":
    case "quantity":
    case "isQuantity":
    case "semver":
    case "isSemver":
      return args.length >= 1 ? ceilT(actualSize(args[0] as CelValue)) : undefined;
    case "ip":
      if (overloadId === "cidr_ip") return 1;
      return args.length >= 1 ? ceilT(actualSize(args[0] as CelValue)) : undefined;
    case "ip.isCanonical":
      return args.length >= 1 ? ceilT(actualSize(args[0] as CelValue), 2 * STRING_TRAVERSAL) : undefined;
    case "containsIP":
      if (args.length >= 2) {
        const c = actualSize(args[0] as CelValue);
        let cost = ceilT(c + c);
        if (overloadId === "cidr_contains_ip_string") cost += ceilT(actualSize(args[1] as CelValue));
        return cost;
      }
      return undefined;
    case "containsCIDR":
      if (args.length >= 2) {
        const c = actualSize(args[0] as CelValue);
        let cost = ceilT(c + c) + ceilT(c) + 1;
        if (overloadId === "cidr_contains_cidr_string") cost += ceilT(actualSize(args[1] as CelValue));
        return cost;
      }
      return undefined;
    case "validate":
      if (args.length >= 2 && args[0] instanceof FormatValue) {
        const s = ceilT(1 + actualSize(args[1] as CelValue));
        const r = ceilT(args[0].maxRegexSize, REGEX_FACTOR);
        return s * r;
      }
      return undefined;
  }
  return undefined;
};

/** Kubernetes' opaque types whose `==` costs 1. */
const UNIT_EQUALS_TYPES: ReadonlySet<string> = new Set([QUANTITY_TYPE, IP_TYPE, CIDR_TYPE, FORMAT_TYPE, URL_TYPE, SEMVER_TYPE]);

/** `_==_`: 1 when the left operand is one of Kubernetes' opaque values, else the default model. */
function kubeEqualsCost(l: CelValue | undefined): number | undefined {
  if (typeof l === "object" && l !== null && !(l instanceof CelSpecial) && "celType" in l) {
    if (UNIT_EQUALS_TYPES.has((l as { celType: { name: string } }).celType.name)) return 1;
  }
  return undefined;
}

/** {@link kubeCallCostOf} with its plan-time {@link CallCostShape}s (constant-cost calls are not called per evaluation). */
export const kubeCallCost: CallCostFn = Object.assign(kubeCallCostOf, { shape: kubeCallCostShape });
