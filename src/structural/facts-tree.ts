/**
 * The subtree facts (./subtree-facts.ts) of every node of a structural schema, as a compact JSON-able
 * tree that a compiled-CRD cache keeps beside the schema: a lazily converted schema
 * (./lazy-structural.ts) knows the facts of a subtree it has not converted.
 *
 * A tree is a number — the node's facts, every child's being 0 — or `[facts, properties, items,
 * additionalProperties]`, where `properties` maps a property name to its tree (0 when absent, or the whole
 * entry 0) and `items` / `additionalProperties` are trees (0 when without facts). Most subtrees have no
 * facts at all, so a tree is a small fraction of its schema.
 */
import type { Structural } from "./structural.js";
import { ALL, subtreeFacts } from "./subtree-facts.js";

export type FactsTree = number | [number, Record<string, FactsTree> | 0, FactsTree, FactsTree];

/** The facts tree of a structural schema (converted in full). */
export function factsTree(s: Structural): FactsTree {
  const bits = subtreeFacts(s);
  if (bits === 0) return 0;
  let props: Record<string, FactsTree> | 0 = 0;
  if (s.properties) {
    for (const [k, p] of s.properties) {
      const t = factsTree(p);
      if (t === 0) continue;
      if (props === 0) props = {};
      Object.defineProperty(props, k, { value: t, enumerable: true, writable: true, configurable: true });
    }
  }
  const items = s.items ? factsTree(s.items) : 0;
  const ap = s.additionalProperties?.schema ? factsTree(s.additionalProperties.schema) : 0;
  return props === 0 && items === 0 && ap === 0 ? bits : [bits, props, items, ap];
}

/** The facts of a tree's root. */
export function factsOf(t: FactsTree): number {
  return typeof t === "number" ? t : t[0];
}

/** The tree of property `name` of a node with tree `t`. */
export function propertyFacts(t: FactsTree, name: string): FactsTree {
  if (typeof t === "number") return 0;
  const p = t[1];
  return p !== 0 && Object.hasOwn(p, name) ? p[name]! : 0;
}

/** The tree of `items` of a node with tree `t`. */
export function itemsFacts(t: FactsTree): FactsTree {
  return typeof t === "number" ? 0 : t[2];
}

/** The tree of `additionalProperties` of a node with tree `t`. */
export function additionalPropertiesFacts(t: FactsTree): FactsTree {
  return typeof t === "number" ? 0 : t[3];
}

const isFacts = (x: unknown, within: number): x is number => typeof x === "number" && Number.isInteger(x) && x >= 0 && (x & ~within) === 0;

/**
 * Whether `x` is a well-formed facts tree (read back from a cache: anything else is not trusted). A child's
 * facts are within its parent's, as a subtree's facts are the union of its nodes'. Iterative: a tree is as
 * deep as its schema.
 */
export function isFactsTree(x: unknown): x is FactsTree {
  const stack: [unknown, number][] = [[x, ALL]];
  while (stack.length > 0) {
    const [t, within] = stack.pop()!;
    if (isFacts(t, within)) continue;
    if (!Array.isArray(t) || t.length !== 4 || !isFacts(t[0], within)) return false;
    const bits = t[0];
    const props: unknown = t[1];
    if (props !== 0) {
      if (typeof props !== "object" || props === null || Array.isArray(props)) return false;
      for (const k of Object.keys(props)) stack.push([(props as Record<string, unknown>)[k], bits]);
    }
    stack.push([t[2], bits], [t[3], bits]);
  }
  return true;
}
