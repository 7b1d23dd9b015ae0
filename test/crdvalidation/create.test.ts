/** CRD create validation: exact Kubernetes error strings, in order (fixtures/create-cases.ts). */
import { strict as assert } from "node:assert";
import { test } from "node:test";
import { validateCrdCreate } from "../../src/crdvalidation/validate-crd.js";
import { errorString } from "../../src/errors/field-error.js";
import type { JsonObject } from "../../src/value/json-value.js";
import { createCases } from "./fixtures/create-cases.js";

/** A valid single-version v1 CRD `foos.example.com` with the given schema (undefined: `{type: object}`, null: none). */
export function baseCrd(schema: JsonObject | null | undefined): JsonObject {
  const version: JsonObject = { name: "v1", served: true, storage: true };
  if (schema !== null) version["schema"] = { openAPIV3Schema: schema ?? { type: "object" } };
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "foos.example.com" },
    spec: { group: "example.com", scope: "Namespaced", names: { plural: "foos", kind: "Foo" }, versions: [version] },
  };
}

for (const c of createCases) {
  test(`CRD create: ${c.name}`, () => {
    const crd = baseCrd(c.schema);
    c.patch?.(crd);
    const r = validateCrdCreate(crd);
    assert.equal(r.decodeError, undefined);
    assert.deepEqual(r.errors.map(errorString), c.errors);
    assert.deepEqual(r.warnings, c.warnings ?? []);
  });
}
