/**
 * What a schema subtree holds, per structural node, found in ONE walk and cached: whether the node or a
 * node below it (properties, items, additionalProperties) is an `x-kubernetes-embedded-resource`, has a
 * `default`, declares a `set` / `map` list type, or carries x-kubernetes-validations (on the node, or in
 * its value validations' allOf / anyOf / oneOf / not). Coercion, embedded validation, defaulting,
 * list-type validation and the CEL validator skip subtrees without what they look for. The first question
 * about a node answers all of them for its whole subtree (one cache entry per node, one walk per schema).
 */
import type { NestedValueValidation, Structural } from "./structural.js";

export const EMBEDDED = 1;
export const DEFAULTS = 2;
export const LIST_TYPES = 4;
/** x-kubernetes-validations on a structural node. */
export const XVALIDATIONS = 8;
/** x-kubernetes-validations inside a node's `allOf` clauses. */
export const ALLOF_RULES = 16;
/** x-kubernetes-validations inside a node's `allOf`, `anyOf`, `oneOf` or `not` clauses. */
export const CLAUSE_RULES = 32;
/** Every fact. */
export const ALL = 63;
/** Set on a node whose facts are being computed (an invalid, cyclic schema reaches it again). */
const PENDING = 64;

const facts = new WeakMap<Structural, number>();

function nestedHasRules(n: NestedValueValidation, depth: number): boolean {
  if (depth > 10000) return false;
  if ((n.xValidations?.length ?? 0) > 0) return true;
  if (n.items && nestedHasRules(n.items, depth + 1)) return true;
  if (n.additionalProperties && nestedHasRules(n.additionalProperties, depth + 1)) return true;
  if (n.properties) for (const p of n.properties.values()) if (nestedHasRules(p, depth + 1)) return true;
  const vv = n.valueValidation;
  for (const list of [vv.allOf, vv.anyOf, vv.oneOf]) if (list) for (const a of list) if (nestedHasRules(a, depth + 1)) return true;
  return vv.not !== undefined && nestedHasRules(vv.not, depth + 1);
}

/** Rules in a clause, looking only through `allOf` below it (the CEL validator's view of clauses). */
function nestedHasAllOfRules(n: NestedValueValidation, depth: number): boolean {
  if (depth > 10000) return false;
  if ((n.xValidations?.length ?? 0) > 0) return true;
  if (n.items && nestedHasAllOfRules(n.items, depth + 1)) return true;
  if (n.additionalProperties && nestedHasAllOfRules(n.additionalProperties, depth + 1)) return true;
  if (n.properties) for (const p of n.properties.values()) if (nestedHasAllOfRules(p, depth + 1)) return true;
  if (n.valueValidation.allOf) for (const a of n.valueValidation.allOf) if (nestedHasAllOfRules(a, depth + 1)) return true;
  return false;
}

function own(s: Structural): number {
  let f = (s.xEmbeddedResource ? EMBEDDED : 0) | (s.hasDefault ? DEFAULTS : 0) | (s.xListType === "set" || s.xListType === "map" ? LIST_TYPES : 0);
  if ((s.xValidations?.length ?? 0) > 0) f |= XVALIDATIONS;
  const vv = s.valueValidation;
  if (vv && (vv.allOf || vv.anyOf || vv.oneOf || vv.not)) {
    if (vv.allOf?.some((a) => nestedHasAllOfRules(a, 1))) f |= ALLOF_RULES;
    for (const list of [vv.allOf, vv.anyOf, vv.oneOf]) if (list?.some((a) => nestedHasRules(a, 1))) f |= CLAUSE_RULES;
    if (vv.not && nestedHasRules(vv.not, 1)) f |= CLAUSE_RULES;
  }
  return f;
}

/** The children of a node, in no particular order. */
function children(s: Structural, out: Structural[]): void {
  if (s.items) out.push(s.items);
  const ap = s.additionalProperties?.schema;
  if (ap) out.push(ap);
  if (s.properties) for (const p of s.properties.values()) out.push(p);
}

/** Set on a node whose children have been pushed (it is on the walk's current path). */
const VISITED = 128;

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
    for (const c of kids) r |= facts.get(c)! & ALL; // a node still on the path (a cycle) adds nothing
    facts.set(s, r);
  }
  return facts.get(root)!;
}

/** The facts ({@link EMBEDDED} | {@link DEFAULTS} | ... bits) of `s`'s subtree. */
export function subtreeFacts(s: Structural): number {
  const f = facts.get(s);
  if (f !== undefined && (f & PENDING) === 0) return f;
  if (f !== undefined) return f & ALL; // reached again while being computed (cyclic schema)
  return compute(s);
}

/**
 * Records the facts of a node whose children's facts are known (or cheap to find): called by the
 * structural conversion as it finishes each node, children first, so that a converted schema needs no
 * walk of its own.
 */
export function recordSubtreeFacts(s: Structural): void {
  if (facts.has(s)) return;
  let r = own(s);
  if (s.items) r |= subtreeFacts(s.items);
  const ap = s.additionalProperties?.schema;
  if (ap) r |= subtreeFacts(ap);
  if (s.properties) for (const p of s.properties.values()) r |= subtreeFacts(p);
  facts.set(s, r);
}

/**
 * Records the facts of a node's subtree known without looking at it (kept from an earlier conversion of
 * the same schema, ./lazy-structural.ts): its children are then never walked for them.
 */
export function setSubtreeFacts(s: Structural, bits: number): void {
  facts.set(s, bits & ALL);
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

/** `s` or a node below it carries x-kubernetes-validations (on structural nodes; clauses not counted). */
export function hasXValidations(s: Structural): boolean {
  return (subtreeFacts(s) & XVALIDATIONS) !== 0;
}
