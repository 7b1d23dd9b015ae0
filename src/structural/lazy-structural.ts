/**
 * The structural form of a schema that passed the CRD checks, converted node by node as it is reached:
 * a node's `items`, `properties` and `additionalProperties` are converted the first time they are read.
 * A run that validates a few documents against a large schema (an Issuer's ACME solvers, a Pod template)
 * converts the few nodes those documents reach (and their siblings), not the whole tree.
 *
 * The subtree facts (./subtree-facts.ts) of every node come from a {@link FactsTree} kept from an earlier
 * full conversion of the same schema, so that the questions "are there defaults / rules / ... below?"
 * convert nothing either. Each node is {@link structuralNode}'s, as the full conversion's; the result is
 * equal to `newStructural(schema)` for a schema without structural errors. A schema node that cannot be
 * converted (the CRD checks reject such schemas) throws a CrdkitError when it is reached.
 */
import type { JSONSchemaProps } from "../crd/types.js";
import { CrdkitError } from "../errors/crdkit-error.js";
import { type FactsTree, additionalPropertiesFacts, factsOf, itemsFacts, propertyFacts } from "./facts-tree.js";
import { StructuralError, structuralNode } from "./new-structural.js";
import type { Structural } from "./structural.js";
import { setSubtreeFacts } from "./subtree-facts.js";

const FACTS = Symbol("lazy structural facts");

type LazyNode = Structural & { [FACTS]: FactsTree };

function node(s: JSONSchemaProps, tree: FactsTree): Structural {
  const n = structuralNode(s);
  if (n instanceof StructuralError) throw new CrdkitError("invalid-crd", n.message);
  setSubtreeFacts(n, factsOf(tree));
  if (s.items === undefined && s.properties === undefined && s.additionalProperties === undefined) return n;
  Object.defineProperty(n, FACTS, { value: tree, enumerable: false });
  // the same accessor functions on every node (own and enumerable: a spread copy of a node has its
  // children); the first read replaces the accessor with the value (later reads are plain loads)
  if (s.items !== undefined) Object.defineProperty(n, "items", ITEMS);
  if (s.properties !== undefined) Object.defineProperty(n, "properties", PROPERTIES);
  if (s.additionalProperties !== undefined) Object.defineProperty(n, "additionalProperties", ADDITIONAL);
  return n;
}

/** Makes `key` a plain data property of `n` with value `v`. */
function settle<T>(n: Structural, key: "items" | "properties" | "additionalProperties", v: T): T {
  Object.defineProperty(n, key, { value: v, writable: true, enumerable: true, configurable: true });
  return v;
}

const ITEMS: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: LazyNode): Structural | undefined {
    return settle(this, "items", node(this.raw.items as JSONSchemaProps, itemsFacts(this[FACTS])));
  },
  set(this: LazyNode, v: Structural | undefined) {
    settle(this, "items", v);
  },
};

const PROPERTIES: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: LazyNode): Map<string, Structural> | undefined {
    const props = this.raw.properties!;
    const keys = Object.keys(props);
    if (keys.length === 0) return settle(this, "properties", undefined);
    const tree = this[FACTS];
    const m = new Map<string, Structural>();
    for (const k of keys) m.set(k, node(props[k]!, propertyFacts(tree, k)));
    return settle(this, "properties", m);
  },
  set(this: LazyNode, v: Map<string, Structural> | undefined) {
    settle(this, "properties", v);
  },
};

const ADDITIONAL: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: LazyNode): Structural["additionalProperties"] {
    const ap = this.raw.additionalProperties!;
    return settle(this, "additionalProperties", typeof ap === "object" ? { schema: node(ap, additionalPropertiesFacts(this[FACTS])), allows: true } : { allows: ap });
  },
  set(this: LazyNode, v: Structural["additionalProperties"]) {
    settle(this, "additionalProperties", v);
  },
};

/**
 * The structural form of `schema` (which passed the CRD checks), converted as it is read; `facts` is
 * {@link factsTree} of its full conversion.
 */
export function lazyStructural(schema: JSONSchemaProps, facts: FactsTree): Structural {
  return node(schema, facts);
}
