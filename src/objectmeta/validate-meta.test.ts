import * as assert from "node:assert/strict";
import { test } from "node:test";
import { errorString } from "../errors/field-error.js";
import { FieldPath } from "../errors/field-path.js";
import { emptyObjectMeta } from "./go-decode.js";
import { parseRFC3339 } from "../go/time.js";
import {
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  nameIsDNSSubdomain,
  validatePathSegment,
} from "./names.js";
import type { ObjectMeta, OwnerReference } from "./types.js";
import { validateAnnotations, validateObjectMeta, validateObjectMetaUpdate } from "./validate-meta.js";

const F = FieldPath.of("field");
const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const NAME_PART =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_KEY =
  "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";

const meta = (m: Partial<ObjectMeta>): ObjectMeta => ({ ...emptyObjectMeta(), ...m });
const time = (s: string) => {
  const r = parseRFC3339(s);
  if (!r.ok) throw new Error(r.error);
  return r.time;
};
const strs = (errs: ReturnType<typeof validateObjectMeta>) => errs.map(errorString);

test("format checks (util/validation tables)", () => {
  assert.deepEqual(isDNS1123Subdomain("Foo"), [SUBDOMAIN]);
  assert.deepEqual(isDNS1123Subdomain("a".repeat(254)), ["must be no more than 253 characters"]);
  assert.deepEqual(isDNS1123Label("a.b"), ["must not contain dots"]);
  assert.deepEqual(isDNS1035Label("1a").length, 1);
  assert.deepEqual(isQualifiedName("example/foo/bar"), [LABEL_KEY]);
  assert.deepEqual(isQualifiedName("example.com/_e"), [NAME_PART]);
  assert.deepEqual(isQualifiedName("/x"), ["prefix part must be non-empty"]);
  assert.deepEqual(isQualifiedName("a".repeat(64)), ["name part must be no more than 63 bytes"]);
  assert.deepEqual(isQualifiedName("Ex.com/a"), [`prefix part ${SUBDOMAIN}`]);
  assert.deepEqual(isQualifiedName("a/"), ["name part must be non-empty", NAME_PART]);
  assert.deepEqual(isValidLabelValue(""), []);
  assert.deepEqual(isValidLabelValue("a".repeat(64)), ["must be no more than 63 bytes"]);
  assert.deepEqual(validatePathSegment("..", false), ["may not be '..'"]);
  assert.deepEqual(validatePathSegment("a/%b", false), ["may not contain '/'", "may not contain '%'"]);
  assert.deepEqual(validatePathSegment("..", true), []);
  // TestValidateObjectMetaTrimsTrailingDash, and Go's maskTrailingDash dropping two bytes
  assert.deepEqual(nameIsDNSSubdomain("foo-", true), []);
  assert.deepEqual(nameIsDNSSubdomain("-", true), [SUBDOMAIN]);
  assert.deepEqual(nameIsDNSSubdomain("é-", true), [SUBDOMAIN]);
});

test("create: name and generateName (CR rule NameIsDNSSubdomain)", () => {
  assert.deepEqual(strs(validateObjectMeta(meta({}), false, nameIsDNSSubdomain, FieldPath.of("metadata"))), [
    "metadata.name: Required value: name or generateName is required",
  ]);
  assert.deepEqual(
    strs(validateObjectMeta(meta({ name: "My_Name", generateName: "Bad-" }), false, nameIsDNSSubdomain, FieldPath.of("metadata"))),
    [`metadata.generateName: Invalid value: "Bad-": ${SUBDOMAIN}`, `metadata.name: Invalid value: "My_Name": ${SUBDOMAIN}`],
  );
});

test("create: namespace by scope (TestValidateObjectMetaNamespaces)", () => {
  const ns = (namespace: string, namespaced: boolean) =>
    strs(validateObjectMeta(meta({ name: "test", namespace }), namespaced, nameIsDNSSubdomain, F));
  assert.deepEqual(ns("foo.bar", true), [`field.namespace: Invalid value: "foo.bar": must not contain dots`]);
  assert.equal(ns("A".repeat(64), true).length, 2);
  assert.deepEqual(ns("", true), ["field.namespace: Required value"]);
  assert.deepEqual(ns("x", false), ["field.namespace: Forbidden: not allowed on this type"]);
});

test("create: generation, labels, annotations, finalizers, managedFields", () => {
  const m = meta({
    name: "test",
    generation: -1,
    labels: new Map([["a/b/c", "ok"], ["ok", "-bad"]]),
    finalizers: ["orphan", "foregroundDeletion", "a b"],
    managedFields: [
      { manager: "ok", operation: "", apiVersion: "", fieldsType: "", subresource: "" },
      { manager: "a\u0007", operation: "Patch", apiVersion: "", fieldsType: "FieldsV2", subresource: "x".repeat(257) },
    ],
  });
  assert.deepEqual(strs(validateObjectMeta(m, false, nameIsDNSSubdomain, F)), [
    "field.generation: Invalid value: -1: must be greater than or equal to 0",
    `field.labels: Invalid value: "a/b/c": ${LABEL_KEY}`,
    `field.labels: Invalid value: "-bad": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
    `field.finalizers: Invalid value: "a b": ${NAME_PART}`,
    `field.finalizers: Invalid value: ["orphan","foregroundDeletion","a b"]: finalizer orphan and foregroundDeletion cannot be both set`,
    "field.managedFields[0].operation: Required value: must not be empty",
    `field.managedFields[1].operation: Unsupported value: "Patch": supported values: "Apply", "Update"`,
    "field.managedFields[1].fieldsType: Invalid value: \"FieldsV2\": must be `FieldsV1`",
    `field.managedFields[1].manager: Invalid value: "a\\a": invalid character U+0007 (at position 1)`,
    "field.managedFields[1].subresource: Too long: may not be more than 256 bytes",
  ]);
});

test("TestValidateAnnotations", () => {
  const ok = [
    "simple",
    "now-with-dashes",
    "1-starts-with-num",
    "1234",
    "simple/simple",
    "now-with-dashes/simple",
    "now-with-dashes/now-with-dashes",
    "now.with.dots/simple",
    "now-with.dashes-and.dots/simple",
    "1-num.2-num/3-num",
    "1234/5678",
    "1.2.3.4/5678",
    "UpperCase123",
  ];
  for (const k of ok) assert.deepEqual(validateAnnotations(new Map([[k, "bar"]]), F), [], k);
  const LIMIT = 256 * 1024;
  assert.deepEqual(validateAnnotations(new Map([["a", "b".repeat(LIMIT - 1)]]), F), []);
  assert.deepEqual(validateAnnotations(new Map([["a", "b".repeat(LIMIT / 2 - 1)], ["c", "d".repeat(LIMIT / 2 - 1)]]), F), []);
  const one = (k: string) => strs(validateAnnotations(new Map([[k, "bar"]]), F));
  assert.deepEqual(one("nospecialchars^=@"), [`field: Invalid value: "nospecialchars^=@": ${NAME_PART}`]);
  assert.deepEqual(one("cantendwithadash-"), [`field: Invalid value: "cantendwithadash-": ${NAME_PART}`]);
  assert.deepEqual(one("only/one/slash"), [`field: Invalid value: "only/one/slash": ${LABEL_KEY}`]);
  assert.deepEqual(one("a".repeat(254)), [`field: Invalid value: "${"a".repeat(254)}": name part must be no more than 63 bytes`]);
  assert.deepEqual(strs(validateAnnotations(new Map([["a", "b".repeat(LIMIT)]]), F)), [
    "field: Too long: may not be more than 262144 bytes",
  ]);
  assert.deepEqual(strs(validateAnnotations(new Map([["a", "b".repeat(LIMIT / 2)], ["c", "d".repeat(LIMIT / 2)]]), F)), [
    "field: Too long: may not be more than 262144 bytes",
  ]);
});

const ref = (r: Partial<OwnerReference>): OwnerReference => ({ apiVersion: "customresourceVersion", kind: "customresourceKind", name: "name", uid: "1", ...r });
const refErrs = (refs: OwnerReference[]) =>
  strs(validateObjectMeta(meta({ name: "test", namespace: "test", ownerReferences: refs }), true, nameIsDNSSubdomain, F));

test("TestValidateObjectMetaOwnerReferences", () => {
  assert.deepEqual(refErrs([ref({})]), []);
  assert.deepEqual(refErrs([ref({ apiVersion: "v1", kind: "Event" })]), [
    `field.ownerReferences[0]: Invalid value: {"apiVersion":"v1","kind":"Event","name":"name","uid":"1"}: /v1, Kind=Event is disallowed from being an owner`,
  ]);
  assert.deepEqual(refErrs([ref({ apiVersion: "a/b/c", kind: "Pod" })]), [
    `field.ownerReferences[0].apiVersion: Invalid value: "a/b/c": must be <group>/<version> or <version>`,
  ]);
  assert.deepEqual(refErrs([ref({ apiVersion: "foo/", kind: "Pod" })]), [
    `field.ownerReferences[0].apiVersion: Invalid value: "foo/": must be <group>/<version> or <version>`,
  ]);
  assert.deepEqual(refErrs([ref({ apiVersion: "v1", kind: "Pod" })]), []);
  assert.deepEqual(
    refErrs([ref({ uid: "1", controller: false }), ref({ uid: "2", controller: true }), ref({ uid: "3", controller: false }), ref({ uid: "4" })]),
    [],
  );
  const two = [
    ref({ kind: "customresourceKind1", controller: false }),
    ref({ kind: "customresourceKind2", uid: "2", controller: true }),
    ref({ kind: "customresourceKind3", uid: "3", controller: true }),
  ];
  assert.deepEqual(refErrs(two), [
    `field.ownerReferences: Invalid value: [{"apiVersion":"customresourceVersion","kind":"customresourceKind1","name":"name","uid":"1","controller":false},{"apiVersion":"customresourceVersion","kind":"customresourceKind2","name":"name","uid":"2","controller":true},{"apiVersion":"customresourceVersion","kind":"customresourceKind3","name":"name","uid":"3","controller":true}]: Only one reference can have Controller set to true. Found "true" in references for customresourceKind2/name and customresourceKind3/name`,
  ]);
  assert.deepEqual(refErrs([{ apiVersion: "", kind: "", name: "", uid: "" }]), [
    "field.ownerReferences[0].apiVersion: Required value: must not be empty",
    "field.ownerReferences[0].kind: Required value: must not be empty",
    "field.ownerReferences[0].name: Required value: must not be empty",
    "field.ownerReferences[0].uid: Required value: must not be empty",
  ]);
});

const upd = (n: Partial<ObjectMeta>, o: Partial<ObjectMeta>) =>
  strs(validateObjectMetaUpdate(meta({ name: "test", resourceVersion: "1", ...n }), meta({ name: "test", resourceVersion: "1", ...o }), F));

test("TestValidateObjectMetaUpdatePreventsDeletionFieldMutation / generation / finalizers", () => {
  const now = { sec: 1000, nsec: 0 };
  const later = { sec: 2000, nsec: 0 };
  assert.deepEqual(upd({}, {}), []);
  assert.deepEqual(upd({ deletionTimestamp: now, deletionGracePeriodSeconds: 30 }, { deletionTimestamp: now, deletionGracePeriodSeconds: 30 }), []);
  assert.deepEqual(upd({ deletionTimestamp: now }, {}), [`field.deletionTimestamp: Invalid value: "1970-01-01T00:16:40Z": field is immutable`]);
  assert.deepEqual(upd({}, { deletionTimestamp: now }), ["field.deletionTimestamp: Invalid value: null: field is immutable"]);
  assert.deepEqual(upd({ deletionTimestamp: later }, { deletionTimestamp: now }), [
    `field.deletionTimestamp: Invalid value: "1970-01-01T00:33:20Z": field is immutable`,
  ]);
  assert.deepEqual(upd({ deletionGracePeriodSeconds: 30 }, {}), ["field.deletionGracePeriodSeconds: Invalid value: 30: field is immutable"]);
  assert.deepEqual(upd({}, { deletionGracePeriodSeconds: 30 }), ["field.deletionGracePeriodSeconds: Invalid value: null: field is immutable"]);
  assert.deepEqual(upd({ deletionGracePeriodSeconds: 40 }, { deletionGracePeriodSeconds: 30 }), [
    "field.deletionGracePeriodSeconds: Invalid value: 40: field is immutable",
  ]);
  assert.deepEqual(upd({ generation: 4 }, { generation: 5 }), ["field.generation: Invalid value: 4: must not be decremented"]);
  assert.deepEqual(upd({ generation: 2 }, { generation: 1 }), []);
  // TestValidateObjectMetaUpdateIgnoresCreationTimestamp: a changed creationTimestamp is one error
  assert.deepEqual(upd({}, { creationTimestamp: time("1970-01-01T00:00:10Z") }), ["field.creationTimestamp: Invalid value: null: field is immutable"]);
  assert.deepEqual(upd({ creationTimestamp: time("1970-01-01T00:00:10Z") }, { creationTimestamp: time("1970-01-01T00:00:11Z") }), [
    `field.creationTimestamp: Invalid value: "1970-01-01T00:00:10Z": field is immutable`,
  ]);
  // TestValidateFinalizersUpdate
  const zero = { sec: -62135596800, nsec: 0 };
  assert.deepEqual(upd({ deletionTimestamp: zero, finalizers: ["x/a", "y/b"] }, { deletionTimestamp: zero, finalizers: ["x/a"] }), [
    `field.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"y/b"}`,
  ]);
  assert.deepEqual(upd({ deletionTimestamp: zero, finalizers: ["x/b"] }, { deletionTimestamp: zero, finalizers: ["x/a"] }), [
    `field.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"x/b"}`,
  ]);
  assert.deepEqual(upd({ deletionTimestamp: zero, finalizers: ["x/a"] }, { deletionTimestamp: zero, finalizers: ["x/a", "y/b"] }), []);
  assert.deepEqual(upd({ finalizers: ["x/a", "y/b"] }, { finalizers: ["x/a"] }), []);
});

test("update: resourceVersion required, immutable name/namespace/uid, in Kubernetes' order", () => {
  assert.deepEqual(
    strs(
      validateObjectMetaUpdate(
        meta({ name: "b", namespace: "n2", uid: "<u2>", labels: new Map([["k", "-"]]) }),
        meta({ name: "a", namespace: "n1", uid: "u1", resourceVersion: "5" }),
        FieldPath.of("metadata"),
      ),
    ),
    [
      `metadata.resourceVersion: Invalid value: "": must be specified for an update`,
      `metadata.name: Invalid value: "b": field is immutable`,
      `metadata.namespace: Invalid value: "n2": field is immutable`,
      `metadata.uid: Invalid value: "\\u003cu2\\u003e": field is immutable`,
      `metadata.labels: Invalid value: "-": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
    ],
  );
});
