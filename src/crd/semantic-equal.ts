/**
 * apimachinery `equality.Semantic.DeepEqual` over decoded CRD structures: like Go `reflect.DeepEqual`
 * (int64 ≠ float64) except that nil and empty slices/maps compare equal, and an absent struct field equals
 * its zero value (decoded structures omit zero-valued non-pointer fields).
 */
import { type JsonValue, deepEqual, isObject } from "../value/json-value.js";

/** Go map-typed fields of the CRD types (other objects are struct pointers: nil ≠ empty). */
const MAP_FIELDS = new Set(["properties", "patternProperties", "definitions", "dependencies", "labels", "annotations"]);

function isEmptyCollection(v: JsonValue | undefined, key: string | undefined): boolean {
  if (v === undefined) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (isObject(v) && key !== undefined && MAP_FIELDS.has(key)) return Object.keys(v).length === 0;
  return false;
}

/** Semantic deep equality (see module comment). */
export function semanticEqual(a: JsonValue | undefined, b: JsonValue | undefined, key?: string): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) {
    return (a === undefined && b === undefined) || (a === undefined ? isEmptyCollection(b, key) : isEmptyCollection(a, key));
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!semanticEqual(a[i], b[i])) return false;
    return true;
  }
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      const x = Object.hasOwn(a, k) ? a[k] : undefined;
      const y = Object.hasOwn(b, k) ? b[k] : undefined;
      if (!semanticEqual(x, y, k)) return false;
    }
    return true;
  }
  return deepEqual(a, b);
}
