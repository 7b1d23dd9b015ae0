/**
 * Defaulting (apiextensions `pkg/apiserver/schema/defaulting/algorithm.go`): fills in `default` values
 * top-down. A property gets its default when absent, or when present as `null` and the property is not
 * nullable. Array items and additionalProperties values that are `null` (and not nullable) are replaced by
 * the items / additionalProperties default. Defaults are deep-copied, never shared.
 */
import type { Structural } from "../structural/structural.js";
import { hasDefaults } from "../structural/subtree-facts.js";
import { type JsonValue, deepClone, isObject, setKey } from "../value/json-value.js";

/** Per object node: its properties with a non-null default, and its properties whose subtree has one. */
interface DefaultsPlan {
  defaulted: [string, Structural][];
  /** Properties to walk into (their subtree has a default). */
  walk: Map<string, Structural>;
}

const plans = new WeakMap<Structural, DefaultsPlan>();

function planOf(s: Structural): DefaultsPlan {
  let p = plans.get(s);
  if (p === undefined) {
    p = { defaulted: [], walk: new Map() };
    if (s.properties) {
      for (const [k, prop] of s.properties) {
        if (prop.hasDefault && prop.default !== undefined && prop.default !== null) p.defaulted.push([k, prop]);
        if (hasDefaults(prop)) p.walk.set(k, prop);
      }
    }
    plans.set(s, p);
  }
  return p;
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
  const plan = props ? planOf(s) : undefined;
  // indexed loops, no destructuring: a for-of allocates an iterator (and a result per step) in V8's lower tiers
  if (plan) {
    const defaulted = plan.defaulted;
    for (let i = 0; i < defaulted.length; i++) {
      const entry = defaulted[i]!;
      const k = entry[0];
      const prop = entry[1];
      const d = prop.default;
      if (!prop.hasDefault || d === undefined || d === null) continue; // (a schema's defaults pruned since)
      if (!Object.hasOwn(x, k) || isNonNullableNull(x[k], prop)) setKey(x, k, deepClone(d));
    }
  }
  const ap = s.additionalProperties;
  if (!props && !ap) return;
  if (ap === undefined) {
    // only properties: walk the ones whose subtree has a default (the others have nothing to do)
    const walk = plan!.walk;
    if (walk.size === 0) return;
    const keys = Object.keys(x);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      const prop = walk.get(k);
      if (prop === undefined) continue;
      const v = x[k]!;
      if (typeof v === "object" && v !== null) applyDefaults(v, prop);
    }
    return;
  }
  const keys = Object.keys(x);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const prop = props?.get(k);
    if (prop !== undefined) {
      const v = x[k]!;
      if (typeof v === "object" && v !== null) applyDefaults(v, prop);
    } else {
      const aps = ap.schema;
      if (isNonNullableNull(x[k], aps)) x[k] = defaultCopy(aps!);
      const v = x[k]!;
      if (typeof v === "object" && v !== null) applyDefaults(v, aps);
    }
  }
}
