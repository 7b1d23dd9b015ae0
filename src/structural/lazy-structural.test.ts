/**
 * The lazily converted structural schema (lazy-structural.ts): read in full it is the full conversion,
 * node for node, with the same subtree facts; it converts only what is read (a node the checks would
 * reject is reported only when reached); and the facts tree it is given is checked when read back.
 */
import { strict as assert } from "node:assert";
import { test } from "node:test";
import type { JSONSchemaProps } from "../crd/types.js";
import { CrdkitError } from "../errors/crdkit-error.js";
import { factsTree, isFactsTree } from "./facts-tree.js";
import { lazyStructural } from "./lazy-structural.js";
import { newStructural, StructuralError } from "./new-structural.js";
import type { Structural } from "./structural.js";
import { DEFAULTS, EMBEDDED, LIST_TYPES, XVALIDATIONS, hasDefaults, subtreeFacts } from "./subtree-facts.js";

function ss(s: JSONSchemaProps): Structural {
  const r = newStructural(s);
  if (r instanceof StructuralError) throw new Error(r.message);
  return r;
}

/** Every node of a structural schema with its path, children before siblings, in key order. */
function nodes(s: Structural, path = "", out: [string, Structural][] = []): [string, Structural][] {
  out.push([path, s]);
  if (s.items) nodes(s.items, `${path}[]`, out);
  if (s.properties) for (const [k, p] of s.properties) nodes(p, `${path}.${k}`, out);
  if (s.additionalProperties?.schema) nodes(s.additionalProperties.schema, `${path}{}`, out);
  return out;
}

const SCHEMA: JSONSchemaProps = {
  type: "object",
  required: ["spec"],
  properties: {
    spec: {
      type: "object",
      "x-kubernetes-validations": [{ rule: "self.a != 'x'", message: "no x" }],
      properties: {
        a: { type: "string", default: "d", pattern: "^[a-z]+$" },
        list: {
          type: "array",
          "x-kubernetes-list-type": "map",
          "x-kubernetes-list-map-keys": ["k"],
          items: { type: "object", required: ["k"], properties: { k: { type: "string" }, v: { type: "integer", default: 1 } } },
        },
        labels: { type: "object", additionalProperties: { type: "string", maxLength: 3 } },
        template: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true },
        free: { type: "object", additionalProperties: true, anyOf: [{ required: ["x"] }, { properties: { y: { maxLength: 1 } } }] },
        plain: { type: "object", properties: { n: { type: "number", minimum: 0 }, deep: { type: "array", items: { type: "string" } } } },
      },
    },
    status: { type: "object", properties: { phase: { type: "string", enum: ["A", "B"] } } },
  },
};

test("read in full, a lazy structural schema is the full conversion with the same facts at every node", () => {
  const full = ss(SCHEMA);
  const tree = factsTree(full);
  assert.ok(isFactsTree(tree));
  const lazy = lazyStructural(SCHEMA, tree);
  assert.deepStrictEqual(lazy, full);
  const a = nodes(full);
  const b = nodes(lazy);
  assert.deepStrictEqual(
    b.map(([p, n]) => [p, subtreeFacts(n)]),
    a.map(([p, n]) => [p, subtreeFacts(n)]),
  );
  assert.equal(subtreeFacts(lazy), DEFAULTS | LIST_TYPES | EMBEDDED | XVALIDATIONS);
  // a spread copy of a node has its children (as some stages copy the root)
  const copy = { ...lazyStructural(SCHEMA, tree), xEmbeddedResource: true };
  assert.deepStrictEqual([...copy.properties!.keys()], ["spec", "status"]);
});

test("a lazy structural schema converts a subtree only when it is read; the facts of the rest come from the tree", () => {
  // `$ref` below plain.deep: the CRD checks reject it; a lazy conversion that never reaches it does not see it
  const bad = structuredClone(SCHEMA);
  const plain = bad.properties!["spec"]!.properties!["plain"]!;
  plain.properties!["deep"]!.items = { $ref: "#/definitions/x" };
  const tree = factsTree(ss(SCHEMA));
  const lazy = lazyStructural(bad, tree);
  const spec = lazy.properties!.get("spec")!;
  assert.equal(hasDefaults(spec), true);
  assert.equal(hasDefaults(spec.properties!.get("plain")!), false);
  assert.equal(spec.properties!.get("list")!.items!.properties!.get("v")!.default, 1);
  const deep = spec.properties!.get("plain")!.properties!.get("deep")!;
  assert.throws(
    () => deep.items,
    (e: unknown) => e instanceof CrdkitError && e.message === "OpenAPIV3Schema '$ref' is not supported",
  );
});

test("corpus-like shapes: properties named like Object.prototype members, empty properties, additionalProperties false", () => {
  const schema: JSONSchemaProps = {
    type: "object",
    properties: {
      constructor: { type: "string", default: "c" },
      empty: { type: "object", properties: {} },
      closed: { type: "object", additionalProperties: false },
    },
  };
  Object.defineProperty(schema.properties, "__proto__", { value: { type: "object", properties: { toString: { type: "integer", default: 2 } } }, enumerable: true });
  assert.deepStrictEqual(Object.keys(schema.properties!), ["constructor", "empty", "closed", "__proto__"]);
  const full = ss(schema);
  const lazy = lazyStructural(schema, factsTree(full));
  assert.deepStrictEqual(
    nodes(lazy).map(([p, n]) => [p, subtreeFacts(n), n.default]),
    nodes(full).map(([p, n]) => [p, subtreeFacts(n), n.default]),
  );
  assert.equal(lazy.properties!.get("empty")!.properties, undefined);
  assert.deepStrictEqual(lazy.properties!.get("closed")!.additionalProperties, { allows: false });
});

test("a facts tree read back is checked: anything else, or a child with facts its parent lacks, is not one", () => {
  for (const good of [0, 3, [2, { a: 2 }, 0, 0], [6, 0, [4, 0, 0, 0], 2]]) assert.equal(isFactsTree(good), true, JSON.stringify(good));
  for (const bad of [-1, 1.5, 64, "2", null, {}, [], [2, { a: 2 }, 0], [2, { a: 4 }, 0, 0], [2, [], 0, 0], [2, 0, "x", 0], [2, 0, 0, [1, 0, 0, 0]], [2, { a: null }, 0, 0]]) {
    assert.equal(isFactsTree(bad), false, JSON.stringify(bad));
  }
});
