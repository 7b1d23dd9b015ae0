/**
 * Translation of apiextensions-apiserver test/integration/validation_test.go
 * TestNonStructuralSchemaConditionForCRDV1Beta1MigratedData (the NonStructuralSchema condition message of a
 * v1beta1 CRD read back as v1) and TestNonStructuralSchemaConditionForCRDV1 (v1 create errors). The tables
 * are extracted verbatim into fixtures/nonstructural-integration.json; checks are substring checks on the
 * condition message / the aggregated create error, as upstream does.
 */
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { decodeCrd } from "../../src/crd/decode-crd.js";
import { validateCrdCreate } from "../../src/crdvalidation/validate-crd.js";
import { nonStructuralSchemaCondition } from "../../src/crdvalidation/nonstructural.js";
import { aggregateMessage } from "../../src/errors/field-error.js";
import { decodeDocuments } from "../../src/io/decode.js";
import type { JsonObject, JsonValue } from "../../src/value/json-value.js";

interface Case {
  desc: string;
  preserveUnknownFields?: string;
  globalSchema?: string;
  v1Schema?: string;
  v1beta1Schema?: string;
  expectedViolations?: string[];
  unexpectedViolations?: string[];
  expectedCreateErrors?: string[];
  unexpectedCreateErrors?: string[];
}

const fixtures = JSON.parse(readFileSync(new URL("./fixtures/nonstructural-integration.json", import.meta.url), "utf8")) as {
  migratedV1beta1: Case[];
  v1Create: Case[];
};

function yamlValue(y: string | undefined): JsonValue {
  if (!y || y.length === 0) return null;
  const docs = decodeDocuments(y);
  const v = docs[0]?.value;
  return v === undefined ? null : { openAPIV3Schema: v };
}

function manifest(c: Case, group: string, puf: string | undefined): JsonObject {
  return {
    apiVersion: "apiextensions.k8s.io/v1beta1",
    kind: "CustomResourceDefinition",
    metadata: { name: `foos.${group}` },
    spec: {
      group,
      preserveUnknownFields: puf === "false" ? false : puf === "true" ? true : null,
      version: "v1beta1",
      names: { plural: "foos", singular: "foo", kind: "Foo", listKind: "Foolist" },
      scope: "Namespaced",
      validation: yamlValue(c.globalSchema),
      versions: [
        { name: "v1beta1", served: true, storage: true, schema: yamlValue(c.v1beta1Schema) },
        { name: "v1", served: true, schema: yamlValue(c.v1Schema) },
      ],
    },
  };
}

fixtures.migratedV1beta1.forEach((c, i) => {
  test(`NonStructuralSchema condition (v1beta1 migrated data): ${c.desc}`, () => {
    const d = decodeCrd(manifest(c, `tests-${i}.apiextension.k8s.io`, c.preserveUnknownFields));
    if (!d.ok) throw new Error(d.message);
    const cond = nonStructuralSchemaCondition(d.crd);
    const expected = c.expectedViolations ?? [];
    if (expected.length === 0) {
      assert.equal(cond, null, cond?.message);
      return;
    }
    if (!cond) throw new Error("expected a NonStructuralSchema condition");
    assert.equal(cond.reason, "Violations");
    assert.equal(cond.status, "True");
    for (const v of expected) assert.ok(cond.message.includes(v), `expected violation ${JSON.stringify(v)} in ${JSON.stringify(cond.message)}`);
    for (const v of c.unexpectedViolations ?? []) assert.ok(!cond.message.includes(v), `unexpected violation ${JSON.stringify(v)}`);
  });
});

fixtures.v1Create.forEach((c, i) => {
  test(`v1 CRD create with structural violations: ${c.desc}`, () => {
    const d = decodeCrd(manifest(c, `tests-${i}.apiextension.testing-k8s.io`, "false"));
    if (!d.ok) throw new Error(d.message);
    const v1 = JSON.parse(JSON.stringify(d.crd)) as JsonObject;
    // The upstream test converts without v1beta1 defaulting: no conversion stanza, no status.
    delete (v1["spec"] as JsonObject)["conversion"];
    delete v1["status"];
    const r = validateCrdCreate(v1);
    assert.equal(r.decodeError, undefined);
    const msg = aggregateMessage(r.errors);
    const expected = c.expectedCreateErrors ?? [];
    if (expected.length === 0) {
      assert.deepEqual(r.errors.map((e) => e.field), [], msg);
      return;
    }
    assert.ok(r.errors.length > 0, "expected create errors, got none");
    for (const e of expected) assert.ok(msg.includes(e), `expected error containing ${JSON.stringify(e)}, got ${JSON.stringify(msg)}`);
    for (const e of c.unexpectedCreateErrors ?? []) assert.ok(!msg.includes(e), `unexpected error containing ${JSON.stringify(e)}`);
  });
});
