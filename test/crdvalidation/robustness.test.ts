/**
 * Bad and extreme input never crashes or hangs: cyclic values, deep schemas, a 10 MB CRD, non-objects at
 * every level of a schema.
 */
import { strict as assert } from "node:assert";
import { test } from "node:test";
import { validateCrdCreate } from "../../src/crdvalidation/validate-crd.js";
import { errorString } from "../../src/errors/field-error.js";
import type { JsonObject, JsonValue } from "../../src/value/json-value.js";

function crd(schema: JsonValue): JsonObject {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "foos.example.com" },
    spec: { group: "example.com", scope: "Namespaced", names: { plural: "foos", kind: "Foo" }, versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: schema } }] },
  };
}

test("a cyclic schema value is refused with a clear error", () => {
  const cyc: JsonObject = { type: "object", properties: {} };
  (cyc["properties"] as JsonObject)["self"] = cyc;
  const r = validateCrdCreate(crd(cyc));
  assert.equal(r.decodeError, 'CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: exceeded max depth');
});

test("a 300-level deep schema with rules validates", () => {
  let s: JsonObject = { type: "string" };
  for (let i = 0; i < 300; i++) s = { type: "object", properties: { a: s }, "x-kubernetes-validations": [{ rule: "true" }] };
  const r = validateCrdCreate(crd(s));
  assert.equal(r.decodeError, undefined);
  assert.deepEqual(r.errors, []);
});

test("a 10 MB CRD is validated", () => {
  const props: JsonObject = {};
  for (let i = 0; i < 30000; i++) props[`field${i}`] = { type: "object", description: "d".repeat(250), properties: { a: { type: "string", maxLength: 10 } } };
  const c = crd({ type: "object", properties: props });
  assert.ok(JSON.stringify(c).length > 10_000_000);
  const r = validateCrdCreate(c);
  assert.deepEqual(r.errors, []);
});

test("schema nodes of the wrong JSON type at any level give a decode error", () => {
  const bad: [JsonValue, string][] = [
    ["object", "json: cannot unmarshal string into Go struct field CustomResourceValidation.spec.versions.schema.openAPIV3Schema of type v1.JSONSchemaProps"],
    [{ type: "object", properties: { a: 5 } }, "json: cannot unmarshal number into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties of type v1.JSONSchemaProps"],
    [{ type: "object", allOf: {} }, "json: cannot unmarshal object into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.allOf of type []v1.JSONSchemaProps"],
    [{ type: "object", required: [1] }, "json: cannot unmarshal number into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.required of type string"],
    // inside a custom unmarshaler (items) the error is reported with the outer field, as addErrorContext does
    [{ type: "array", items: { type: "string", enum: "a" } }, "json: cannot unmarshal string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.items of type []v1.JSON"],
    [{ type: "object", "x-kubernetes-validations": [{ rule: 1 }] }, "json: cannot unmarshal number into Go struct field ValidationRule.spec.versions.schema.openAPIV3Schema.x-kubernetes-validations.rule of type string"],
    [{ type: "object", nullable: "yes" }, "json: cannot unmarshal string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.nullable of type bool"],
  ];
  for (const [schema, msg] of bad) {
    const r = validateCrdCreate(crd(schema));
    assert.equal(r.decodeError, `CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: ${msg}`);
    assert.deepEqual(r.errors.map(errorString), []);
  }
});
