/**
 * The structural-schema examples of the seed documents (003 "Specifying a structural schema", 004 KEP-2335):
 * "Non-structural example 3" has exactly six violations, reported sorted by text (ValidateStructural), and
 * the corrected schema is accepted. Also checked through the NonStructuralSchema condition (v1 paths).
 */
import { strict as assert } from "node:assert";
import { test } from "node:test";
import { decodeCrd } from "../../src/crd/decode-crd.js";
import { nonStructuralSchemaCondition } from "../../src/crdvalidation/nonstructural.js";
import { validateCrdCreate } from "../../src/crdvalidation/validate-crd.js";
import { errorString } from "../../src/errors/field-error.js";
import { decodeDocuments } from "../../src/io/decode.js";
import type { JsonObject } from "../../src/value/json-value.js";

const example3 = `
properties:
  foo:
    pattern: "abc"
  metadata:
    type: object
    properties:
      name:
        type: string
        pattern: "^a"
      finalizers:
        type: array
        items:
          type: string
          pattern: "my-finalizer"
anyOf:
- properties:
    bar:
      type: integer
      minimum: 42
  required: ["bar"]
  description: "foo bar object"
`;

const corrected = `
type: object
description: "foo bar object"
properties:
  foo:
    type: string
    pattern: "abc"
  bar:
    type: integer
  metadata:
    type: object
    properties:
      name:
        type: string
        pattern: "^a"
anyOf:
- properties:
    bar:
      minimum: 42
  required: ["bar"]
`;

function crdWith(schemaYaml: string): JsonObject {
  const schema = decodeDocuments(schemaYaml)[0]!.value as JsonObject;
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "crontabs.stable.example.com" },
    spec: {
      group: "stable.example.com",
      scope: "Namespaced",
      names: { plural: "crontabs", singular: "crontab", kind: "CronTab", shortNames: ["ct"] },
      versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: schema } }],
    },
  };
}

const P = "spec.validation.openAPIV3Schema";
const SIX = [
  // the description is set within anyOf (rule 3)
  `${P}.anyOf[0].description: Forbidden: must be empty to be structural`,
  // bar's type is within anyOf (rule 3)
  `${P}.anyOf[0].properties[bar].type: Forbidden: must be empty to be structural`,
  // bar inside of anyOf is not specified outside (rule 2)
  `${P}.properties[bar]: Required value: because it is defined in ${P}.anyOf[0].properties[bar]`,
  // the type of foo is missing (rule 1)
  `${P}.properties[foo].type: Required value: must not be empty for specified object fields`,
  // metadata.finalizers might not be restricted (rule 4)
  `${P}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
  // the type at the root is missing (rule 1)
  `${P}.type: Required value: must not be empty at the root`,
];

test("seed 003 non-structural example 3: the six violations, sorted", () => {
  const r = validateCrdCreate(crdWith(example3));
  assert.deepEqual(r.errors.map(errorString), SIX);
});

test("seed 003 non-structural example 3: NonStructuralSchema condition message", () => {
  const d = decodeCrd(crdWith(example3));
  if (!d.ok) throw new Error(d.message);
  const cond = nonStructuralSchemaCondition(d.crd);
  const v = SIX.map((s) => s.replaceAll(P, "spec.versions[0].schema.openAPIV3Schema"));
  assert.deepEqual(cond, { type: "NonStructuralSchema", status: "True", reason: "Violations", message: `[${v.join(", ")}]` });
});

test("seed 003 corrected schema is structural and valid", () => {
  const r = validateCrdCreate(crdWith(corrected));
  assert.deepEqual(r.errors.map(errorString), []);
  const d = decodeCrd(crdWith(corrected));
  if (!d.ok) throw new Error(d.message);
  assert.equal(nonStructuralSchemaCondition(d.crd), null);
});

test("seed 004: metadata may not be specified inside a logical junctor, nor restricted beyond name/generateName", () => {
  const r = validateCrdCreate(
    crdWith(`
type: object
properties:
  metadata:
    type: object
    properties:
      name: {type: string}
      generateName: {type: string}
  embedded:
    type: object
    x-kubernetes-embedded-resource: true
    x-kubernetes-preserve-unknown-fields: true
    properties:
      metadata:
        type: object
        properties:
          labels: {type: object, additionalProperties: {type: string}}
anyOf:
- properties:
    metadata: {}
`),
  );
  assert.deepEqual(r.errors.map(errorString), [
    `${P}.anyOf[0].properties[metadata]: Forbidden: must not be specified in a nested context`,
  ]);
});
