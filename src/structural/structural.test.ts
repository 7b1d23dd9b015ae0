/**
 * NewStructural errors (convert.go), ValidateStructural invariants, metadata restrictions and completeness
 * (pkg/apiserver/schema/validation_test.go: TestValidateStructuralMetadataInvariants,
 * TestValidateStructuralCompleteness), sorting by error text, int-or-string patterns, Unfold.
 */
import { strict as assert } from "node:assert";
import { test } from "node:test";
import type { JSONSchemaProps } from "../crd/types.js";
import { errorString } from "../errors/field-error.js";
import { FieldPath } from "../errors/field-path.js";
import { cachedStructural, newStructural, StructuralError } from "./new-structural.js";
import type { Structural } from "./structural.js";
import { unfold } from "./unfold.js";
import { type StructuralValidationOptions, validateStructural } from "./validate-structural.js";

function ss(s: JSONSchemaProps): Structural {
  const r = newStructural(s);
  if (r instanceof StructuralError) throw new Error(r.message);
  return r;
}

const newStructuralErrors: [string, JSONSchemaProps, string][] = [
  ["id", { type: "object", id: "x" }, "OpenAPIV3Schema 'id' is not supported"],
  ["$schema", { type: "object", $schema: "x" }, "OpenAPIV3Schema 'schema' is not supported"],
  ["$ref", { type: "object", properties: { a: { $ref: "#/x" } } }, "OpenAPIV3Schema '$ref' is not supported"],
  ["patternProperties", { type: "object", patternProperties: { x: { type: "string" } } }, "OpenAPIV3Schema 'patternProperties' is not supported"],
  ["dependencies", { type: "object", dependencies: { a: ["b"] } }, "OpenAPIV3Schema 'dependencies' is not supported"],
  ["additionalItems", { type: "array", items: { type: "string" }, additionalItems: false }, "OpenAPIV3Schema 'additionalItems' is not supported"],
  ["definitions", { type: "object", definitions: { d: { type: "string" } } }, "OpenAPIV3Schema 'definitions' is not supported"],
  ["items array", { type: "array", items: [{ type: "string" }] }, "OpenAPIV3Schema 'items' must be a schema, but is an array"],
  ["items array in a nested clause", { type: "array", items: { type: "string" }, anyOf: [{ items: [{}] }] }, "OpenAPIV3Schema 'items' must be a schema, but is an array"],
  ["preserve-unknown-fields false", { type: "object", "x-kubernetes-preserve-unknown-fields": false }, "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined"],
  ["$ref in not", { type: "object", not: { $ref: "#/x" } }, "OpenAPIV3Schema '$ref' is not supported"],
];

for (const [name, schema, msg] of newStructuralErrors) {
  test(`NewStructural error: ${name}`, () => {
    const r = newStructural(schema);
    assert.ok(r instanceof StructuralError);
    assert.equal(r.message, msg);
  });
}

test("NewStructural: additionalProperties forms, default null, extensions", () => {
  const s = ss({
    type: "object",
    properties: {
      a: { type: "object", additionalProperties: { type: "string" } },
      b: { type: "object", additionalProperties: false },
      c: { type: "string", default: "x", nullable: true },
      d: { "x-kubernetes-int-or-string": true, "x-kubernetes-preserve-unknown-fields": true },
    },
    allOf: [{ additionalProperties: true }, { additionalProperties: false }],
  });
  assert.equal(s.properties?.get("a")?.additionalProperties?.allows, true);
  assert.equal(s.properties?.get("a")?.additionalProperties?.schema?.type, "string");
  assert.deepEqual(s.properties?.get("b")?.additionalProperties, { allows: false });
  assert.equal(s.properties?.get("c")?.hasDefault, true);
  assert.equal(s.properties?.get("c")?.nullable, true);
  assert.equal(s.properties?.get("d")?.xIntOrString, true);
  // nested additionalProperties: true → empty nested validation, false → dropped
  assert.ok(s.valueValidation?.allOf?.[0]?.additionalProperties);
  assert.equal(s.valueValidation?.allOf?.[1]?.additionalProperties, undefined);
});

const P = FieldPath.of("spec", "validation").child("openAPIV3Schema");
const structuralCases: [string, JSONSchemaProps, string[], StructuralValidationOptions?][] = [
  ["root metadata: only name and generateName may be restricted", {
    type: "object",
    properties: { metadata: { type: "object", properties: { name: { type: "string", pattern: "^a" }, generateName: { type: "string" } } } },
  }, []],
  ["root metadata with another property", {
    type: "object",
    properties: { metadata: { type: "object", properties: { name: { type: "string" }, labels: { type: "object" } } } },
  }, [`${P}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`]],
  ["root metadata with a description", { type: "object", properties: { metadata: { type: "object", description: "x" } } }, [
    `${P}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
  ]],
  ["root metadata with a value validation", { type: "object", properties: { metadata: { type: "object", minProperties: 1 } } }, [
    `${P}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
  ]],
  ["root metadata of type string", { type: "object", properties: { metadata: { type: "string" } } }, [`${P}.properties[metadata].type: Invalid value: "string": must be object`]],
  ["root metadata default is left to API validation", { type: "object", properties: { metadata: { type: "object", default: {} } } }, []],
  ["embedded resources may restrict metadata, kind and apiVersion must be strings", {
    type: "object",
    properties: {
      e: {
        type: "object",
        "x-kubernetes-embedded-resource": true,
        properties: { metadata: { type: "object", properties: { labels: { type: "object" } } }, kind: { type: "integer" }, apiVersion: { type: "string" } },
      },
    },
  }, [`${P}.properties[e].properties[kind].type: Invalid value: "integer": must be string`]],
  ["metadata below the root is a plain field", { type: "object", properties: { x: { type: "object", properties: { metadata: { type: "string" } } } } }, []],
  ["int-or-string patterns are allowed", {
    type: "object",
    properties: {
      a: { "x-kubernetes-int-or-string": true, anyOf: [{ type: "integer" }, { type: "string" }] },
      b: { "x-kubernetes-int-or-string": true, allOf: [{ anyOf: [{ type: "integer" }, { type: "string" }] }, { pattern: "^a" }] },
      c: { "x-kubernetes-int-or-string": true, anyOf: [{ type: "integer" }, { type: "string", pattern: "x" }] },
    },
  }, [
    `${P}.properties[c].anyOf[0].type: Forbidden: must be empty to be structural`,
    `${P}.properties[c].anyOf[1].type: Forbidden: must be empty to be structural`,
  ]],
  ["forbidden extensions in nested clauses", {
    type: "object",
    properties: { a: { type: "array", items: { type: "string" } } },
    not: {
      properties: {
        a: {
          "x-kubernetes-list-type": "set", "x-kubernetes-list-map-keys": ["k"], "x-kubernetes-map-type": "atomic", default: [],
          "x-kubernetes-preserve-unknown-fields": true, "x-kubernetes-embedded-resource": true, "x-kubernetes-int-or-string": true,
          "x-kubernetes-validations": [{ rule: "true" }],
        },
      },
    },
  }, [
    `${P}.not.properties[a].default: Forbidden: must be undefined to be structural`,
    `${P}.not.properties[a].x-kubernetes-embedded-resource: Forbidden: must be false to be structural`,
    `${P}.not.properties[a].x-kubernetes-int-or-string: Forbidden: must be false to be structural`,
    `${P}.not.properties[a].x-kubernetes-list-map-keys: Forbidden: must be empty to be structural`,
    `${P}.not.properties[a].x-kubernetes-list-type: Forbidden: must be undefined to be structural`,
    `${P}.not.properties[a].x-kubernetes-map-type: Forbidden: must be undefined to be structural`,
    `${P}.not.properties[a].x-kubernetes-preserve-unknown-fields: Forbidden: must be false to be structural`,
    `${P}.not.properties[a].x-kubernetes-validations: Forbidden: must be empty to be structural`,
  ]],
  ["invalid regular expressions (Go RE2 syntax)", {
    type: "object",
    properties: { a: { type: "string", pattern: "(a" }, b: { type: "string", pattern: "a++" }, c: { type: "string", pattern: "(?=x)" } },
  }, [
    `${P}.properties[a].pattern: Invalid value: "(a": must be a valid regular expression, but isn't: error parsing regexp: missing closing ): \`(a\``,
    `${P}.properties[b].pattern: Invalid value: "a++": must be a valid regular expression, but isn't: error parsing regexp: invalid nested repetition operator: \`++\``,
    `${P}.properties[c].pattern: Invalid value: "(?=x)": must be a valid regular expression, but isn't: error parsing regexp: invalid or unsupported Perl syntax: \`(?=\``,
  ]],
  ["embedded resource rules", {
    type: "object",
    properties: {
      a: { "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true },
      b: { type: "array", "x-kubernetes-embedded-resource": true, items: { type: "string" } },
      c: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true, additionalProperties: { type: "string" } },
    },
  }, [
    `${P}.properties[a].type: Required value: must be object if x-kubernetes-embedded-resource is true`,
    `${P}.properties[b].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
    `${P}.properties[b].type: Invalid value: "array": must be object if x-kubernetes-embedded-resource is true`,
    `${P}.properties[c].additionalProperties: Forbidden: must not be used if x-kubernetes-embedded-resource is set`,
  ]],
  ["completeness: additionalProperties structure with property validations (allowed by option)", {
    type: "object",
    properties: { m: { type: "object", additionalProperties: { type: "object", properties: { bar: { type: "string" } } } } },
    allOf: [{ properties: { m: { properties: { foo: { minLength: 2 } } } } }],
  }, [], { allowValidationPropertiesWithAdditionalProperties: true }],
  ["completeness: additionalProperties structure with property validations (default options)", {
    type: "object",
    properties: { m: { type: "object", additionalProperties: { type: "object", properties: { bar: { type: "string" } } } } },
    allOf: [{ properties: { m: { properties: { foo: { minLength: 2 } } } } }],
  }, [`${P}.properties[m].properties[foo]: Required value: because it is defined in ${P}.allOf[0].properties[m].properties[foo]`]],
  ["completeness: nested additionalProperties need a structural counterpart (option)", {
    type: "object", properties: { m: { type: "object", properties: { bar: { type: "string" } } } },
    allOf: [{ properties: { m: { additionalProperties: { minLength: 2 } } } }],
  }, [`${P}.properties[m].additionalProperties: Required value: because it is defined in ${P}.allOf[0].properties[m].additionalProperties`], { allowNestedAdditionalProperties: true }],
  ["completeness is only checked from the root's logical junctors (as Kubernetes does)", {
    type: "object", properties: { m: { type: "object", allOf: [{ properties: { undeclared: { minLength: 2 } } }] } },
  }, []],
];

for (const [name, schema, want, opts] of structuralCases) {
  test(`ValidateStructural: ${name}`, () => {
    assert.deepEqual(validateStructural(P, ss(schema), opts).map(errorString), want);
  });
}

test("ValidateStructural with a nil path renders paths from the first element", () => {
  const s = ss({ properties: { a: { type: "string" } }, allOf: [{ properties: { foo: { minLength: 2 } } }] });
  assert.deepEqual(validateStructural(null, s).map(errorString), [
    "properties[foo]: Required value: because it is defined in allOf[0].properties[foo]",
    "type: Required value: must not be empty at the root",
  ]);
});

test("ValidateStructural errors are sorted by their full text (Go byte order)", () => {
  const s = ss({ type: "object", properties: { Z: { type: "" }, a: { type: "" }, B: {} } });
  assert.deepEqual(validateStructural(P, s).map(errorString), [
    `${P}.properties[B].type: Required value: must not be empty for specified object fields`,
    `${P}.properties[Z].type: Required value: must not be empty for specified object fields`,
    `${P}.properties[a].type: Required value: must not be empty for specified object fields`,
  ]);
});

test("Unfold adds the int-or-string anyOf (or allOf when anyOf is taken) and keeps canonical patterns", () => {
  const s = ss({
    type: "object",
    properties: {
      a: { "x-kubernetes-int-or-string": true },
      b: { "x-kubernetes-int-or-string": true, anyOf: [{ pattern: "x" }] },
      c: { "x-kubernetes-int-or-string": true, anyOf: [{ type: "integer" }, { type: "string" }] },
    },
  });
  const u = unfold(s);
  const types = (n: Structural | undefined, k: "anyOf" | "allOf") => n?.valueValidation?.[k]?.map((x) => x.forbiddenGenerics.type ?? "");
  assert.deepEqual(types(u.properties?.get("a"), "anyOf"), ["integer", "string"]);
  assert.deepEqual(u.properties?.get("b")?.valueValidation?.allOf?.[0]?.valueValidation.anyOf?.map((x) => x.forbiddenGenerics.type), ["integer", "string"]);
  assert.deepEqual(types(u.properties?.get("b"), "anyOf"), [""]);
  assert.equal(u.properties?.get("c")?.valueValidation?.allOf, undefined);
  assert.equal(s.properties?.get("a")?.valueValidation?.anyOf, undefined, "input untouched");
  assert.deepEqual(validateStructural(P, u).map(errorString), []);
});

test("cachedStructural: one conversion per schema object, equal to NewStructural, errors included", () => {
  const schema: JSONSchemaProps = { type: "object", properties: { b: { type: "string" }, a: { type: "array", items: { type: "integer" } } } };
  const first = cachedStructural(schema);
  assert.equal(cachedStructural(schema), first);
  assert.deepEqual(first, newStructural(schema));
  const same: JSONSchemaProps = { type: "object", properties: { b: { type: "string" }, a: { type: "array", items: { type: "integer" } } } };
  assert.notEqual(cachedStructural(same), first);
  const bad: JSONSchemaProps = { type: "object", properties: { x: { $ref: "#/definitions/y" } } };
  const err = cachedStructural(bad);
  assert.ok(err instanceof StructuralError);
  assert.equal(err.message, "OpenAPIV3Schema '$ref' is not supported");
  assert.equal(cachedStructural(bad), err);
});
