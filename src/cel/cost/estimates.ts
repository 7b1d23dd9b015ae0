/**
 * Size and cost estimate arithmetic (cel-go `checker.SizeEstimate` / `CostEstimate`), on
 * unsigned 64-bit values held as bigint, saturating at 2^64-1 like cel-go.
 * @module
 */

/** 2^64 - 1 */
export const MAX_UINT64 = (1n << 64n) - 1n;
const TWO_TO_64 = 2 ** 64;

/** A {min, max} range of sizes (string length in code points, list/map entries, bytes). */
export interface SizeEstimate {
  readonly min: bigint;
  readonly max: bigint;
}

/** A {min, max} range of cost units. */
export interface CostEstimate {
  readonly min: bigint;
  readonly max: bigint;
}

/** cel-go cost constants (`common/cost.go`). */
export const SELECT_AND_IDENT_COST = 1n;
export const CONST_COST = 0n;
export const LIST_CREATE_BASE_COST = 10n;
export const MAP_CREATE_BASE_COST = 30n;
export const STRUCT_CREATE_BASE_COST = 40n;
export const STRING_TRAVERSAL_COST_FACTOR = 0.1;
export const REGEX_STRING_LENGTH_COST_FACTOR = 0.25;

/** An unknown size: [0, 2^64-1]. */
export const UNKNOWN_SIZE: SizeEstimate = Object.freeze({ min: 0n, max: MAX_UINT64 });

/** {n, n} */
export function fixed(n: bigint | number): SizeEstimate {
  const v = BigInt(n);
  return { min: v, max: v };
}

/** Saturating addition. */
export function addU64(x: bigint, y: bigint): bigint {
  const s = x + y;
  if (s > MAX_UINT64) return MAX_UINT64;
  return s;
}

/** Saturating multiplication. */
export function mulU64(x: bigint, y: bigint): bigint {
  const p = x * y;
  if (p > MAX_UINT64) return MAX_UINT64;
  return p;
}

/** cel-go `multiplyByCostFactor`: ceil(float64(x) * y), saturating. */
export function mulFactorU64(x: bigint, y: number): bigint {
  const xf = Number(x);
  if (xf > 0 && y > 0 && xf > TWO_TO_64 / y) return MAX_UINT64;
  const c = Math.ceil(xf * y);
  if (c >= TWO_TO_64) return MAX_UINT64;
  return BigInt(c);
}

/** Element-wise saturating sum. */
export function add(a: CostEstimate, b: CostEstimate): CostEstimate {
  return { min: addU64(a.min, b.min), max: addU64(a.max, b.max) };
}

/** Element-wise saturating product. */
export function multiply(a: CostEstimate, b: CostEstimate): CostEstimate {
  return { min: mulU64(a.min, b.min), max: mulU64(a.max, b.max) };
}

/** Both bounds multiplied by a float factor (rounded up). */
export function multiplyByCostFactor(a: CostEstimate, factor: number): CostEstimate {
  return { min: mulFactorU64(a.min, factor), max: mulFactorU64(a.max, factor) };
}

/** The smallest range covering both. */
export function union(a: CostEstimate, b: CostEstimate): CostEstimate {
  return { min: minU64(a.min, b.min), max: maxU64(a.max, b.max) };
}

/** The smaller of two bigints (Math.min does not accept bigint). */
export function minU64(x: bigint, y: bigint): bigint {
  if (y < x) return y;
  return x;
}

/** The larger of two bigints. */
export function maxU64(x: bigint, y: bigint): bigint {
  if (y > x) return y;
  return x;
}
