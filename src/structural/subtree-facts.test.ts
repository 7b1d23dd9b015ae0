/**
 * The shared per-subtree facts (embedded resource, default, set/map list anywhere below a node): one walk
 * answers all three, for trees, schemas sharing a node (a YAML alias) and cyclic structures.
 */
import { strict as assert } from "node:assert";
import { test } from "node:test";
import type { JSONSchemaProps } from "../crd/types.js";
import { newStructural, StructuralError } from "./new-structural.js";
import type { Structural } from "./structural.js";
import { ALLOF_RULES, CLAUSE_RULES, DEFAULTS, EMBEDDED, LIST_TYPES, XVALIDATIONS, hasDefaults, hasEmbedded, hasListTypes, hasXValidations, subtreeFacts } from "./subtree-facts.js";

function ss(s: JSONSchemaProps): Structural {
  const r = newStructural(s);
  if (r instanceof StructuralError) throw new Error(r.message);
  return r;
}

const cases: [string, JSONSchemaProps, number][] = [
  ["nothing", { type: "object", properties: { a: { type: "string" }, b: { type: "array", items: { type: "integer" } } } }, 0],
  ["a default deep in items", { type: "object", properties: { a: { type: "array", items: { type: "object", properties: { x: { type: "string", default: "d" } } } } } }, DEFAULTS],
  ["embedded under additionalProperties", { type: "object", additionalProperties: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } }, EMBEDDED],
  ["map list", { type: "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"], items: { type: "object", required: ["k"], properties: { k: { type: "string" } } } }, LIST_TYPES],
  ["atomic list is no list type", { type: "array", "x-kubernetes-list-type": "atomic", items: { type: "string" } }, 0],
  ["rules on a nested property", { type: "object", properties: { a: { type: "object", properties: { b: { type: "string", "x-kubernetes-validations": [{ rule: "self != ''" }] } } } } }, XVALIDATIONS],
  ["rules in an allOf clause", { type: "object", properties: { a: { type: "string", allOf: [{ "x-kubernetes-validations": [{ rule: "true" }] }] } } }, ALLOF_RULES | CLAUSE_RULES],
  ["rules in an anyOf clause (not the CEL validator's allOf view)", { type: "object", properties: { a: { type: "string", anyOf: [{ "x-kubernetes-validations": [{ rule: "true" }] }] } } }, CLAUSE_RULES],
  ["rules under not, inside allOf", { type: "string", allOf: [{ not: { "x-kubernetes-validations": [{ rule: "true" }] } }] }, CLAUSE_RULES],
  [
    "all three in different branches",
    {
      type: "object",
      properties: {
        a: { type: "array", "x-kubernetes-list-type": "set", items: { type: "string" } },
        b: { type: "object", properties: { c: { type: "integer", default: 1 } } },
        e: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true },
      },
    },
    EMBEDDED | DEFAULTS | LIST_TYPES,
  ],
];

for (const [name, schema, want] of cases) {
  test(`subtree facts: ${name}`, () => {
    const s = ss(schema);
    assert.equal(subtreeFacts(s), want);
    assert.equal(hasEmbedded(s), (want & EMBEDDED) !== 0);
    assert.equal(hasDefaults(s), (want & DEFAULTS) !== 0);
    assert.equal(hasListTypes(s), (want & LIST_TYPES) !== 0);
    assert.equal(hasXValidations(s), (want & XVALIDATIONS) !== 0);
  });
}

test("subtree facts: asking about a child first, then the root, still sees the child's facts", () => {
  const s = ss({ type: "object", properties: { a: { type: "object", properties: { b: { type: "string", default: "x" } } }, c: { type: "string" } } });
  assert.equal(hasDefaults(s.properties!.get("c")!), false);
  assert.equal(hasDefaults(s.properties!.get("a")!), true);
  assert.equal(hasDefaults(s), true);
});

test("subtree facts: a node shared by two parents counts for both", () => {
  const shared = ss({ type: "object", properties: { d: { type: "string", default: "x" } } });
  const plain = (props: Record<string, Structural>): Structural => ({
    type: "object",
    properties: new Map(Object.entries(props)),
    hasDefault: false,
    nullable: false,
    xPreserveUnknownFields: false,
    xEmbeddedResource: false,
    xIntOrString: false,
    raw: {},
  });
  // p1 is walked after p2 is pushed: the shared node must be finished before either parent is
  const p1 = plain({ s: shared });
  const p2 = plain({ s: shared });
  const root = plain({ a: p1, b: p2 });
  assert.equal(subtreeFacts(root), DEFAULTS);
  assert.equal(hasDefaults(p1), true);
  assert.equal(hasDefaults(p2), true);
});

test("subtree facts: a cyclic structure ends (the cycle adds nothing)", () => {
  const node = (props: Map<string, Structural>, embedded: boolean): Structural => ({
    type: "object",
    properties: props,
    hasDefault: false,
    nullable: false,
    xPreserveUnknownFields: embedded,
    xEmbeddedResource: embedded,
    xIntOrString: false,
    raw: {},
  });
  const b = node(new Map(), true);
  const props = new Map<string, Structural>();
  const a = node(props, false);
  props.set("self", a);
  props.set("b", b);
  assert.equal(subtreeFacts(a), EMBEDDED);
});

test("subtree facts: a converted schema's facts are recorded as it is converted", () => {
  const s = ss({ type: "object", properties: { a: { type: "array", "x-kubernetes-list-type": "set", items: { type: "string" } } } });
  assert.equal(subtreeFacts(s.properties!.get("a")!), LIST_TYPES);
  assert.equal(subtreeFacts(s), LIST_TYPES);
});
