import * as assert from "node:assert/strict";
import { test } from "node:test";
import { errorString } from "../errors/field-error.js";
import { decodeDocuments } from "../io/decode.js";
import type { JsonObject } from "../value/json-value.js";
import { compileCrd, tryCompileCrd } from "./compile.js";

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: crontabs, singular: crontab, kind: CronTab}
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas, labelSelectorPath: .status.selector}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              cronSpec: {type: string, default: "5 0 * * *"}
              replicas: {type: integer, maximum: 10, default: 1}
              mode: {type: string, nullable: true}
              tz: {type: string, default: UTC}
              keep: {type: string}
              list: {type: array, x-kubernetes-list-type: set, items: {type: string}}
          status:
            type: object
            properties:
              replicas: {type: integer}
              selector: {type: string}
`;

function yaml(text: string): JsonObject {
  return decodeDocuments(text)[0]!.value as JsonObject;
}

const crd = compileCrd(yaml(CRD));
const base = (spec: string, extra = "") =>
  yaml(`apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: a\n  namespace: ns\n${extra}spec:\n${spec}`);

test("create: prune, drop non-nullable nulls, default, status reset, generation 1", () => {
  const r = crd.create(base("  mode: null\n  tz: null\n  keep: null\n  foo: 1\n", "status:\n  replicas: 3\n"));
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.unknownFields, ["spec.foo"]);
  assert.deepEqual(r.warnings, ['unknown field "spec.foo"']);
  assert.deepEqual(r.object, {
    apiVersion: "stable.example.com/v1",
    kind: "CronTab",
    metadata: { name: "a", namespace: "ns", generation: 1 },
    spec: { mode: null, tz: "UTC", cronSpec: "5 0 * * *", replicas: 1 },
  });
});

test("create: Strict unknown fields are the API server's 400 text, duplicates first", () => {
  const r = crd.create(base("  foo: 1\n  bar: 2\n"), { fieldValidation: "Strict", strictDecodingErrors: ['duplicate field "spec.x"'] });
  assert.equal(r.object, null);
  assert.equal(
    r.decodeError,
    'CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: duplicate field "spec.x", unknown field "spec.bar", unknown field "spec.foo"',
  );
  const ignore = crd.create(base("  foo: 1\n"), { fieldValidation: "Ignore" });
  assert.deepEqual(ignore.warnings, []);
  assert.deepEqual((ignore.object!["spec"] as JsonObject)["foo"], undefined);
});

test("create: unknown metadata fields are reported like pruned fields", () => {
  const r = crd.create(yaml("apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: a\n  bogus: 1\n"));
  assert.deepEqual(r.warnings, ['unknown field "metadata.bogus"']);
});

test("create: value validation, scale and list-type errors in Kubernetes' order", () => {
  const r = crd.create(base("  replicas: 15\n  list: [a, a]\n"));
  assert.deepEqual(r.errors.map(errorString), [
    "spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10",
    'spec.list[1]: Duplicate value: "a"',
  ]);
  const neg = crd.create(base("  replicas: -1\n"));
  assert.deepEqual(neg.errors.map(errorString), [".spec.replicas: Invalid value: -1: should be a non-negative integer"]);
});

test("create: TypeMeta errors replace the other validator checks", () => {
  const r = crd.create(yaml("apiVersion: stable.example.com/v1\nkind: Other\nmetadata:\n  name: a\nspec:\n  replicas: 15\n"));
  assert.deepEqual(r.errors.map(errorString), ['kind: Invalid value: "Other": must be CronTab']);
});

test("create: metadata checks, generateName, namespace from the request", () => {
  const r = crd.create(yaml("apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: Bad_Name\n"));
  assert.match(errorString(r.errors[0]!), /^metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/);
  const g = crd.create(yaml("apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  generateName: job-\n"));
  assert.deepEqual(g.errors, []);
  const md = g.object!["metadata"] as JsonObject;
  assert.match(md["name"] as string, /^job-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  assert.equal(md["namespace"], "default");
  const other = crd.create(base("  replicas: 1\n"), { namespace: "other" });
  assert.equal(other.decodeError, "the namespace of the provided object does not match the namespace sent on the request");
});

test("create: finalizer warnings only for valid objects", () => {
  const invalid = crd.create(yaml("apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: a\n  finalizers: [foo]\nspec:\n  replicas: 99\n"));
  assert.deepEqual(invalid.warnings, []);
  const w = crd.create(yaml("apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: a\n  finalizers: [foo]\n"));
  assert.deepEqual(w.warnings, [
    'metadata.finalizers: "foo": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers',
  ]);
});

test("update: status kept from old, generation bumped only for non-metadata changes, ratcheting", () => {
  const old = base("  replicas: 20\n", "  resourceVersion: '7'\n  generation: 3\n");
  (old as JsonObject)["status"] = { replicas: 2 };
  const same = crd.update(base("  replicas: 20\n", "  resourceVersion: '7'\n  labels: {a: b}\n"), old);
  assert.deepEqual(same.errors, []);
  assert.equal((same.object!["metadata"] as JsonObject)["generation"], 3);
  assert.deepEqual(same.object!["status"], { replicas: 2 });
  const changed = crd.update(base("  replicas: 20\n  cronSpec: x\n", "  resourceVersion: '7'\n"), old);
  assert.deepEqual(changed.errors, []);
  assert.equal((changed.object!["metadata"] as JsonObject)["generation"], 4);
  const worse = crd.update(base("  replicas: 30\n", "  resourceVersion: '7'\n"), old);
  assert.deepEqual(worse.errors.map(errorString), ["spec.replicas: Invalid value: 30: spec.replicas in body should be less than or equal to 10"]);
});

test("update: resourceVersion is required", () => {
  const old = base("  replicas: 1\n", "  resourceVersion: '7'\n");
  const r = crd.update(base("  replicas: 1\n"), old);
  assert.equal(errorString(r.errors[0]!), 'metadata.resourceVersion: Invalid value: "": must be specified for an update');
});

test("updateStatus: only status changes, validated against the status schema", () => {
  const old = base("  replicas: 1\n", "  resourceVersion: '7'\n  generation: 2\n");
  const incoming = base("  replicas: 5\n", "  resourceVersion: '7'\n");
  incoming["status"] = { replicas: "three" };
  const r = crd.updateStatus(incoming, old);
  assert.equal((r.object!["spec"] as JsonObject)["replicas"], 1);
  assert.deepEqual(r.errors.map(errorString), [
    // the status validator's root is the status schema: names inside messages are relative to it
    'status.replicas: Invalid value: "string": replicas in body must be of type integer: "string"',
    '.status.replicas: Invalid value: 0: .status.replicas accessor error: three is of the type string, expected int64',
  ]);
});

test("CRDs that fail CRD validation are refused with their errors", () => {
  const bad = yaml(CRD.replace("scope: Namespaced", "scope: Galactic"));
  const r = tryCompileCrd(bad);
  assert.equal(r.ok, false);
  if (!r.ok) assert.deepEqual(r.errors, ['spec.scope: Unsupported value: "Galactic": supported values: "Cluster", "Namespaced"']);
  assert.throws(() => compileCrd(bad), /CustomResourceDefinition.apiextensions.k8s.io "crontabs.stable.example.com" is invalid: spec.scope/);
});

test("rules: evaluated, or blocked by earlier errors with Kubernetes' single error", () => {
  const withRule = compileCrd(
    yaml(CRD.replace("          spec:\n            type: object\n", "          spec:\n            type: object\n            x-kubernetes-validations: [{rule: 'self.replicas < 5'}]\n")),
  );
  const r = withRule.create(base("  replicas: 7\n"));
  assert.deepEqual(r.errors.map(errorString), ['spec: Invalid value: failed rule: self.replicas < 5']);
  const blocked = withRule.create(base("  replicas: seven\n"));
  assert.deepEqual(blocked.errors.map(errorString), [
    'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
    ".spec.replicas: Invalid value: 0: .spec.replicas accessor error: seven is of the type string, expected int64",
    "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
  ]);
  assert.deepEqual(withRule.create(base("  replicas: 2\n")).errors, []);
});

test("create: the input is left unchanged, unless the caller hands it over (consumeInput)", () => {
  const spec = "  tz: null\n  foo: 1\n";
  const input = base(spec);
  const before = structuredClone(input);
  const kept = crd.create(input, { fieldValidation: "Warn" });
  assert.deepEqual(input, before);
  assert.notEqual(kept.object, input);
  const handed = base(spec);
  const r = crd.create(handed, { fieldValidation: "Warn", consumeInput: true });
  // the same verdict and object, built in the handed-over value itself
  assert.deepEqual(r.errors, kept.errors);
  assert.deepEqual(r.warnings, kept.warnings);
  assert.deepEqual(r.object, kept.object);
  assert.equal(r.object, handed);
});

test("create with decodeBodyVersion: a body of another apiVersion is decoded in it, the mismatch reported after", () => {
  const body = (apiVersion: string): JsonObject => ({ apiVersion, kind: "CronTab", metadata: { name: "a", foo: 1 }, spec: { cronSpec: "x" }, zzz: 1 });
  const mismatch = "the API version in the data (stable.example.com/v2) does not match the expected API version (stable.example.com/v1)";
  // A version the CRD lacks: no schema, so every top-level field but apiVersion, kind and metadata is unknown.
  const warn = crd.create(body("stable.example.com/v2"), { version: "v1", fieldValidation: "Warn", decodeBodyVersion: true });
  assert.equal(warn.decodeError, mismatch);
  assert.deepEqual(warn.warnings, ['unknown field "metadata.foo"', 'unknown field "spec"', 'unknown field "zzz"']);
  assert.deepEqual(crd.create(body("stable.example.com/v2"), { version: "v1", fieldValidation: "Ignore", decodeBodyVersion: true }).warnings, []);
  const strict = crd.create(body("stable.example.com/v2"), { version: "v1", fieldValidation: "Strict", decodeBodyVersion: true });
  assert.equal(strict.decodeError, 'CronTab in version "v2" cannot be handled as a CronTab: strict decoding error: unknown field "metadata.foo", unknown field "spec", unknown field "zzz"');
  // Without the option the mismatch is reported at once, without decoding.
  const plain = crd.create(body("stable.example.com/v2"), { version: "v1", fieldValidation: "Warn" });
  assert.equal(plain.decodeError, mismatch);
  assert.deepEqual(plain.warnings, []);
});

test("create with decodeBodyVersion: a null apiVersion is the coercer's accessor error, in version \"\"", () => {
  const body: JsonObject = { apiVersion: null, kind: "CronTab", metadata: { name: "a" }, spec: { cronSpec: "x" } };
  const r = crd.create(body, { version: "v1", fieldValidation: "Warn", decodeBodyVersion: true, strictDecodingErrors: ['duplicate field "spec"'] });
  assert.equal(r.decodeError, 'CronTab in version "" cannot be handled as a CronTab: .apiVersion accessor error: <nil> is of the type <nil>, expected string');
  assert.deepEqual(r.warnings, []);
});
