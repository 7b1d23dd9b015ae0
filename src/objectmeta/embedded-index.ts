/**
 * Per-schema-node cache: does this subtree contain an `x-kubernetes-embedded-resource` node? Coercion and
 * embedded validation skip subtrees without one (they would find nothing to do there).
 */
import type { Structural } from "../structural/structural.js";

const cache = new WeakMap<Structural, boolean>();

/** True when `s` or any node below it (properties, items, additionalProperties) is an embedded resource. */
export function hasEmbedded(s: Structural): boolean {
  const c = cache.get(s);
  if (c !== undefined) return c;
  cache.set(s, false); // guards against (invalid) cyclic schemas
  let r = s.xEmbeddedResource;
  if (!r && s.items) r = hasEmbedded(s.items);
  if (!r && s.additionalProperties?.schema) r = hasEmbedded(s.additionalProperties.schema);
  if (!r && s.properties) {
    for (const p of s.properties.values()) {
      if (hasEmbedded(p)) {
        r = true;
        break;
      }
    }
  }
  cache.set(s, r);
  return r;
}
