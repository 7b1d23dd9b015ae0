import * as assert from "node:assert/strict";
import { test } from "node:test";
import { errorString } from "../errors/field-error.js";
import { parseGoJson } from "../io/json-decode.js";
import type { JsonObject } from "../value/json-value.js";
import {
  finalizerWarnings,
  objectMetaOf,
  resourceVersionRequiredError,
  validateCustomResourceMetadata,
  validateCustomResourceMetadataUpdate,
  validateGenericCreate,
  validateGenericUpdate,
} from "./custom-resource.js";
import { nestedStringError } from "./accessor-error.js";

const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const o = (json: string) => parseGoJson(json) as JsonObject;
const create = (json: string, namespaced: boolean) => validateCustomResourceMetadata(o(json), namespaced).map(errorString);

test("CR create metadata: name rules and scope", () => {
  assert.deepEqual(create(`{"metadata":{"name":"My.Cron","namespace":"default"}}`, true), [
    `metadata.name: Invalid value: "My.Cron": ${SUBDOMAIN}`,
  ]);
  assert.deepEqual(create(`{"metadata":{"namespace":"default"}}`, true), [
    "metadata.name: Required value: name or generateName is required",
  ]);
  assert.deepEqual(create(`{}`, true), [
    "metadata.name: Required value: name or generateName is required",
    "metadata.namespace: Required value",
  ]);
  assert.deepEqual(create(`{"metadata":{"name":"x","namespace":"default"}}`, false), [
    "metadata.namespace: Forbidden: not allowed on this type",
  ]);
  assert.deepEqual(create(`{"metadata":"x"}`, false), [
    `metadata: Invalid value: "x": expected map[string]interface{}, got string`,
  ]);
});

test("generic create check: path segment names (only run when the strategy is clean)", () => {
  const m = objectMetaOf(o(`{"metadata":{"name":"..","generateName":"a%"}}`)).meta!;
  assert.deepEqual(validateGenericCreate(m, false).map(errorString), [
    `metadata.generateName: Invalid value: "a%": may not contain '%'`,
    `metadata.name: Invalid value: "..": may not be '..'`,
  ]);
});

test("CR update metadata and generic update checks", () => {
  const oldObj = o(`{"metadata":{"name":"a","namespace":"ns","uid":"u1","resourceVersion":"7","creationTimestamp":"2020-01-01T00:00:00Z"}}`);
  const newObj = o(`{"metadata":{"name":"a","namespace":"ns","uid":"u2","resourceVersion":"7","creationTimestamp":"2020-01-01T00:00:00Z"}}`);
  assert.deepEqual(validateCustomResourceMetadataUpdate(newObj, oldObj).map(errorString), [
    `metadata.uid: Invalid value: "u2": field is immutable`,
  ]);
  const nm = objectMetaOf(newObj).meta!;
  const om = objectMetaOf(oldObj).meta!;
  assert.deepEqual(validateGenericUpdate(nm, om, true).map(errorString), [`metadata.uid: Invalid value: "u2": field is immutable`]);
  assert.deepEqual(validateGenericUpdate({ ...nm, resourceVersion: "", uid: "u1" }, om, false).map(errorString), [
    "metadata.namespace: Forbidden: not allowed on this type",
    `metadata.resourceVersion: Invalid value: "": must be specified for an update`,
  ]);
});

test("finalizer warnings (CR strategy WarningsOnCreate/Update)", () => {
  assert.deepEqual(finalizerWarnings(["example.com/ok", "kubernetes", "orphan", "foo", "foo.bar", "a b"]), [
    `metadata.finalizers: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    `metadata.finalizers: "a b": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers`,
    `metadata.finalizers: "foo": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers`,
    `metadata.finalizers: "foo.bar": prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers`,
  ]);
  assert.deepEqual(finalizerWarnings(["foo", "bar"], ["foo"]), [
    `metadata.finalizers: "bar": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers`,
  ]);
});

test("store error for an update without resourceVersion (1.34+ rendering)", () => {
  assert.equal(errorString(resourceVersionRequiredError()), "metadata.resourceVersion: Invalid value: 0: must be specified for an update");
});

test("NestedString accessor errors for non-string kind/apiVersion", () => {
  assert.equal(nestedStringError(["kind"], 42), ".kind accessor error: 42 is of the type int64, expected string");
  assert.equal(
    nestedStringError(["apiVersion"], parseGoJson(`{"b":[1,1.5,null],"a":true}`)),
    ".apiVersion accessor error: map[a:true b:[1 1.5 <nil>]] is of the type map[string]interface {}, expected string",
  );
  assert.equal(nestedStringError(["kind"], parseGoJson("1e6")), ".kind accessor error: 1e+06 is of the type float64, expected string");
});
