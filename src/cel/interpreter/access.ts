/**
 * Field selection and indexing with cel-go's runtime error texts.
 *
 * @module
 */

import { formatGoFloat } from "../../go/fmt.js";
import { typeOf } from "../values/ops.js";
import type { CelValue } from "../values/values.js";
import {
  CelDuration,
  CelError,
  CelMap,
  CelOptional,
  CelSpecial,
  CelTimestamp,
  CelUint,
  isMapKeyType,
} from "../values/values.js";

/** Field selection on a map-like value (also used for `has()`); undefined = absent. */
export function selectField(v: CelValue, field: string): CelValue | undefined | CelError {
  if (v instanceof CelMap) return v.getString(field);
  // cel-go refQualify: qualifying a non-container reports the missing key
  return new CelError(`no such key: ${field}`);
}

/** Index operation `a[b]` (cel-go semantics). */
export function indexValue(a: CelValue, b: CelValue): CelValue {
  if (a instanceof CelSpecial) return a;
  if (b instanceof CelSpecial) return b;
  const badQualifier = qualifierTypeError(b);
  if (badQualifier !== undefined) return badQualifier;
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


/** Go type name cel-go reports for a value that cannot qualify (index) anything. */
function goQualifierTypeName(v: CelValue): string | undefined {
  if (v === null) return "types.Null";
  if (v instanceof Uint8Array) return "types.Bytes";
  if (Array.isArray(v)) return "*types.baseList";
  if (v instanceof CelMap) return "*types.baseMap";
  if (v instanceof CelDuration) return "types.Duration";
  if (v instanceof CelTimestamp) return "types.Timestamp";
  if (v instanceof CelOptional) return "*types.Optional";
  return undefined;
}

/** cel-go `newQualifier`: only string, int, uint, double and bool values can be indexes or keys. */
function qualifierTypeError(v: CelValue): CelError | undefined {
  if (typeof v === "string" || typeof v === "bigint" || typeof v === "number" || typeof v === "boolean") return undefined;
  if (v instanceof CelUint) return undefined;
  const name = goQualifierTypeName(v);
  return name === undefined ? undefined : new CelError(`invalid qualifier type: ${name}`);
}
