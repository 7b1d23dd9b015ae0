/**
 * Query parameters as apimachinery's parameter codec converts them into option structs
 * (`runtime.Convert_Slice_string_To_*`): the first value counts; a malformed number is a 400 with
 * strconv's text.
 */
import { goQuote } from "../../go/fmt.js";
import { apiErrors } from "./errors.js";

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;

/** `Convert_Slice_string_To_bool`: `0`, `false` (any case) and a missing value are false, anything else (also "") true. */
export function queryBool(v: string | null): boolean {
  if (v === null) return false;
  return !(v === "0" || v.toLowerCase() === "false");
}

/** `Convert_Slice_string_To_int64` (`strconv.ParseInt(s, 10, 64)`): 400 `strconv.ParseInt: parsing "x": invalid syntax`. */
export function parseGoInt64(v: string): number {
  if (!/^[+-]?\d+$/.test(v)) throw apiErrors.badRequest(`strconv.ParseInt: parsing ${goQuote(v)}: invalid syntax`);
  const n = BigInt(v);
  if (n > INT64_MAX || n < INT64_MIN) throw apiErrors.badRequest(`strconv.ParseInt: parsing ${goQuote(v)}: value out of range`);
  return Number(n);
}

/** Whether `strconv.ParseUint(s, 10, 64)` accepts the text, and why not: `invalid syntax` or `value out of range`. */
export function goUintProblem(v: string): string | undefined {
  if (!/^\d+$/.test(v)) return "invalid syntax";
  return BigInt(v) > UINT64_MAX ? "value out of range" : undefined;
}
