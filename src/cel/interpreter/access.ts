/**
 * Field selection and indexing with cel-go's runtime error texts.
 *
 * @module
 */

import { formatGoFloat } from "../../value/go-format.js";
import { typeOf } from "../values/ops.js";
import type { CelValue } from "../values/values.js";
import { CelError, CelMap, CelSpecial, CelUint, HashCelMap, isMapKeyType } from "../values/values.js";

/** Field selection on a map-like value (also used for `has()`); undefined = absent. */
export function selectField(v: CelValue, field: string): CelValue | undefined | CelError {
  if (v instanceof HashCelMap) return v.getString(field);
  if (v instanceof CelMap) return v.get(field);
  // cel-go refQualify: qualifying a non-container reports the missing key
  return new CelError(`no such key: ${field}`);
}

/** Index operation `a[b]` (cel-go semantics). */
export function indexValue(a: CelValue, b: CelValue): CelValue {
  if (a instanceof CelSpecial) return a;
  if (b instanceof CelSpecial) return b;
  if (Array.isArray(a)) {
    let i: bigint | undefined;
    if (typeof b === "bigint") i = b;
    else if (b instanceof CelUint) i = b.value;
    else if (typeof b === "number") {
      if (!Number.isInteger(b)) return new CelError(`unsupported index value ${formatIdx(b)} in list`);
      i = BigInt(b);
    } else return new CelError(`unsupported index type '${typeOf(b).name}' in list`);
    if (i < 0n || i >= BigInt(a.length)) return new CelError(`index out of bounds: ${i}`);
    return a[Number(i)] as CelValue;
  }
  if (a instanceof CelMap) {
    const v = a.get(b);
    if (v === undefined) {
      if (!isMapKeyType(b)) return new CelError(`unsupported key type`);
      return new CelError(`no such key: ${formatKey(b)}`);
    }
    return v;
  }
  return new CelError(`no such key: ${formatKey(b)}`);
}

function formatIdx(d: number): string {
  return formatGoFloat(d);
}

/** Go `%v` rendering of a map key in "no such key" errors. */
export function formatKey(k: CelValue): string {
  if (k instanceof CelUint) return String(k.value);
  if (typeof k === "number") return formatGoFloat(k);
  return String(k);
}

