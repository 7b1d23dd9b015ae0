/**
 * CRD update validation (ValidateCustomResourceDefinitionUpdate): options derived from the old object
 * ("ratcheting" of CRD rules), immutable fields, stored versions, update warnings
 * (validation_test.go TestValidateCustomResourceDefinitionUpdate, strategy_test.go TestWarningsOnUpdate).
 */
import { strict as assert } from "node:assert";
import { test } from "node:test";
import { validateCrdCreate, validateCrdUpdate } from "../../src/crdvalidation/validate-crd.js";
import { errorString } from "../../src/errors/field-error.js";
import { deepClone, type JsonObject } from "../../src/value/json-value.js";

function crd(schema: JsonObject, extra: (c: JsonObject) => void = () => {}): JsonObject {
  const c: JsonObject = {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "foos.example.com" },
    spec: {
      group: "example.com",
      scope: "Namespaced",
      names: { plural: "foos", kind: "Foo" },
      versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: schema } }],
    },
  };
  extra(c);
  return c;
}
const spec = (c: JsonObject) => c["spec"] as JsonObject;
const established = (c: JsonObject) => (c["status"] = { conditions: [{ type: "Established", status: "True" }], storedVersions: ["v1"] });
const errs = (r: ReturnType<typeof validateCrdUpdate>) => r.errors.map(errorString);
const S = "spec.validation.openAPIV3Schema";

test("update: group and plural are immutable; scope and kind only once established", () => {
  const old = crd({ type: "object" });
  const next = crd({ type: "object" }, (c) => {
    spec(c)["scope"] = "Cluster";
    spec(c)["names"] = { plural: "foos", kind: "Bar" };
  });
  assert.deepEqual(errs(validateCrdUpdate(next, old)), []);
  const oldEst = crd({ type: "object" }, established);
  assert.deepEqual(errs(validateCrdUpdate(next, oldEst)), [
    'spec.scope: Invalid value: "Cluster": field is immutable',
    'spec.names.kind: Invalid value: "Bar": field is immutable',
  ]);
  const renamed = crd({ type: "object" }, (c) => {
    spec(c)["group"] = "other.com";
    spec(c)["names"] = { plural: "bars", kind: "Foo" };
    (c["metadata"] as JsonObject)["name"] = "bars.other.com";
  });
  // the generic ObjectMeta update checks (rest.validateCommonFields) and the strategy's both report the name
  assert.deepEqual(errs(validateCrdUpdate(renamed, old)), [
    'metadata.name: Invalid value: "bars.other.com": field is immutable',
    'metadata.name: Invalid value: "bars.other.com": field is immutable',
    'spec.group: Invalid value: "other.com": field is immutable',
    'spec.names.plural: Invalid value: "bars": field is immutable',
  ]);
});

test("update: a stored version cannot be removed from spec.versions", () => {
  const old = crd({ type: "object" }, (c) => {
    (spec(c)["versions"] as JsonObject[]).push({ name: "v0", served: true, storage: false });
    c["status"] = { storedVersions: ["v1", "v0"] };
  });
  const next = crd({ type: "object" });
  assert.deepEqual(errs(validateCrdUpdate(next, old)), [
    'status.storedVersions[1]: Invalid value: "v0": missing from spec.versions; v0 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v0 and removes v0 from status.storedVersions',
  ]);
});

test("update: a new storage version is appended to storedVersions", () => {
  const old = crd({ type: "object" }, (c) => (c["status"] = { storedVersions: ["v1"] }));
  const next = crd({ type: "object" }, (c) => {
    const vs = spec(c)["versions"] as JsonObject[];
    vs[0]!["storage"] = false;
    vs.push({ name: "v2", served: true, storage: true, schema: { openAPIV3Schema: { type: "object" } } });
  });
  const r = validateCrdUpdate(next, old);
  assert.deepEqual(errs(r), []);
  assert.deepEqual(r.crd?.internal.status.storedVersions, ["v1", "v2"]);
});

test("update: non-structural legacy schemas ratchet when preserveUnknownFields stays true", () => {
  const legacy = (desc: string) =>
    crd({ properties: { a: { description: desc } } }, (c) => {
      spec(c)["preserveUnknownFields"] = true;
    });
  assert.deepEqual(errs(validateCrdUpdate(legacy("new"), legacy("old"))), []);
  assert.deepEqual(errs(validateCrdCreate(legacy("new"))), [
    `${S}.properties[a].type: Required value: must not be empty for specified object fields`,
    `${S}.type: Required value: must not be empty at the root`,
    "spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead",
  ]);
});

test("update: switching preserveUnknownFields on is refused", () => {
  const old = crd({ type: "object" });
  const next = crd({ type: "object" }, (c) => (spec(c)["preserveUnknownFields"] = true));
  assert.deepEqual(errs(validateCrdUpdate(next, old)), [
    "spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead",
  ]);
});

test("update: invalid property types, unpruned defaults, non-atomic sets and map-key rules ratchet", () => {
  const schema = (extra: string): JsonObject => ({
    type: "object",
    properties: {
      a: { type: "foo" },
      d: { type: "object", properties: { x: { type: "string" } }, default: { x: "1", y: "2" } },
      s: { type: "array", "x-kubernetes-list-type": "set", items: { type: "object", properties: { x: { type: "string" } } } },
      m: { type: "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"], items: { type: "object", properties: { k: { type: "string" } } } },
      e: { type: "string", description: extra },
    },
  });
  const old = crd(schema("old"));
  const next = crd(schema("new"));
  assert.deepEqual(errs(validateCrdUpdate(next, old)), []);
  assert.deepEqual(errs(validateCrdCreate(next)), [
    `${S}.properties[d].default: Invalid value: {"x":"1","y":"2"}: must not have unknown fields`,
    `${S}.properties[a].type: Unsupported value: "foo": supported values: "array", "boolean", "integer", "number", "object", "string"`,
    `${S}.properties[m].items.properties[k].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
    `${S}.properties[s].items.x-kubernetes-map-type: Invalid value: null: must be atomic as item of a list with x-kubernetes-list-type=set`,
  ]);
});

test("update: unchanged API approval state is not re-checked", () => {
  const k8s = (c: JsonObject) => {
    spec(c)["group"] = "foo.k8s.io";
    (c["metadata"] as JsonObject)["name"] = "foos.foo.k8s.io";
  };
  const old = crd({ type: "object" }, k8s);
  const next = crd({ type: "object", description: "x" }, k8s);
  assert.deepEqual(errs(validateCrdUpdate(next, old)), []);
});

test("update: unchanged too-many selectable fields are allowed", () => {
  const props = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`f${i}`, { type: "string" }]));
  const withFields = (desc: string) =>
    crd({ type: "object", description: desc, properties: { spec: { type: "object", properties: props } } }, (c) => {
      (spec(c)["versions"] as JsonObject[])[0]!["selectableFields"] = Array.from({ length: 9 }, (_, i) => ({ jsonPath: `.spec.f${i}` }));
    });
  assert.deepEqual(errs(validateCrdUpdate(withFields("b"), withFields("a"))), []);
  assert.deepEqual(errs(validateCrdCreate(withFields("b"))), ["spec.selectableFields: Too many: 9: must have at most 8 items"]);
});

test("update warnings: only newly introduced unrecognized formats and set-list warnings", () => {
  const old = crd({ type: "object", properties: { a: { type: "string", format: "foo" } } });
  const next = crd({
    type: "object",
    properties: {
      a: { type: "string", format: "foo" },
      b: { type: "string", format: "bar" },
      l: { type: "array", "x-kubernetes-list-type": "set", items: { type: "array", items: { type: "string" } } },
    },
  });
  assert.deepEqual(validateCrdUpdate(next, old).warnings, [
    'unrecognized format "bar"',
    'x-kubernetes-list-type: set for items of type "array" is not supported by server-side apply or CEL validation rules',
  ]);
  assert.deepEqual(validateCrdUpdate(deepClone(next), next).warnings, []);
});

test("update: an established CRD's conversion webhook CA bundle must be valid", () => {
  const webhook = (ca: string) => (c: JsonObject) => {
    spec(c)["conversion"] = { strategy: "Webhook", webhook: { clientConfig: { url: "https://x.example.com", caBundle: ca }, conversionReviewVersions: ["v1"] } };
  };
  const old = crd({ type: "object" }, (c) => {
    webhook("")(c);
    established(c);
  });
  const next = crd({ type: "object" }, webhook("Zm9v"));
  assert.deepEqual(errs(validateCrdUpdate(next, old)), [
    'spec.conversion.webhookClientConfig.caBundle: Invalid value: "Zm9v": unable to load root certificates: unable to parse bytes as PEM block',
  ]);
  assert.deepEqual(errs(validateCrdCreate(next)), []);
});

test("update: ObjectMeta update rules after BeforeUpdate (system fields carried over, uid immutable, labels checked)", () => {
  const old = crd({ type: "object" }, (c) => {
    c["metadata"] = { name: "foos.example.com", uid: "a", resourceVersion: "7", generation: 3, creationTimestamp: "2024-01-01T00:00:00Z" };
  });
  assert.deepEqual(errs(validateCrdUpdate(crd({ type: "object" }), old)), []);
  const next = crd({ type: "object" }, (c) => {
    c["metadata"] = { name: "foos.example.com", uid: "b", labels: { "a b": "x" } };
  });
  // generic: ValidateObjectMetaAccessor (labels), ValidateObjectMetaAccessorUpdate (uid, labels); then the
  // strategy's ValidateObjectMetaUpdate (uid, labels) — oracle: crd-checks/update-generic-meta#uid-changed-and-bad-label
  const texts = errs(validateCrdUpdate(next, old));
  const uid = 'metadata.uid: Invalid value: "b": field is immutable';
  assert.equal(texts.length, 5, texts.join("\n"));
  assert.deepEqual([texts[1], texts[3]], [uid, uid]);
  for (const i of [0, 2, 4]) assert.match(texts[i]!, /^metadata\.labels: Invalid value: "a b": name part must consist of alphanumeric characters/);
});
