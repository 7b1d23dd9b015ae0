/**
 * Small helpers to declare overload implementations.
 *
 * @module
 */

import type { OverloadImpl } from "../interpreter/functions.js";
import type { CelValue } from "../values/values.js";
import { CelError } from "../values/values.js";

/** Declares a global-function overload. */
export function global(
  id: string,
  fn: string,
  args: readonly string[],
  // biome-ignore lint/suspicious/noExplicitAny: implementations take narrowed argument types
  impl: (...a: any[]) => CelValue,
  nonStrict = false,
): OverloadImpl {
  return { id, fn, receiver: false, args, impl, nonStrict };
}

/** Declares a receiver-style overload (receiver tag first in `args`). */
export function member(
  id: string,
  fn: string,
  args: readonly string[],
  // biome-ignore lint/suspicious/noExplicitAny: implementations take narrowed argument types
  impl: (...a: any[]) => CelValue,
): OverloadImpl {
  return { id, fn, receiver: true, args, impl };
}

/** A new error value. */
export function err(msg: string): CelError {
  return new CelError(msg);
}

/** int64 bounds. */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
export const UINT64_MAX = 2n ** 64n - 1n;

/** int64 range check: the value or "integer overflow". */
export function checkInt(v: bigint): bigint | CelError {
  return v < INT64_MIN || v > INT64_MAX ? new CelError("integer overflow") : v;
}
