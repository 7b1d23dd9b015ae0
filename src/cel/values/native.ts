/**
 * Conversion of plain JS / JSON data into CEL values (for tests and simple hosts).
 *
 * @module
 */

import type { CelValue } from "./values.js";
import { CelMap, CelSpecial, CelUint, HashCelMap, CelDuration, CelTimestamp, CelType, CelOptional, CelOpaque } from "./values.js";

/**
 * Converts JS data: integers (number without fraction or bigint) become CEL `int`
 * when `intsAsInt` (default true), other numbers `double`; arrays lists; plain
 * objects and Maps CEL maps. CEL values pass through unchanged.
 */
export function nativeToCel(v: unknown, intsAsInt = true): CelValue {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case "boolean":
    case "string":
    case "bigint":
      return v;
    case "number":
      return intsAsInt && Number.isInteger(v) ? BigInt(v) : v;
    case "object":
      break;
    default:
      return null;
  }
  if (Array.isArray(v)) return v.map((x) => nativeToCel(x, intsAsInt));
  if (
    v instanceof Uint8Array ||
    v instanceof CelMap ||
    v instanceof CelUint ||
    v instanceof CelSpecial ||
    v instanceof CelDuration ||
    v instanceof CelTimestamp ||
    v instanceof CelType ||
    v instanceof CelOptional ||
    v instanceof CelOpaque
  )
    return v as CelValue;
  const m = new HashCelMap();
  if (v instanceof Map) {
    for (const [k, x] of v) m.set(nativeToCel(k, intsAsInt), nativeToCel(x, intsAsInt));
    return m;
  }
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) m.set(k, nativeToCel(x, intsAsInt));
  return m;
}
