/**
 * `defaulting.PruneDefaults(s)` (prune.go): every `default` is placed into the surrounding root object,
 * coerced (`objectmeta.Coerce(…, isResourceRoot=true, dropInvalidFields=true)`) and pruned with the ROOT
 * schema, then written back. The API server applies this to a copy of each served schema (unless
 * `preserveUnknownFields`), so unknown fields inside defaults never reach objects.
 */
import { errorString } from "../errors/field-error.js";
import { coerce } from "../objectmeta/coerce.js";
import { prune } from "../prune/prune.js";
import type { Structural } from "../structural/structural.js";
import { deepClone, deepEqual } from "../value/json-value.js";
import { SurroundingObject } from "./surrounding-object.js";

/** Result of {@link pruneDefaults}: whether any default changed, or Go's error text. */
export interface PruneDefaultsResult {
  changed: boolean;
  /** e.g. `failed to prune default value: object root default value must be of object type`. */
  error?: string;
}

/**
 * Prunes all defaults of `s` IN PLACE (pass a copy, e.g. `structuredClone`-like deep copy of the
 * schema, when the original must stay untouched).
 */
export function pruneDefaults(s: Structural): PruneDefaultsResult {
  try {
    return { changed: walk(s, s, SurroundingObject.root()) };
  } catch (e) {
    if (e instanceof PruneError) return { changed: false, error: e.message };
    throw e;
  }
}

class PruneError extends Error {}

function walk(root: Structural, s: Structural, f: SurroundingObject): boolean {
  let changed = false;
  if (s.hasDefault && s.default !== undefined && s.default !== null) {
    const orig = s.default;
    const w = f.wrap(deepClone(s.default));
    if ("error" in w) throw new PruneError(`failed to prune default value: ${w.error}`);
    const c = coerce(null, w.obj, root, true, { dropInvalidFields: true });
    if (c.error) throw new PruneError(`failed to prune default value: ${errorString(c.error)}`);
    prune(w.obj, root, true, { trackUnknownFieldPaths: false });
    const r = f.access(w.obj);
    if (!r.found && r.error !== undefined) throw new PruneError(`failed to prune default value: ${r.error}`);
    if (r.found && r.value !== null) s.default = r.value;
    else {
      s.default = undefined;
      s.hasDefault = false;
    }
    changed = !deepEqual(orig, s.default ?? null);
  }
  const aps = s.additionalProperties?.schema;
  if (aps && walk(root, aps, f.child("*"))) changed = true;
  if (s.items && walk(root, s.items, f.index())) changed = true;
  if (s.properties) {
    for (const [k, sub] of s.properties) if (walk(root, sub, f.child(k))) changed = true;
  }
  return changed;
}

/**
 * A copy of the schema tree that {@link pruneDefaults} may mutate (nodes, properties maps and defaults are
 * copied; `raw`, value validations and rules are shared, they are never mutated).
 */
export function cloneStructuralForDefaults(s: Structural): Structural {
  const c: Structural = { ...s };
  if (s.default !== undefined) c.default = deepClone(s.default);
  if (s.items) c.items = cloneStructuralForDefaults(s.items);
  if (s.properties) c.properties = new Map([...s.properties].map(([k, v]) => [k, cloneStructuralForDefaults(v)]));
  if (s.additionalProperties) {
    c.additionalProperties = s.additionalProperties.schema
      ? { ...s.additionalProperties, schema: cloneStructuralForDefaults(s.additionalProperties.schema) }
      : { ...s.additionalProperties };
  }
  return c;
}
