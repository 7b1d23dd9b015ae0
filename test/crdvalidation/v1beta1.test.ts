/**
 * Messages only reachable through the internal form as v1beta1 writes it (no v1 hoisting): top-level vs
 * per-version exclusivity, identical per-version values, spec.version; and the NonStructuralSchema
 * condition's StructuralError reason.
 */
import { strict as assert } from "node:assert";
import { test } from "node:test";
import { decodeCrd } from "../../src/crd/decode-crd.js";
import { nonStructuralSchemaCondition } from "../../src/crdvalidation/nonstructural.js";
import { validateCrdCreate } from "../../src/crdvalidation/validate-crd.js";
import { errorString } from "../../src/errors/field-error.js";
import type { JsonObject } from "../../src/value/json-value.js";

const schema = { openAPIV3Schema: { type: "object" } };
function beta(spec: JsonObject): JsonObject {
  return {
    apiVersion: "apiextensions.k8s.io/v1beta1",
    kind: "CustomResourceDefinition",
    metadata: { name: "foos.example.com" },
    spec: { group: "example.com", scope: "Namespaced", preserveUnknownFields: false, names: { plural: "foos", kind: "Foo" }, ...spec },
  };
}
const V = (name: string, storage: boolean) =>
  `{"Name":"${name}","Served":true,"Storage":${storage},"Deprecated":false,"DeprecationWarning":null,"Schema":{"OpenAPIV3Schema":{"ID":"","Schema":"","Ref":null,"Description":"","Type":"object","Nullable":false,"Format":"","Title":"","Default":null,"Maximum":null,"ExclusiveMaximum":false,"Minimum":null,"ExclusiveMinimum":false,"MaxLength":null,"MinLength":null,"Pattern":"","MaxItems":null,"MinItems":null,"UniqueItems":false,"MultipleOf":null,"Enum":null,"MaxProperties":null,"MinProperties":null,"Required":null,"Items":null,"AllOf":null,"OneOf":null,"AnyOf":null,"Not":null,"Properties":null,"AdditionalProperties":null,"PatternProperties":null,"Dependencies":null,"AdditionalItems":null,"Definitions":null,"ExternalDocs":null,"Example":null,"XPreserveUnknownFields":null,"XEmbeddedResource":false,"XIntOrString":false,"XListMapKeys":null,"XListType":null,"XMapType":null,"XValidations":null}},"Subresources":{"Status":{},"Scale":null},"AdditionalPrinterColumns":[{"Name":"a","Type":"string","Format":"","Description":"","Priority":0,"JSONPath":".a"}],"SelectableFields":null}`;

test("v1beta1: top-level and per-version fields are exclusive; identical per-version values are refused", () => {
  const sub = { status: {} };
  const cols = [{ name: "a", type: "string", JSONPath: ".a" }];
  const r = validateCrdCreate(
    beta({
      version: "v2",
      validation: schema,
      subresources: sub,
      additionalPrinterColumns: cols,
      versions: [
        { name: "v1", served: true, storage: true, schema, subresources: sub, additionalPrinterColumns: cols },
        { name: "v2", served: true, storage: false, schema, subresources: sub, additionalPrinterColumns: cols },
      ],
    }),
  );
  const vs = `[${V("v1", true)},${V("v2", false)}]`;
  assert.deepEqual(r.errors.map(errorString), [
    "spec.validation: Forbidden: top-level and per-version schemas are mutually exclusive",
    "spec.subresources: Forbidden: top-level and per-version subresources are mutually exclusive",
    "spec.additionalPrinterColumns: Forbidden: top-level and per-version additionalPrinterColumns are mutually exclusive",
    `spec.versions: Invalid value: ${vs}: per-version schemas may not all be set to identical values (top-level validation should be used instead)`,
    `spec.versions: Invalid value: ${vs}: per-version subresources may not all be set to identical values (top-level subresources should be used instead)`,
    `spec.versions: Invalid value: ${vs}: per-version additionalPrinterColumns may not all be set to identical values (top-level additionalPrinterColumns should be used instead)`,
    'spec.version: Invalid value: "v2": must match the first version in spec.versions',
  ]);
});

test("v1beta1 without preserveUnknownFields defaults to true: refused in v1 terms", () => {
  const crd = beta({ version: "v1", validation: schema });
  delete (crd["spec"] as JsonObject)["preserveUnknownFields"];
  const r = validateCrdCreate(crd);
  assert.deepEqual(r.errors.map(errorString), [
    "spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead",
  ]);
});

test("NonStructuralSchema condition: StructuralError when NewStructural fails", () => {
  const d = decodeCrd({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "foos.example.com" },
    spec: {
      group: "example.com", scope: "Namespaced", names: { plural: "foos", kind: "Foo" },
      versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object", properties: { a: { $ref: "#/x" } } } } }],
    },
  });
  if (!d.ok) throw new Error(d.message);
  assert.deepEqual(nonStructuralSchemaCondition(d.crd), {
    type: "NonStructuralSchema",
    status: "True",
    reason: "StructuralError",
    message: "failed to check validation schema for version v1: OpenAPIV3Schema '$ref' is not supported",
  });
});
