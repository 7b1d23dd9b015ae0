import assert from "node:assert/strict";
import { test } from "node:test";
import { orderStrictErrors } from "./strict-error-order.js";

// The body and the answer of sequence 49-known-gaps' "create a CRD with duplicate and unknown fields, Strict" (the
// real API server's order: as Go's decoder meets the fields).
const BODY =
  '{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","zeta":1,"metadata":{"name":"d","bogus":1,"name":"d"},' +
  '"spec":{"group":"g","zz":1,"scope":"Namespaced","scope":"Cluster","names":{"plural":"dups","kind":"Dup"},' +
  '"versions":[{"name":"v1","extra":1}]},"alpha":1}';

test("orderStrictErrors: unknown and duplicate fields in the order of the text", () => {
  const found = [
    'duplicate field "metadata.name"',
    'duplicate field "spec.scope"',
    'unknown field "metadata.bogus"',
    'unknown field "spec.versions[0].extra"',
    'unknown field "spec.zz"',
    'unknown field "zeta"',
    'unknown field "alpha"',
  ];
  assert.deepEqual(orderStrictErrors(found, BODY), [
    'unknown field "zeta"',
    'unknown field "metadata.bogus"',
    'duplicate field "metadata.name"',
    'unknown field "spec.zz"',
    'duplicate field "spec.scope"',
    'unknown field "spec.versions[0].extra"',
    'unknown field "alpha"',
  ]);
});

test("orderStrictErrors: errors the text does not hold stay first, as they are", () => {
  const yaml = 'yaml: unmarshal errors:\n  line 7: key "name" already set in map';
  assert.deepEqual(orderStrictErrors(['unknown field "zeta"', yaml, 'unknown field "alpha"'], '{"alpha":1,"zeta":2}'), [
    yaml,
    'unknown field "alpha"',
    'unknown field "zeta"',
  ]);
  // a field given three times is met again twice
  assert.deepEqual(orderStrictErrors(['duplicate field "a"', 'duplicate field "a"', 'unknown field "b"'], '{"a":1,"a":2,"b":1,"a":3}'), [
    'duplicate field "a"',
    'unknown field "b"',
    'duplicate field "a"',
  ]);
  assert.deepEqual(orderStrictErrors(['unknown field "b"', 'unknown field "a"'], "not json"), ['unknown field "b"', 'unknown field "a"']);
});
