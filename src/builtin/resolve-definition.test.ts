import * as assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { JSONSchemaProps } from "../crd/types.js";
import { DefinitionResolver, RecursiveDefinitionError, UnresolvedReferenceError } from "./resolve-definition.js";
import { patchDefinition } from "./schema-patches.js";

function resolver(defs: Record<string, JSONSchemaProps>): DefinitionResolver {
  return new DefinitionResolver((n) => defs[n]);
}

describe("DefinitionResolver", () => {
  it("replaces $ref and lone allOf [$ref] by the definition, with the referring node's default, type, nullable and x- extensions", () => {
    const r = resolver({
      Root: {
        type: "object",
        properties: {
          a: { $ref: "T" },
          b: { allOf: [{ $ref: "T" }], default: {}, nullable: true, "x-kubernetes-list-type": "atomic" },
          c: { type: "array", items: { $ref: "T" } },
        },
      },
      T: { type: "object", properties: { x: { type: "string" } }, "x-kubernetes-map-type": "atomic" },
    });
    assert.deepEqual(r.resolve("Root"), {
      type: "object",
      properties: {
        a: { type: "object", properties: { x: { type: "string" } }, "x-kubernetes-map-type": "atomic" },
        b: {
          type: "object",
          properties: { x: { type: "string" } },
          "x-kubernetes-map-type": "atomic",
          default: {},
          nullable: true,
          "x-kubernetes-list-type": "atomic",
        },
        c: { type: "array", items: { type: "object", properties: { x: { type: "string" } }, "x-kubernetes-map-type": "atomic" } },
      },
    });
  });
  it("an allOf with more than a reference is kept (and resolved inside)", () => {
    const r = resolver({ Root: { allOf: [{ $ref: "T" }, { required: ["x"] }] }, T: { type: "string" } });
    assert.deepEqual(r.resolve("Root"), { allOf: [{ type: "string" }, { required: ["x"] }] });
  });
  it("detects recursion and unresolved references", () => {
    assert.throws(() => resolver({ A: { properties: { b: { $ref: "B" } } }, B: { items: { $ref: "A" } } }).resolve("A"), RecursiveDefinitionError);
    assert.throws(() => resolver({ A: { properties: { b: { $ref: "Missing" } } } }).resolve("A"), (e: unknown) => {
      return e instanceof UnresolvedReferenceError && e.message === "cannot resolve reference Missing in A";
    });
  });
});

describe("patchDefinition (kubectl-validate's schema patches, and crdkit's)", () => {
  it("IntOrString becomes x-kubernetes-int-or-string", () => {
    const def = { format: "int-or-string", oneOf: [{ type: "integer" }, { type: "string" }] };
    assert.deepEqual(patchDefinition("io.k8s.apimachinery.pkg.util.intstr.IntOrString", def), { "x-kubernetes-int-or-string": true });
  });
  it("types with custom null handling are nullable, to the leaves", () => {
    const q = patchDefinition("io.k8s.apimachinery.pkg.api.resource.Quantity", { oneOf: [{ type: "string" }, { type: "number" }] });
    assert.deepEqual(q, { oneOf: [{ type: "string", nullable: true }, { type: "number", nullable: true }], nullable: true });
  });
  it("{} defaults of fields of those types are dropped, others kept", () => {
    const d = patchDefinition("X", {
      properties: {
        t: { allOf: [{ $ref: "io.k8s.apimachinery.pkg.apis.meta.v1.Time" }], default: {} },
        i: { $ref: "io.k8s.apimachinery.pkg.util.intstr.IntOrString", default: {} },
        s: { allOf: [{ $ref: "io.k8s.api.core.v1.PodSpec" }], default: {} },
      },
    });
    assert.deepEqual(d.properties, {
      t: { allOf: [{ $ref: "io.k8s.apimachinery.pkg.apis.meta.v1.Time" }] },
      i: { $ref: "io.k8s.apimachinery.pkg.util.intstr.IntOrString" },
      s: { allOf: [{ $ref: "io.k8s.api.core.v1.PodSpec" }], default: {} },
    });
  });
  it("byte strings may be empty", () => {
    assert.deepEqual(patchDefinition("X", { type: "string", format: "byte" }), { type: "string", allOf: [{ anyOf: [{ format: "byte" }, { maxLength: 0 }] }] });
  });
  it("RawExtension and FieldsV1 keep unknown fields", () => {
    assert.deepEqual(patchDefinition("io.k8s.apimachinery.pkg.runtime.RawExtension", { type: "object" }), {
      type: "object",
      nullable: true,
      "x-kubernetes-preserve-unknown-fields": true,
    });
  });
});
