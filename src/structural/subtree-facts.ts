/**
 * What a schema subtree holds, per structural node, found in ONE walk and cached: whether the node or a
 * node below it (properties, items, additionalProperties) is an `x-kubernetes-embedded-resource`, has a
 * `default`, or declares a `set` / `map` list type. Coercion, embedded validation, defaulting and list-type
 * validation skip subtrees without what they look for. The first question about a node answers all
 * three for its whole subtree (one cache entry per node instead of one per question).
 */
import type { Structural } from "./structural.js";

export const EMBEDDED = 1;
export const DEFAULTS = 2;
export const LIST_TYPES = 4;
/** Set on a node whose facts are being computed (an invalid, cyclic schema reaches it again). */
const PENDING = 8;

const facts = new WeakMap<Structural, number>();

function own(s: Structural): number {
  return (s.xEmbeddedResource ? EMBEDDED : 0) | (s.hasDefault ? DEFAULTS : 0) | (s.xListType === "set" || s.xListType === "map" ? LIST_TYPES : 0);
}

/** The children of a node, in no particular order. */
function children(s: Structural, out: Structural[]): void {
  if (s.items) out.push(s.items);
  const ap = s.additionalProperties?.schema;
  if (ap) out.push(ap);
  if (s.properties) for (const p of s.properties.values()) out.push(p);
}

/** Set on a node whose children have been pushed (it is on the walk's current path). */
const VISITED = 16;

/** Post-order walk without recursion (schemas may nest deeper than the call stack). */
function compute(root: Structural): number {
  const stack: Structural[] = [root];
  const kids: Structural[] = [];
  facts.set(root, PENDING);
  while (stack.length > 0) {
    const s = stack[stack.length - 1]!;
    const f = facts.get(s)!;
    if ((f & PENDING) === 0) {
      // a node shared by two parents, pushed twice and done already
      stack.pop();
      continue;
    }
    if ((f & VISITED) === 0) {
      facts.set(s, f | VISITED);
      kids.length = 0;
      children(s, kids);
      for (const c of kids) {
        const cf = facts.get(c);
        if (cf === undefined) facts.set(c, PENDING);
        else if ((cf & PENDING) === 0 || (cf & VISITED) !== 0) continue; // done, or on the path (a cycle)
        stack.push(c);
      }
      continue;
    }
    stack.pop();
    let r = own(s);
    kids.length = 0;
    children(s, kids);
    for (const c of kids) r |= facts.get(c)! & 7; // a node still on the path (a cycle) adds nothing
    facts.set(s, r);
  }
  return facts.get(root)!;
}

/** The facts ({@link EMBEDDED} | {@link DEFAULTS} | {@link LIST_TYPES}) of `s`'s subtree. */
export function subtreeFacts(s: Structural): number {
  const f = facts.get(s);
  if (f !== undefined && (f & PENDING) === 0) return f;
  if (f !== undefined) return f & 7; // reached again while being computed (cyclic schema)
  return compute(s);
}

/** `s` or a node below it is an embedded resource. */
export function hasEmbedded(s: Structural): boolean {
  return (subtreeFacts(s) & EMBEDDED) !== 0;
}

/** `s` or a node below it has a default. */
export function hasDefaults(s: Structural): boolean {
  return (subtreeFacts(s) & DEFAULTS) !== 0;
}

/** `s` or a node below it declares a `set` or `map` list. */
export function hasListTypes(s: Structural): boolean {
  return (subtreeFacts(s) & LIST_TYPES) !== 0;
}
