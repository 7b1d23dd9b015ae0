import * as assert from "node:assert/strict";
import { test } from "node:test";
import { FieldPath } from "../errors/field-path.js";
import { parseGoJson } from "../io/json-decode.js";
import { type JsonObject, type JsonValue, deepEqual } from "../value/json-value.js";
import { getObjectMeta, objectMetaToUnstructured, setObjectMeta } from "./get-set.js";

const obj = (json: string) => parseGoJson(json) as JsonObject;
const ANNOTATIONS_ERR = "json: cannot unmarshal number into Go struct field ObjectMeta.annotations of type map[string]string";

// schema/objectmeta/coerce_test.go TestGetObjectMetaWithOptions (12 cases)
const unknownAndMalformed = `{"kind":"Pod","apiVersion":"v1","metadata":{"name":"my-meta","unknownField":"foo","generateName":null,"generation":null,"labels":{"foo":"bar"},"annotations":11}}`;
const unknownOnly = `{"kind":"Pod","apiVersion":"v1","metadata":{"name":"my-meta","unknownField":"foo","generateName":null,"generation":null,"labels":{"foo":"bar"}}}`;
const malformedOnly = `{"kind":"Pod","apiVersion":"v1","metadata":{"name":"my-meta","generateName":null,"generation":null,"labels":{"foo":"bar"},"annotations":11}}`;
const expected = { name: "my-meta", labels: { foo: "bar" } };
type Row = [input: string, drop: boolean, unknown: boolean, meta: JsonValue | null, paths: string[], err?: string];
const rows: Row[] = [
  [unknownAndMalformed, false, false, null, [], ANNOTATIONS_ERR],
  [unknownAndMalformed, true, false, expected, []],
  [unknownAndMalformed, false, true, null, [], ANNOTATIONS_ERR],
  [unknownAndMalformed, true, true, expected, ["metadata.unknownField"]],
  [unknownOnly, false, false, expected, []],
  [unknownOnly, true, false, expected, []],
  [unknownOnly, false, true, expected, ["metadata.unknownField"]],
  [unknownOnly, true, true, expected, ["metadata.unknownField"]],
  [malformedOnly, false, false, null, [], ANNOTATIONS_ERR],
  [malformedOnly, true, false, expected, []],
  [malformedOnly, false, true, null, [], ANNOTATIONS_ERR],
  [malformedOnly, true, true, expected, []],
];
rows.forEach(([input, drop, unknown, meta, paths, err], i) => {
  test(`TestGetObjectMetaWithOptions #${i} (drop=${drop}, unknown=${unknown})`, () => {
    const r = getObjectMeta(obj(input), { dropMalformedFields: drop, returnUnknownFieldPaths: unknown });
    assert.equal(r.error, err);
    assert.deepEqual(r.unknownPaths, paths);
    if (meta === null) assert.equal(r.meta, null);
    else assert.ok(deepEqual(objectMetaToUnstructured(r.meta!), meta), JSON.stringify(objectMetaToUnstructured(r.meta!)));
  });
});

test("TestGetObjectMetaNils: nulls decode to zero values", () => {
  const r = getObjectMeta(obj(`{"metadata":{"generateName":null,"generation":null,"labels":{"foo":null}}}`), {
    dropMalformedFields: true,
  });
  assert.equal(r.meta!.generateName, "");
  assert.equal(r.meta!.generation, 0);
  assert.deepEqual([...r.meta!.labels!], [["foo", ""]]);
});

test("TestGetObjectMeta: field names are case-sensitive; bad creationTimestamp is dropped when dropping", () => {
  const o = obj(`{"metadata":{"name":"good","Name":"bad1","nAme":"bad2","namespace":"good","Namespace":"bad1","creationTimestamp":"a"}}`);
  const r = getObjectMeta(o, { dropMalformedFields: true, returnUnknownFieldPaths: true });
  assert.equal(r.meta!.name, "good");
  assert.equal(r.meta!.namespace, "good");
  assert.deepEqual(r.unknownPaths.sort(), ["metadata.Name", "metadata.Namespace", "metadata.nAme"]);
  const strict = getObjectMeta(o, {});
  assert.equal(strict.error, `parsing time "a" as "2006-01-02T15:04:05Z07:00": cannot parse "a" as "2006"`);
});

// Go encoding/json (sigs.k8s.io/json) error texts for metadata type errors
const errors: [string, string][] = [
  [`{"name":5}`, "json: cannot unmarshal number into Go struct field ObjectMeta.name of type string"],
  [`{"uid":true}`, "json: cannot unmarshal bool into Go struct field ObjectMeta.uid of type types.UID"],
  [`{"labels":{"foo":42,"bar":"abc"}}`, "json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string"],
  [`{"labels":["a"]}`, "json: cannot unmarshal array into Go struct field ObjectMeta.labels of type map[string]string"],
  [`{"generation":1.5}`, "json: cannot unmarshal number 1.5 into Go struct field ObjectMeta.generation of type int64"],
  [`{"generation":"1"}`, "json: cannot unmarshal string into Go struct field ObjectMeta.generation of type int64"],
  [`{"generation":1e21}`, "json: cannot unmarshal number 1e+21 into Go struct field ObjectMeta.generation of type int64"],
  [`{"deletionGracePeriodSeconds":"x"}`, "json: cannot unmarshal string into Go struct field ObjectMeta.deletionGracePeriodSeconds of type int64"],
  [`{"finalizers":"a"}`, "json: cannot unmarshal string into Go struct field ObjectMeta.finalizers of type []string"],
  [`{"finalizers":[1]}`, "json: cannot unmarshal number into Go struct field ObjectMeta.finalizers of type string"],
  [`{"ownerReferences":{}}`, "json: cannot unmarshal object into Go struct field ObjectMeta.ownerReferences of type []v1.OwnerReference"],
  [`{"ownerReferences":["x"]}`, "json: cannot unmarshal string into Go struct field ObjectMeta.ownerReferences of type v1.OwnerReference"],
  [`{"ownerReferences":[{"uid":5}]}`, "json: cannot unmarshal number into Go struct field OwnerReference.ownerReferences.uid of type types.UID"],
  [`{"ownerReferences":[{"controller":"yes"}]}`, "json: cannot unmarshal string into Go struct field OwnerReference.ownerReferences.controller of type bool"],
  [`{"managedFields":[{"operation":1}]}`, "json: cannot unmarshal number into Go struct field ManagedFieldsEntry.managedFields.operation of type v1.ManagedFieldsOperationType"],
  [`{"managedFields":[{"time":1}]}`, "json: cannot unmarshal number into Go struct field ManagedFieldsEntry.managedFields.time of type string"],
  [`{"creationTimestamp":5}`, "json: cannot unmarshal number into Go struct field ObjectMeta.creationTimestamp of type string"],
  [`{"creationTimestamp":{}}`, "json: cannot unmarshal object into Go struct field ObjectMeta.creationTimestamp of type string"],
  [`{"deletionTimestamp":"2020-13-01T00:00:00Z"}`, `parsing time "2020-13-01T00:00:00Z": month out of range`],
  // the first type error is kept, later ones ignored (keys visited in sorted order)...
  [`{"name":1,"annotations":2}`, ANNOTATIONS_ERR],
  // ...but a metav1.Time error aborts decoding and wins
  [`{"annotations":2,"creationTimestamp":"x"}`, `parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"`],
];
for (const [meta, want] of errors) {
  test(`metadata decode error: ${meta}`, () => {
    assert.equal(getObjectMeta(obj(`{"metadata":${meta}}`), {}).error, want);
  });
}

test("metadata that is not an object", () => {
  assert.equal(getObjectMeta(obj(`{"metadata":"x"}`), {}).error, "json: cannot unmarshal string into Go value of type v1.ObjectMeta");
  assert.equal(getObjectMeta(obj(`{"metadata":[1]}`), {}).error, "json: cannot unmarshal array into Go value of type v1.ObjectMeta");
  assert.equal(
    getObjectMeta(obj(`{"metadata":[1]}`), { dropMalformedFields: true }).error,
    "invalid metadata: expected object, got []interface {}",
  );
  const n = getObjectMeta(obj(`{"metadata":null}`), {});
  assert.equal(n.found, true);
  assert.deepEqual(objectMetaToUnstructured(n.meta!), {});
  assert.equal(getObjectMeta(obj(`{}`), {}).found, false);
});

test("strict unknown paths include nested indices and the parent path", () => {
  const o = obj(`{"metadata":{"foo":1,"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"n","uid":"u","bar":2}],"managedFields":[{"manager":"m","x":1}]}}`);
  assert.deepEqual(getObjectMeta(o, { returnUnknownFieldPaths: true, parentPath: FieldPath.of("spec").child("template") }).unknownPaths, [
    "spec.template.metadata.foo",
    "spec.template.metadata.managedFields[0].x",
    "spec.template.metadata.ownerReferences[0].bar",
  ]);
});

test("normalisation through ObjectMeta (ToUnstructured)", () => {
  const o = obj(`{"metadata":{"name":"a","namespace":"","labels":{},"annotations":{"x":"y"},"generation":2.0,
    "creationTimestamp":"2020-01-01T01:00:00.5+01:00","deletionGracePeriodSeconds":0,"finalizers":[],
    "ownerReferences":[{"name":"o","controller":true}],"managedFields":[{"manager":"m","operation":"Apply","time":"2020-01-01T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{}}}],
    "unknown":1}}`);
  const r = getObjectMeta(o, {});
  setObjectMeta(o, r.meta);
  assert.ok(
    deepEqual(
      o,
      obj(`{"metadata":{"name":"a","generation":2,"creationTimestamp":"2020-01-01T00:00:00Z","deletionGracePeriodSeconds":0,
        "annotations":{"x":"y"},"ownerReferences":[{"apiVersion":"","kind":"","name":"o","uid":"","controller":true}],
        "managedFields":[{"manager":"m","operation":"Apply","time":"2020-01-01T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{}}}]}}`),
    ),
    JSON.stringify(o),
  );
  // zero creationTimestamp is omitted (omitzero); an explicit zero deletionTimestamp stays as null
  const z = obj(`{"metadata":{"creationTimestamp":"0001-01-01T00:00:00Z","deletionTimestamp":"0001-01-01T00:00:00Z"}}`);
  setObjectMeta(z, getObjectMeta(z, {}).meta);
  assert.ok(deepEqual(z, obj(`{"metadata":{"deletionTimestamp":null}}`)));
});
