/**
 * Go `reflect.DeepEqual` over unstructured values without recursion (arbitrarily deep values under
 * preserve-unknown-fields must not overflow the stack): int64 ≠ float64, map key order irrelevant.
 */
import { type JsonObject, type JsonValue, kindOf, toNumber } from "../value/json-value.js";

function scalarEqual(a: JsonValue | undefined, b: JsonValue | undefined, k: string): boolean {
  switch (k) {
    case "integer":
      return typeof a === "number" && typeof b === "number" ? a === b : BigInt(a as number | bigint) === BigInt(b as number | bigint);
    case "number":
      return toNumber(a as number) === toNumber(b as number);
    default:
      return a === b;
  }
}

/** Iterative `reflect.DeepEqual`. */
export function goDeepEqual(x: JsonValue | undefined, y: JsonValue | undefined): boolean {
  const stack: (JsonValue | undefined)[] = [x, y];
  while (stack.length > 0) {
    const b = stack.pop();
    const a = stack.pop();
    if (a === b) continue;
    const k = kindOf(a);
    if (k !== kindOf(b)) return false;
    if (k === "array") {
      const p = a as JsonValue[];
      const q = b as JsonValue[];
      if (p.length !== q.length) return false;
      for (let i = 0; i < p.length; i++) stack.push(p[i], q[i]);
    } else if (k === "object") {
      const p = a as JsonObject;
      const q = b as JsonObject;
      const keys = Object.keys(p);
      if (keys.length !== Object.keys(q).length) return false;
      for (const key of keys) {
        if (!Object.hasOwn(q, key)) return false;
        stack.push(p[key], q[key]);
      }
    } else if (!scalarEqual(a, b, k)) return false;
  }
  return true;
}
