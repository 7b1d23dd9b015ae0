/**
 * `defaulting.PruneNonNullableNullsWithoutDefaults` (prunenulls.go): deletes object fields whose value is
 * `null` when their schema (property or additionalProperties) exists, is not nullable and has no default.
 * Non-nullable nulls with a default are left for {@link applyDefaults}. Array items are never removed.
 */
import type { Structural } from "../structural/structural.js";
import { type JsonValue, isObject } from "../value/json-value.js";

function schemaForField(field: string, s: Structural | undefined): Structural | undefined {
  if (!s) return undefined;
  const p = s.properties?.get(field);
  if (p !== undefined) return p;
  return s.additionalProperties?.schema;
}

/** Mutates `x` in place. */
export function pruneNonNullableNullsWithoutDefaults(x: JsonValue, s: Structural | undefined | null): void {
  if (!s) return; // without a schema nothing below can be pruned
  const schema = s;
  if (Array.isArray(x)) {
    const items = schema.items;
    // indexed loops: a for-of allocates an iterator (and a result per step) in V8's lower tiers
    for (let i = 0; i < x.length; i++) {
      const v = x[i]!;
      if (typeof v === "object" && v !== null) pruneNonNullableNullsWithoutDefaults(v, items);
    }
    return;
  }
  if (!isObject(x)) return;
  const keys = Object.keys(x);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const v = x[k]!;
    if (v === null) {
      const fs = schemaForField(k, schema);
      if (fs !== undefined && !fs.nullable && !fs.hasDefault) delete x[k];
    } else if (typeof v === "object") {
      pruneNonNullableNullsWithoutDefaults(v, schemaForField(k, schema));
    }
  }
}
