/**
 * Defaulting (apiextensions `pkg/apiserver/schema/defaulting/algorithm.go`): fills in `default` values
 * top-down. A property gets its default when absent, or when present as `null` and the property is not
 * nullable. Array items and additionalProperties values that are `null` (and not nullable) are replaced by
 * the items / additionalProperties default. Defaults are deep-copied, never shared.
 */
import type { Structural } from "../structural/structural.js";
import { type JsonValue, deepClone, isObject, setKey } from "../value/json-value.js";

const defaultsCache = new WeakMap<Structural, boolean>();

/** True when `s` or a node below it has a default (cached); without one, defaulting is a no-op there. */
function hasDefaults(s: Structural): boolean {
  const c = defaultsCache.get(s);
  if (c !== undefined) return c;
  defaultsCache.set(s, false);
  let r = s.hasDefault;
  if (!r && s.items) r = hasDefaults(s.items);
  if (!r && s.additionalProperties?.schema) r = hasDefaults(s.additionalProperties.schema);
  if (!r && s.properties) {
    for (const p of s.properties.values()) {
      if (hasDefaults(p)) {
        r = true;
        break;
      }
    }
  }
  defaultsCache.set(s, r);
  return r;
}

function isNonNullableNull(x: JsonValue | undefined, s: Structural | undefined): boolean {
  return x === null && s !== undefined && !s.nullable;
}

function defaultCopy(s: Structural): JsonValue {
  return s.hasDefault && s.default !== undefined ? deepClone(s.default) : null;
}

/**
 * `defaulting.Default(x, s)`: mutates `x` in place. Run after pruning and
 * {@link pruneNonNullableNullsWithoutDefaults}.
 */
export function applyDefaults(x: JsonValue, s: Structural | undefined | null): void {
  if (!s || !hasDefaults(s)) return;
  if (Array.isArray(x)) {
    const items = s.items;
    for (let i = 0; i < x.length; i++) {
      if (isNonNullableNull(x[i], items)) x[i] = defaultCopy(items!);
      const v = x[i]!;
      if (typeof v === "object" && v !== null) applyDefaults(v, items);
    }
    return;
  }
  if (!isObject(x)) return;
  const props = s.properties;
  if (props) {
    for (const [k, prop] of props) {
      if (!prop.hasDefault || prop.default === undefined || prop.default === null) continue;
      if (!Object.hasOwn(x, k) || isNonNullableNull(x[k], prop)) setKey(x, k, deepClone(prop.default));
    }
  }
  const ap = s.additionalProperties;
  if (!props && !ap) return;
  for (const k of Object.keys(x)) {
    const prop = props?.get(k);
    if (prop !== undefined) {
      const v = x[k]!;
      if (typeof v === "object" && v !== null) applyDefaults(v, prop);
    } else if (ap !== undefined) {
      const aps = ap.schema;
      if (isNonNullableNull(x[k], aps)) x[k] = defaultCopy(aps!);
      const v = x[k]!;
      if (typeof v === "object" && v !== null) applyDefaults(v, aps);
    }
  }
}
