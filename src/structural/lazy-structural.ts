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

/** The children of a lazy node, once converted; `null` until then. */
interface Pending {
  tree: FactsTree;
  items: Structural | undefined | null;
  properties: Map<string, Structural> | undefined | null;
  additionalProperties: Structural["additionalProperties"] | null;
}

const PENDING = Symbol("lazy structural children");

type LazyNode = Structural & { [PENDING]: Pending };

function node(s: JSONSchemaProps, tree: FactsTree): Structural {
  const n = structuralNode(s);
  if (n instanceof StructuralError) throw new CrdkitError("invalid-crd", n.message);
  setSubtreeFacts(n, factsOf(tree));
  if (s.items === undefined && s.properties === undefined && s.additionalProperties === undefined) return n;
  Object.defineProperty(n, PENDING, { value: { tree, items: null, properties: null, additionalProperties: null }, enumerable: false });
  // the same accessor functions on every node (own and enumerable: a spread copy of a node has its children)
  if (s.items !== undefined) Object.defineProperty(n, "items", ITEMS);
  if (s.properties !== undefined) Object.defineProperty(n, "properties", PROPERTIES);
  if (s.additionalProperties !== undefined) Object.defineProperty(n, "additionalProperties", ADDITIONAL);
  return n;
}

const ITEMS: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: LazyNode): Structural | undefined {
    const p = this[PENDING];
    if (p.items === null) p.items = node(this.raw.items as JSONSchemaProps, itemsFacts(p.tree));
    return p.items;
  },
  set(this: LazyNode, v: Structural | undefined) {
    this[PENDING].items = v;
  },
};

const PROPERTIES: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: LazyNode): Map<string, Structural> | undefined {
    const p = this[PENDING];
    if (p.properties === null) {
      const props = this.raw.properties!;
      const keys = Object.keys(props);
      if (keys.length === 0) p.properties = undefined;
      else {
        const m = new Map<string, Structural>();
        for (const k of keys) m.set(k, node(props[k]!, propertyFacts(p.tree, k)));
        p.properties = m;
      }
    }
    return p.properties;
  },
  set(this: LazyNode, v: Map<string, Structural> | undefined) {
    this[PENDING].properties = v;
  },
};

const ADDITIONAL: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: LazyNode): Structural["additionalProperties"] {
    const p = this[PENDING];
    if (p.additionalProperties === null) {
      const ap = this.raw.additionalProperties!;
      p.additionalProperties = typeof ap === "object" ? { schema: node(ap, additionalPropertiesFacts(p.tree)), allows: true } : { allows: ap };
    }
    return p.additionalProperties;
  },
  set(this: LazyNode, v: Structural["additionalProperties"]) {
    this[PENDING].additionalProperties = v;
  },
};

/**
 * The structural form of `schema` (which passed the CRD checks), converted as it is read; `facts` is
 * {@link factsTree} of its full conversion.
 */
export function lazyStructural(schema: JSONSchemaProps, facts: FactsTree): Structural {
  return node(schema, facts);
}
