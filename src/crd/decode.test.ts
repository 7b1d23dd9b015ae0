/**
 * Reading CRDs: v1 defaulting (v1/defaults_test.go), v1 → internal hoisting (v1/conversion_test.go),
 * v1beta1 defaulting/conversion, Go decode errors, strict unknown-field paths, bad input.
 */
import { strict as assert } from "node:assert";
import { test } from "node:test";
import { type JsonObject, type JsonValue, Float64 } from "../value/json-value.js";
import { decodeCrd } from "./decode-crd.js";

function v1(spec: JsonObject, extra: JsonObject = {}): JsonObject {
  return { apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", metadata: { name: "foos.example.com" }, spec, ...extra };
}

function ok(v: JsonValue) {
  const d = decodeCrd(v);
  if (!d.ok) throw new Error(d.message);
  return d;
}

const names = { plural: "foos", kind: "Foo" };
const schemaA = { openAPIV3Schema: { type: "object", properties: { a: { type: "string" } } } };
const schemaB = { openAPIV3Schema: { type: "object", properties: { b: { type: "string" } } } };

test("v1 defaults: singular, listKind, conversion None, storedVersions, webhook port", () => {
  const d = ok(
    v1({
      group: "example.com", scope: "Namespaced", names,
      versions: [{ name: "v1", served: true, storage: false }, { name: "v2", served: true, storage: true }],
    }),
  );
  assert.equal(d.crd.spec.names.singular, "foo");
  assert.equal(d.crd.spec.names.listKind, "FooList");
  assert.deepEqual(d.crd.spec.conversion, { strategy: "None" });
  assert.deepEqual(d.crd.status?.storedVersions, ["v2"]);
  const w = ok(
    v1({
      group: "example.com", scope: "Namespaced", names: { plural: "foos", kind: "Foo", singular: "x", listKind: "Y" },
      versions: [{ name: "v1", served: true, storage: true }],
      conversion: { strategy: "Webhook", webhook: { clientConfig: { service: { name: "s", namespace: "n" } }, conversionReviewVersions: ["v1"] } },
    }, { status: { storedVersions: ["v0"] } }),
  );
  assert.equal(w.crd.spec.names.singular, "x");
  assert.equal(w.crd.spec.names.listKind, "Y");
  assert.deepEqual(w.internal.spec.conversion, {
    strategy: "Webhook", conversionReviewVersions: ["v1"], webhookClientConfig: { service: { name: "s", namespace: "n", port: 443 } },
  });
  assert.deepEqual(w.crd.status?.storedVersions, ["v0"]);
});

const hoisting: [string, JsonObject[], (d: ReturnType<typeof ok>) => void][] = [
  [
    "identical schemas move to spec.validation; spec.version = versions[0]",
    [{ name: "v1", served: true, storage: true, schema: schemaA }, { name: "v2", served: true, storage: false, schema: schemaA }],
    (d) => {
      assert.deepEqual(d.internal.spec.validation, schemaA);
      assert.equal(d.internal.spec.version, "v1");
      assert.deepEqual(d.internal.spec.versions.map((v) => v.schema), [undefined, undefined]);
    },
  ],
  [
    "different schemas stay per version",
    [{ name: "v1", served: true, storage: true, schema: schemaA }, { name: "v2", served: true, storage: false, schema: schemaB }],
    (d) => {
      assert.equal(d.internal.spec.validation, undefined);
      assert.deepEqual(d.internal.spec.versions.map((v) => v.schema), [schemaA, schemaB]);
    },
  ],
  [
    "schema in one version only stays per version",
    [{ name: "v1", served: true, storage: true, schema: schemaA }, { name: "v2", served: true, storage: false }],
    (d) => {
      assert.equal(d.internal.spec.validation, undefined);
      assert.deepEqual(d.internal.spec.versions[0]!.schema, schemaA);
    },
  ],
  [
    "identical subresources, columns and selectable fields are hoisted independently",
    [
      { name: "v1", served: true, storage: true, schema: schemaA, subresources: { status: {} }, additionalPrinterColumns: [{ name: "a", type: "string", jsonPath: ".a" }], selectableFields: [{ jsonPath: ".a" }] },
      { name: "v2", served: true, storage: false, schema: schemaB, subresources: { status: {} }, additionalPrinterColumns: [{ name: "a", type: "string", jsonPath: ".a" }], selectableFields: [{ jsonPath: ".b" }] },
    ],
    (d) => {
      assert.deepEqual(d.internal.spec.subresources, { status: {} });
      assert.deepEqual(d.internal.spec.additionalPrinterColumns, [{ name: "a", type: "string", jsonPath: ".a" }]);
      assert.equal(d.internal.spec.selectableFields, undefined);
      assert.deepEqual(d.internal.spec.versions.map((v) => v.selectableFields), [[{ jsonPath: ".a" }], [{ jsonPath: ".b" }]]);
      assert.deepEqual(d.internal.spec.versions.map((v) => v.subresources), [undefined, undefined]);
    },
  ],
  [
    "status: {} differs from no subresources",
    [{ name: "v1", served: true, storage: true, subresources: { status: {} } }, { name: "v2", served: true, storage: false }],
    (d) => assert.deepEqual(d.internal.spec.versions.map((v) => v.subresources), [{ status: {} }, undefined]),
  ],
  [
    "int64 1 and float64 1.0 defaults differ (reflect.DeepEqual)",
    [
      { name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object", properties: { n: { type: "number", default: 1 } } } } },
      { name: "v2", served: true, storage: false, schema: { openAPIV3Schema: { type: "object", properties: { n: { type: "number", default: new Float64(1) } } } } },
    ],
    (d) => assert.equal(d.internal.spec.validation, undefined),
  ],
];

for (const [name, versions, check] of hoisting) {
  test(`v1 → internal: ${name}`, () => check(ok(v1({ group: "example.com", scope: "Namespaced", names, versions }))));
}

test("v1beta1 is defaulted and converted (preserveUnknownFields true, scope Namespaced, versions from version)", () => {
  const d = ok({
    apiVersion: "apiextensions.k8s.io/v1beta1",
    kind: "CustomResourceDefinition",
    metadata: { name: "foos.example.com" },
    spec: { group: "example.com", version: "v1", names, validation: schemaA, additionalPrinterColumns: [{ name: "a", type: "string", JSONPath: ".a" }] },
  });
  assert.equal(d.internal.spec.scope, "Namespaced");
  assert.equal(d.internal.spec.preserveUnknownFields, true);
  assert.deepEqual(d.internal.spec.versions, [{ name: "v1", served: true, storage: true, deprecated: false }]);
  assert.deepEqual(d.internal.spec.validation, schemaA);
  assert.equal(d.crd.apiVersion, "apiextensions.k8s.io/v1");
  assert.deepEqual(d.crd.spec.versions[0]!.schema, schemaA);
  assert.deepEqual(d.crd.spec.versions[0]!.additionalPrinterColumns, [{ name: "a", type: "string", jsonPath: ".a" }]);
});

const failures: [string, JsonValue, string][] = [
  ["not an object", [1, 2], "not a CustomResourceDefinition: the document is not an object"],
  ["another kind", { apiVersion: "v1", kind: "ConfigMap" }, 'not a CustomResourceDefinition: kind is "ConfigMap"'],
  [
    "wrong apiVersion",
    { apiVersion: "apiextensions.k8s.io/v2", kind: "CustomResourceDefinition" },
    'no matches for kind "CustomResourceDefinition" in version "apiextensions.k8s.io/v2": apiVersion must be apiextensions.k8s.io/v1 (or the legacy apiextensions.k8s.io/v1beta1)',
  ],
  [
    "schema type of the wrong JSON type",
    v1({ group: "example.com", names, versions: [{ name: "v1", schema: { openAPIV3Schema: { type: "object", properties: { a: { type: 5 } } } } }] }),
    'CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: json: cannot unmarshal number into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.type of type string',
  ],
  [
    "maxLength not an integer",
    v1({ group: "example.com", names, versions: [{ name: "v1", schema: { openAPIV3Schema: { type: "string", maxLength: 1.5 } } }] }),
    'CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: json: cannot unmarshal number 1.5 into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.maxLength of type int64',
  ],
  [
    "properties as a list",
    v1({ group: "example.com", names, versions: [{ name: "v1", schema: { openAPIV3Schema: { properties: [] } } }] }),
    'CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: json: cannot unmarshal array into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties of type map[string]v1.JSONSchemaProps',
  ],
  [
    "additionalProperties as a string",
    v1({ group: "example.com", names, versions: [{ name: "v1", schema: { openAPIV3Schema: { additionalProperties: "yes" } } }] }),
    'CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: boolean or JSON schema expected',
  ],
  [
    "wrong type inside items: the custom unmarshaler's error gets the outer field (and wins over earlier errors)",
    v1({ group: 5, names, versions: [{ name: "v1", schema: { openAPIV3Schema: { type: "array", items: { type: "array", items: { maxItems: "x" } } } } }] }),
    'CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: json: cannot unmarshal string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.items of type int64',
  ],
  [
    "wrong type inside additionalProperties",
    v1({ group: "example.com", names, versions: [{ name: "v1", schema: { openAPIV3Schema: { type: "object", properties: { m: { additionalProperties: { nullable: 1 } } } } } }] }),
    'CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: json: cannot unmarshal number into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.additionalProperties of type bool',
  ],
  [
    "versions as an object",
    v1({ group: "example.com", names, versions: { v1: {} } }),
    'CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: json: cannot unmarshal object into Go struct field CustomResourceDefinitionSpec.spec.versions of type []v1.CustomResourceDefinitionVersion',
  ],
  [
    "served as a string",
    v1({ group: "example.com", names, versions: [{ name: "v1", served: "true" }] }),
    'CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: json: cannot unmarshal string into Go struct field CustomResourceDefinitionVersion.spec.versions.served of type bool',
  ],
];

for (const [name, input, message] of failures) {
  test(`decode failure: ${name}`, () => {
    const d = decodeCrd(input);
    assert.equal(d.ok, false);
    if (!d.ok) assert.equal(d.message, message);
  });
}

test("null leaves fields unset, as Go's decoder does", () => {
  const d = ok(v1({ group: "example.com", scope: null, names, versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object", default: null, properties: null } } }] }));
  assert.equal(d.internal.spec.scope, "");
  assert.deepEqual(d.internal.spec.validation, { openAPIV3Schema: { type: "object" } });
});

test("strict decoding: unknown field paths (not inside items/additionalProperties, which Go decodes non-strictly)", () => {
  const d = ok(
    v1({
      group: "example.com", names, scope: "Namespaced", typo: 1,
      versions: [{
        name: "v1", served: true, storage: true, extra: true,
        schema: { openAPIV3Schema: { type: "object", properties: { a: { type: "string", tpye: "x" }, l: { type: "array", items: { type: "string", bogus: 1 } } } } },
      }],
    }),
  );
  assert.deepEqual(d.unknownFields, ["spec.versions[0].schema.openAPIV3Schema.properties.a.tpye", "spec.versions[0].extra", "spec.typo"]);
});

test("absurdly deep schemas are refused with a clear error, without overflowing the stack", () => {
  let s: JsonObject = { type: "string" };
  for (let i = 0; i < 6000; i++) s = { type: "object", properties: { a: s } };
  const d = decodeCrd(v1({ group: "example.com", names, versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: s } }] }));
  assert.equal(d.ok, false);
  if (!d.ok) assert.equal(d.message, 'CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: exceeded max depth');
});

test("deep but reasonable schemas (300 levels) decode", () => {
  let s: JsonObject = { type: "string" };
  for (let i = 0; i < 300; i++) s = { type: "object", properties: { a: s } };
  ok(v1({ group: "example.com", names, versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: s } }] }));
});

test("JSON round trip (v1/conversion_test.go TestJSONRoundTrip): top-level nulls vanish, nested nulls stay", () => {
  const one = (schema: JsonObject) =>
    ok(v1({ group: "example.com", names, scope: "Namespaced", versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: schema } }] }))
      .internal.spec.validation?.openAPIV3Schema;
  assert.deepEqual(one({ default: null, enum: null, example: null }), {});
  assert.deepEqual(one({ default: { test: null }, enum: [null], example: { test: null } }), { default: { test: null }, enum: [null], example: { test: null } });
});

test("strict decoding: unknown field paths through allOf, not, properties, rules and external docs, in Go's order", () => {
  const schema: JsonObject = {
    type: "object", zzz: 1,
    allOf: [{ required: ["a"] }, { required: ["b"], odd: true }],
    not: { nope: 1 },
    properties: { "a.b": { type: "string", "x-extra": 1 }, c: { type: "object", additionalProperties: { type: "string", hidden: 1 } } },
    dependencies: { c: { type: "object", hidden: 2 } },
    externalDocs: { url: "u", x: 1 },
    "x-kubernetes-validations": [{ rule: "true" }, { rule: "true", extra: 1 }],
  };
  const d = ok(v1({ group: "example.com", names, scope: "Namespaced", versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: schema } }] }));
  const at = "spec.versions[0].schema.openAPIV3Schema";
  assert.deepEqual(d.unknownFields, [
    `${at}.allOf[1].odd`, `${at}.not.nope`, `${at}.properties.a.b.x-extra`, `${at}.externalDocs.x`, `${at}.x-kubernetes-validations[1].extra`, `${at}.zzz`,
  ]);
});

// kube-apiserver 1.37 (apiextensions-apiserver) accepts this CRD with ?fieldValidation=Strict: no unknown field
test("strict decoding: `default: null` and `example: null` are known fields (left unset), not unknown ones", () => {
  const d = ok(
    v1({
      group: "example.com", names, scope: "Namespaced",
      versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object", properties: { a: { type: "string", default: null, example: null }, b: { type: "string", default: "x", example: "y" } } } } }],
    }),
  );
  assert.deepEqual(d.unknownFields, []);
  const a = d.internal.spec.validation?.openAPIV3Schema?.properties?.["a"];
  assert.deepEqual(a, { type: "string" });
});

const nestedErrors: [string, JsonObject, string][] = [
  ["a type error inside items names the items field", { type: "array", items: { type: "object", properties: { x: { maxLength: "1" } } } }, "JSONSchemaProps.spec.versions.schema.openAPIV3Schema.items of type int64"],
  ["a type error inside additionalProperties names it", { type: "object", properties: { m: { additionalProperties: { type: 1 } } } }, "JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.additionalProperties of type string"],
  ["a type error in allOf keeps the Go field stack", { allOf: [{}, { nullable: "yes" }] }, "JSONSchemaProps.spec.versions.schema.openAPIV3Schema.allOf.nullable of type bool"],
  ["a type error in a rule", { "x-kubernetes-validations": [{ rule: 1 }] }, "ValidationRule.spec.versions.schema.openAPIV3Schema.x-kubernetes-validations.rule of type string"],
  // encoding/json keeps the first type error of the document (the real server answers so: sequence 34-fuzz-findings-2).
  ["the first type error in the document wins", { properties: { a: { minimum: "x" } }, required: [1] }, "JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.minimum of type float64"],
  ["the first type error in the document wins (reversed)", { required: [1], properties: { a: { minimum: "x" } } }, "JSONSchemaProps.spec.versions.schema.openAPIV3Schema.required of type string"],
];

for (const [name, schema, field] of nestedErrors) {
  test(`Go decode errors: ${name}`, () => {
    const d = decodeCrd(v1({ group: "example.com", names, scope: "Namespaced", versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: schema } }] }));
    assert.equal(d.ok, false);
    if (!d.ok) assert.match(d.message, new RegExp(`Go struct field ${field.replace(/[.$]/g, "\\$&")}$`));
  });
}

test("Go decode errors: string fields of a named Go type name it", () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ scope: 5 }, "json: cannot unmarshal number into Go struct field CustomResourceDefinitionSpec.spec.scope of type v1.ResourceScope"],
    [{ scope: "Namespaced", conversion: { strategy: false } }, "json: cannot unmarshal bool into Go struct field CustomResourceConversion.spec.conversion.strategy of type v1.ConversionStrategyType"],
  ];
  for (const [spec, want] of cases) {
    const d = decodeCrd(v1({ group: "example.com", names, versions: [], ...spec }));
    assert.equal(d.ok, false);
    if (!d.ok) assert.equal(d.message, `CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: ${want}`);
  }
});
