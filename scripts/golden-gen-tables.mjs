// Case tables for scripts/golden-gen-cases.mjs. Each area maps file names to
// { description, crd, operation, fieldValidation, cases: [{name, object | objectJson, oldObject, ...}] }.

/** A v1 CRD `widgets.example.com` (kind Widget) with the given spec/status property schemas. */
export function crd(specProps = {}, opts = {}) {
  const schema = opts.schema ?? {
    type: "object",
    properties: {
      spec: { type: "object", properties: specProps, ...(opts.specExtra ?? {}) },
      ...(opts.status ? { status: opts.status } : {}),
    },
    ...(opts.rootExtra ?? {}),
  };
  const version = { name: "v1", served: true, storage: true, schema: { openAPIV3Schema: schema } };
  if (opts.subresources) version.subresources = opts.subresources;
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "widgets.example.com" },
    spec: {
      group: "example.com",
      names: { plural: "widgets", singular: "widget", kind: "Widget", listKind: "WidgetList" },
      scope: opts.scope ?? "Cluster",
      versions: [version],
      ...(opts.specCrd ?? {}),
    },
  };
}

/** A Widget with the given spec (cluster-scoped, name w1). */
export function cr(spec, extra = {}) {
  const o = { apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "w1", ...(extra.metadata ?? {}) } };
  if (spec !== undefined) o.spec = spec;
  for (const [k, v] of Object.entries(extra)) if (k !== "metadata") o[k] = v;
  return o;
}

/** JSON body text for a Widget with a raw JSON spec (keeps 1.0, big integers, duplicate keys). */
export function crJson(specJson, metadataJson = '{"name":"w1"}') {
  return `{"apiVersion":"example.com/v1","kind":"Widget","metadata":${metadataJson},"spec":${specJson}}`;
}

/** One file: a CRD for one property `x` with schema `s`, and one create case per value. */
function valueTable(description, s, values, fv = "Strict") {
  return {
    description,
    crd: crd({ x: s }),
    operation: "create",
    fieldValidation: fv,
    cases: values.map(([name, v]) =>
      typeof v === "object" && v !== null && "json" in v ? { name, objectJson: crJson(`{"x":${v.json}}`) } : { name, object: cr({ x: v }) },
    ),
  };
}

const J = (json) => ({ json });

// ---------------------------------------------------------------------------------------------- openapi
const openapi = {
  "type-string": valueTable("type: string against every JSON kind", { type: "string" }, [
    ["string", "a"], ["empty", ""], ["int", 1], ["float", J("1.5")], ["bool", true], ["array", ["a"]], ["object", { a: 1 }],
  ]),
  "type-integer": valueTable("type: integer", { type: "integer" }, [
    ["int", 3], ["negative", -7], ["float-integral", J("3.0")], ["float", J("3.5")], ["string", "3"], ["bool", false],
    ["array", [1]], ["object", {}], ["big", J("9223372036854775807")], ["exp", J("1e3")],
  ]),
  "type-number": valueTable("type: number", { type: "number" }, [
    ["int", 3], ["float", J("3.25")], ["float-integral", J("2.0")], ["string", "3"], ["bool", true], ["array", []],
  ]),
  "type-boolean": valueTable("type: boolean", { type: "boolean" }, [
    ["true", true], ["false", false], ["string", "true"], ["int", 1], ["object", {}],
  ]),
  "type-array": valueTable("type: array of strings", { type: "array", items: { type: "string" } }, [
    ["ok", ["a", "b"]], ["empty", []], ["string", "a"], ["item-int", ["a", 1]], ["object", { a: "b" }],
  ]),
  "type-object": valueTable("type: object with a property", { type: "object", properties: { a: { type: "string" } } }, [
    ["ok", { a: "x" }], ["empty", {}], ["string", "x"], ["array", [1]], ["nested-wrong", { a: 5 }],
  ]),
  maximum: valueTable("maximum: 10", { type: "integer", maximum: 10 }, [["below", 9], ["equal", 10], ["above", 11], ["far-above", 1000000]]),
  "maximum-exclusive": valueTable("maximum 10 exclusive", { type: "integer", maximum: 10, exclusiveMaximum: true }, [["below", 9], ["equal", 10], ["above", 11]]),
  minimum: valueTable("minimum: -5", { type: "integer", minimum: -5 }, [["above", 0], ["equal", -5], ["below", -6]]),
  "minimum-exclusive": valueTable("minimum 0 exclusive", { type: "number", minimum: 0, exclusiveMinimum: true }, [["above", J("0.5")], ["equal", 0], ["below", J("-0.5")]]),
  "maximum-float": valueTable("maximum: 1.5 on a number", { type: "number", maximum: 1.5 }, [["below", J("1.25")], ["above", J("2.5")], ["int-above", 2]]),
  "multiple-of": valueTable("multipleOf: 3", { type: "integer", multipleOf: 3 }, [["ok", 9], ["zero", 0], ["bad", 10], ["negative-bad", -4]]),
  "multiple-of-float": valueTable("multipleOf: 0.5", { type: "number", multipleOf: 0.5 }, [["ok", J("1.5")], ["bad", J("1.25")], ["int-ok", 2]]),
  "max-length": valueTable("maxLength: 3", { type: "string", maxLength: 3 }, [["ok", "abc"], ["long", "abcd"], ["unicode-ok", "äöü"], ["unicode-long", "äöüß"], ["emoji", "😀😀😀😀"]]),
  "min-length": valueTable("minLength: 2", { type: "string", minLength: 2 }, [["ok", "ab"], ["short", "a"], ["empty", ""]]),
  "max-length-1": valueTable("maxLength: 1 (singular byte)", { type: "string", maxLength: 1 }, [["ok", "a"], ["long", "ab"]]),
  pattern: valueTable("pattern: ^[a-z]+$", { type: "string", pattern: "^[a-z]+$" }, [["ok", "abc"], ["bad", "abc1"], ["empty", ""]]),
  "pattern-unanchored": valueTable("pattern is unanchored: [0-9]", { type: "string", pattern: "[0-9]" }, [["ok", "a1b"], ["bad", "abc"]]),
  "pattern-unicode": valueTable("pattern with \\p{L}", { type: "string", pattern: "^\\p{L}+$" }, [["ok", "ähm"], ["bad", "a1"]]),
  "max-items": valueTable("maxItems: 2", { type: "array", maxItems: 2, items: { type: "integer" } }, [["ok", [1, 2]], ["many", [1, 2, 3]]]),
  "min-items": valueTable("minItems: 2", { type: "array", minItems: 2, items: { type: "integer" } }, [["ok", [1, 2]], ["few", [1]], ["empty", []]]),
  "max-items-1": valueTable("maxItems: 1", { type: "array", maxItems: 1, items: { type: "integer" } }, [["many", [1, 2]]]),
  enum: valueTable("enum of strings", { type: "string", enum: ["a", "b", "c d"] }, [["ok", "a"], ["bad", "z"], ["case", "A"]]),
  "enum-int": valueTable("enum of integers", { type: "integer", enum: [1, 2] }, [["ok", 2], ["bad", 3], ["float", J("1.0")]]),
  "enum-mixed": valueTable("enum with an object and null", { nullable: true, "x-kubernetes-preserve-unknown-fields": true, enum: [{ a: 1 }, "s", null] }, [["object", { a: 1 }], ["string", "s"], ["null", null], ["bad", 3]]),
  "max-properties": valueTable("maxProperties: 1", { type: "object", maxProperties: 1, additionalProperties: { type: "string" } }, [["ok", { a: "1" }], ["many", { a: "1", b: "2" }]]),
  "min-properties": valueTable("minProperties: 1", { type: "object", minProperties: 1, additionalProperties: { type: "string" } }, [["ok", { a: "1" }], ["few", {}]]),
  required: valueTable("required: [a, b]", { type: "object", required: ["a", "b"], properties: { a: { type: "string" }, b: { type: "string" } } }, [["ok", { a: "1", b: "2" }], ["missing-b", { a: "1" }], ["missing-both", {}], ["null-a", { a: null, b: "x" }]]),
  "all-of": valueTable("allOf with two bounds", { type: "integer", allOf: [{ minimum: 1 }, { maximum: 5 }] }, [["ok", 3], ["low", 0], ["high", 6]]),
  "any-of": valueTable("anyOf of two bounds", { type: "integer", anyOf: [{ maximum: 1 }, { minimum: 10 }] }, [["low", 0], ["high", 11], ["middle", 5]]),
  "one-of": valueTable("oneOf overlapping", { type: "integer", oneOf: [{ maximum: 5 }, { minimum: 3 }] }, [["only-first", 1], ["only-second", 9], ["both", 4]]),
  not: valueTable("not: enum", { type: "string", not: { enum: ["forbidden"] } }, [["ok", "fine"], ["bad", "forbidden"]]),
  "one-of-required": valueTable("oneOf required properties", { type: "object", properties: { a: { type: "string" }, b: { type: "string" } }, oneOf: [{ required: ["a"] }, { required: ["b"] }] }, [["a", { a: "x" }], ["b", { b: "x" }], ["both", { a: "x", b: "y" }], ["neither", {}]]),
  "any-of-nested": valueTable("anyOf with nested properties", { type: "object", properties: { a: { type: "string" } }, anyOf: [{ properties: { a: { pattern: "^x" } } }, { properties: { a: { pattern: "y$" } } }] }, [["x", { a: "xa" }], ["y", { a: "ay" }], ["none", { a: "bb" }]]),
  "additional-properties-schema": valueTable("additionalProperties: integer", { type: "object", additionalProperties: { type: "integer", minimum: 0 } }, [["ok", { a: 1, b: 2 }], ["bad-type", { a: "x" }], ["bad-min", { a: -1 }]]),
  "additional-properties-false": valueTable("additionalProperties: false (no properties)", { type: "object", additionalProperties: false }, [["empty", {}], ["key", { a: 1 }]]),
  "nested-array-objects": valueTable("array of objects with required and bounds", { type: "array", items: { type: "object", required: ["n"], properties: { n: { type: "integer", maximum: 3 } } } }, [["ok", [{ n: 1 }]], ["bad", [{ n: 1 }, { n: 4 }, {}]]]),
  "many-errors-order": valueTable("several errors in one object (order)", { type: "object", properties: { a: { type: "integer", maximum: 1 }, b: { type: "string", maxLength: 1 }, c: { type: "array", maxItems: 1, items: { type: "integer" } }, d: { type: "string", enum: ["x"] } } }, [["all-bad", { a: 5, b: "long", c: [1, 2], d: "y" }], ["type-and-value", { a: "s", b: 3, c: "x", d: 1 }]]),
};

// ---------------------------------------------------------------------------------------------- formats
const formatValues = {
  int32: [["ok", 5], ["big", 3000000000], ["float", J("1.5")], ["string", "5"]],
  int64: [["ok", 5], ["float", J("1.5")], ["string", "5"]],
  float: [["ok", J("1.5")], ["int", 1], ["string", "1.5"]],
  double: [["ok", J("1.5")], ["int", 1]],
  byte: [["ok", "aGVsbG8="], ["bad", "not base64!"], ["empty", ""]],
  date: [["ok", "2024-02-29"], ["bad-day", "2023-02-30"], ["datetime", "2024-01-01T00:00:00Z"], ["garbage", "yesterday"]],
  "date-time": [["ok", "2024-01-01T10:00:00Z"], ["offset", "2024-01-01T10:00:00+02:00"], ["fraction", "2024-01-01T10:00:00.123Z"], ["no-zone", "2024-01-01T10:00:00"], ["date-only", "2024-01-01"], ["bad", "tomorrow"]],
  datetime: [["ok", "2024-01-01T10:00:00Z"], ["bad", "x"]],
  duration: [["ok", "1h30m"], ["seconds", "10s"], ["days", "3d"], ["bad", "1x"], ["iso", "PT1H"]],
  uuid: [["ok", "123e4567-e89b-12d3-a456-426614174000"], ["upper", "123E4567-E89B-12D3-A456-426614174000"], ["bad", "123e4567"], ["no-dashes", "123e4567e89b12d3a456426614174000"]],
  uuid3: [["ok", "bcd02ab7-6beb-3467-84c0-3bdbea962817"], ["v4", "123e4567-e89b-42d3-a456-426614174000"]],
  uuid4: [["ok", "123e4567-e89b-42d3-a456-426614174000"], ["v3", "bcd02ab7-6beb-3467-84c0-3bdbea962817"]],
  uuid5: [["ok", "a6edc906-2f9f-5fb2-a373-efac406f0ef2"], ["v4", "123e4567-e89b-42d3-a456-426614174000"]],
  email: [["ok", "a@example.com"], ["named", "A B <a@example.com>"], ["bad", "not-an-email"]],
  hostname: [["ok", "example.com"], ["label", "a-b"], ["bad", "-bad-"], ["underscore", "a_b.com"], ["long-label", "a".repeat(64) + ".com"]],
  ipv4: [["ok", "10.0.0.1"], ["bad", "10.0.0.256"], ["leading-zero", "010.0.0.1"], ["v6", "::1"]],
  ipv6: [["ok", "::1"], ["full", "2001:db8::8a2e:370:7334"], ["v4", "10.0.0.1"], ["bad", "1::2::3"]],
  cidr: [["ok", "10.0.0.0/8"], ["v6", "2001:db8::/32"], ["no-mask", "10.0.0.0"], ["bad-mask", "10.0.0.0/33"]],
  mac: [["ok", "01:23:45:67:89:ab"], ["dashes", "01-23-45-67-89-ab"], ["bad", "01:23:45"]],
  uri: [["ok", "https://example.com/a?b=c"], ["relative", "/a/b"], ["bad", "://x"], ["spaces", "http://a b"]],
  password: [["any", "secret"]],
  isbn: [["isbn10", "0-306-40615-2"], ["bad", "1234"]],
  isbn10: [["ok", "0306406152"], ["bad", "0306406153"]],
  isbn13: [["ok", "978-0-306-40615-7"], ["bad", "978-0-306-40615-8"]],
  creditcard: [["ok", "4111111111111111"], ["bad", "4111111111111112"]],
  ssn: [["ok", "123-45-6789"], ["bad", "123456789x"]],
  hexcolor: [["ok", "#fff"], ["long", "#ffffff"], ["bad", "fff"]],
  rgbcolor: [["ok", "rgb(1,2,3)"], ["bad", "rgb(1,2)"]],
  bsonobjectid: [["ok", "507f1f77bcf86cd799439011"], ["bad", "507f1f77"]],
  "k8s-short-name": [["ok", "abc-1"], ["bad", "Abc"]],
  "k8s-long-name": [["ok", "a.b-c"], ["bad", "a..b"]],
  "unknown-format-xyz": [["any", "whatever"]],
};
const formats = {};
for (const [fmt, values] of Object.entries(formatValues)) {
  const t = ["int32", "int64"].includes(fmt) ? "integer" : ["float", "double"].includes(fmt) ? "number" : "string";
  formats[fmt] = valueTable(`format: ${fmt} (type ${t})`, { type: t, format: fmt }, values);
}
formats["int32-on-string"] = valueTable("format int32 on a string type", { type: "string", format: "int32" }, [["string", "12"]]);
formats["date-time-on-integer"] = valueTable("format date-time on an integer", { type: "integer", format: "date-time" }, [["int", 5]]);

// ---------------------------------------------------------------------------------------------- pruning / defaulting / nullable
const pd = {
  prune: {
    description: "pruning of unknown fields",
    crd: crd({ a: { type: "string" }, o: { type: "object", properties: { b: { type: "integer" } } }, l: { type: "array", items: { type: "object", properties: { c: { type: "string" } } } }, p: { type: "object", "x-kubernetes-preserve-unknown-fields": true, properties: { d: { type: "object", properties: { e: { type: "string" } } } } }, m: { type: "object", additionalProperties: { type: "object", properties: { f: { type: "string" } } } } }),
    operation: "create",
    cases: [
      { name: "root-unknown-warn", fieldValidation: "Warn", object: cr({ a: "x" }, { extra: 1 }) },
      { name: "root-unknown-strict", fieldValidation: "Strict", object: cr({ a: "x" }, { extra: 1 }) },
      { name: "root-unknown-ignore", fieldValidation: "Ignore", object: cr({ a: "x" }, { extra: 1 }) },
      { name: "nested-warn", fieldValidation: "Warn", object: cr({ a: "x", z: 1, o: { b: 1, y: 2 } }) },
      { name: "list-items-warn", fieldValidation: "Warn", object: cr({ l: [{ c: "1", q: 1 }, { r: 2 }] }) },
      { name: "preserve-unknown-keeps", fieldValidation: "Strict", object: cr({ p: { anything: [1, 2], d: { e: "x", g: 1 } } }) },
      { name: "additional-properties-prunes-inside", fieldValidation: "Warn", object: cr({ m: { k1: { f: "x", g: "y" } } }) },
      { name: "many-unknown-strict", fieldValidation: "Strict", object: cr({ z3: 1, z1: 1, z2: { a: 1 }, o: { zz: 1 } }) },
      { name: "status-unknown-without-schema", fieldValidation: "Warn", object: cr({ a: "x" }, { status: { ready: true } }) },
      { name: "metadata-unknown-strict", fieldValidation: "Strict", object: cr({}, { metadata: { name: "w1", bogus: 1 } }) },
      { name: "metadata-unknown-warn", fieldValidation: "Warn", object: cr({}, { metadata: { name: "w1", bogus: 1 } }) },
    ],
  },
  default: {
    description: "structural defaulting",
    crd: crd({ a: { type: "string", default: "d" }, n: { type: "integer", default: 5 }, f: { type: "number", default: 1.5 }, o: { type: "object", default: {}, properties: { b: { type: "string", default: "inner" } } }, l: { type: "array", items: { type: "object", properties: { c: { type: "integer", default: 7 } } } }, m: { type: "object", additionalProperties: { type: "object", properties: { d: { type: "boolean", default: true } } } }, arr: { type: "array", default: ["x"], items: { type: "string" } } }),
    operation: "create",
    fieldValidation: "Strict",
    cases: [
      { name: "empty-spec", object: cr({}) },
      { name: "no-spec", object: cr(undefined) },
      { name: "explicit-values", object: cr({ a: "given", n: 1, o: { b: "given" } }) },
      { name: "list-item-defaults", object: cr({ l: [{}, { c: 1 }] }) },
      { name: "map-value-defaults", object: cr({ m: { k: {}, j: { d: false } } }) },
      { name: "null-non-nullable-gets-default", object: cr({ a: null, n: null }) },
      { name: "null-object-default", object: cr({ o: null }) },
    ],
  },
  "default-float": {
    description: "default of a float field and an integral float default",
    crd: crd({ f: { type: "number", default: 2.0 }, g: { type: "number", default: 2.5 } }),
    operation: "create",
    fieldValidation: "Strict",
    cases: [{ name: "applied", object: cr({}) }, { name: "given", objectJson: crJson('{"f":3.0,"g":1}') }],
  },
  nullable: {
    description: "nullable and null dropping",
    crd: crd({ n: { type: "string", nullable: true }, nn: { type: "string" }, nd: { type: "string", nullable: true, default: "x" }, o: { type: "object", nullable: true, properties: { a: { type: "string" } } }, l: { type: "array", items: { type: "string" } }, ln: { type: "array", items: { type: "string", nullable: true } }, m: { type: "object", additionalProperties: { type: "string" } } }),
    operation: "create",
    fieldValidation: "Strict",
    cases: [
      { name: "nullable-keeps-null", object: cr({ n: null }) },
      { name: "non-nullable-null-dropped", object: cr({ nn: null }) },
      { name: "nullable-with-default-keeps-null", object: cr({ nd: null }) },
      { name: "nullable-object-null", object: cr({ o: null }) },
      { name: "null-in-list-non-nullable", object: cr({ l: ["a", null] }) },
      { name: "null-in-list-nullable", object: cr({ ln: ["a", null] }) },
      { name: "null-map-value", object: cr({ m: { a: null, b: "x" } }) },
      { name: "null-spec", object: cr(null) },
    ],
  },
  "default-with-validation": {
    description: "defaults are validated with the object (defaults applied before validation)",
    crd: crd({ a: { type: "integer", default: 3, maximum: 5 }, o: { type: "object", properties: { req: { type: "string", default: "x" } }, required: ["req"] } }),
    operation: "create",
    fieldValidation: "Strict",
    cases: [{ name: "required-by-default", object: cr({ o: {} }) }, { name: "over", object: cr({ a: 9 }) }],
  },
  "preserve-unknown-root": {
    description: "x-kubernetes-preserve-unknown-fields at the root",
    crd: crd({}, { schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true, properties: { spec: { type: "object", properties: { a: { type: "string", default: "d" } } } } } }),
    operation: "create",
    fieldValidation: "Strict",
    cases: [{ name: "keeps-unknown", object: cr({ b: 1 }, { other: { x: 1 } }) }, { name: "defaults", object: cr({}) }],
  },
};

// ---------------------------------------------------------------------------------------------- objectmeta
const om = (metadata, extra = {}) => ({ apiVersion: "example.com/v1", kind: "Widget", metadata, spec: {}, ...extra });
const objectmeta = {
  cluster: {
    description: "ObjectMeta validation on a cluster-scoped resource",
    crd: crd({}),
    operation: "create",
    fieldValidation: "Strict",
    cases: [
      { name: "no-name", object: om({}) },
      { name: "generate-name", object: om({ generateName: "w-" }) },
      { name: "bad-name-upper", object: om({ name: "Upper" }) },
      { name: "bad-name-underscore", object: om({ name: "a_b" }) },
      { name: "name-dots", object: om({ name: "a.b.c" }) },
      { name: "name-too-long", object: om({ name: "a".repeat(254) }) },
      { name: "name-dot-dot", object: om({ name: ".." }) },
      { name: "name-slash", object: om({ name: "a/b" }) },
      { name: "namespace-dropped", object: om({ name: "w1", namespace: "ns" }) },
      { name: "labels-ok", object: om({ name: "w1", labels: { "app.kubernetes.io/name": "x", a: "" } }) },
      { name: "labels-bad-key", object: om({ name: "w1", labels: { "-bad": "x" } }) },
      { name: "labels-bad-value", object: om({ name: "w1", labels: { a: "has space" } }) },
      { name: "labels-long-value", object: om({ name: "w1", labels: { a: "v".repeat(64) } }) },
      { name: "annotations-bad-key", object: om({ name: "w1", annotations: { "a b": "x" } }) },
      { name: "annotations-too-big", object: om({ name: "w1", annotations: { a: "x".repeat(262145) } }) },
      { name: "finalizer-warnings", object: om({ name: "w1", finalizers: ["example.com/ok", "nodomain", "has.dot", "kubernetes", "Bad Name"] }) },
      { name: "finalizer-warnings-only", object: om({ name: "w1", finalizers: ["example.com/ok", "nodomain", "has.dot", "kubernetes", "orphan"] }) },
      { name: "finalizer-duplicate", object: om({ name: "w1", finalizers: ["example.com/a", "example.com/a"] }) },
      { name: "owner-references-duplicate", object: om({ name: "w1", ownerReferences: [{ apiVersion: "v1", kind: "ConfigMap", name: "c", uid: "u1" }, { apiVersion: "v1", kind: "ConfigMap", name: "c", uid: "u1" }, { apiVersion: "v1", kind: "Secret", name: "s", uid: "u1" }] }) },
      { name: "owner-reference-incomplete", object: om({ name: "w1", ownerReferences: [{ apiVersion: "v1", kind: "ConfigMap", name: "c" }] }) },
      { name: "generation-ignored", object: om({ name: "w1", generation: 9, uid: "abc", resourceVersion: "5", creationTimestamp: "2020-01-01T00:00:00Z" }) },
      { name: "labels-wrong-type", object: om({ name: "w1", labels: { a: 1 } }) },
      { name: "metadata-wrong-type", object: { apiVersion: "example.com/v1", kind: "Widget", metadata: "x", spec: {} } },
      { name: "name-wrong-type", object: om({ name: 5 }) },
      { name: "managed-fields", object: om({ name: "w1", managedFields: [{ manager: "m", operation: "Apply", apiVersion: "example.com/v1" }] }) },
      { name: "deletion-grace", object: om({ name: "w1", deletionGracePeriodSeconds: 30 }) },
    ],
  },
  namespaced: {
    description: "ObjectMeta validation on a namespaced resource",
    crd: crd({}, { scope: "Namespaced" }),
    operation: "create",
    fieldValidation: "Strict",
    cases: [
      { name: "ok", object: om({ name: "w1", namespace: "default" }) },
      { name: "namespace-mismatch", namespace: "other", object: om({ name: "w1", namespace: "default" }) },
      { name: "bad-namespace", namespace: "Bad_NS", object: om({ name: "w1", namespace: "Bad_NS" }) },
    ],
  },
  "name-validation-in-schema": {
    description: "metadata.name constraints in the schema",
    crd: crd({}, { schema: { type: "object", properties: { metadata: { type: "object", properties: { name: { type: "string", maxLength: 5, pattern: "^w" } } }, spec: { type: "object" } } } }),
    operation: "create",
    fieldValidation: "Strict",
    cases: [{ name: "ok", object: om({ name: "w1" }) }, { name: "too-long", object: om({ name: "wwwwwwww" }) }, { name: "pattern", object: om({ name: "abc" }) }],
  },
};

// ---------------------------------------------------------------------------------------------- embedded resources
const embedded = {
  embedded: {
    description: "x-kubernetes-embedded-resource",
    crd: crd({ e: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true }, s: { type: "object", "x-kubernetes-embedded-resource": true, properties: { spec: { type: "object", properties: { a: { type: "string", default: "x" } } } } } }),
    operation: "create",
    fieldValidation: "Strict",
    cases: [
      { name: "ok", object: cr({ e: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c" }, data: { a: "b" } } }) },
      { name: "missing-kind", object: cr({ e: { apiVersion: "v1", metadata: { name: "c" } } }) },
      { name: "missing-apiversion", object: cr({ e: { kind: "ConfigMap" } }) },
      { name: "bad-name", object: cr({ e: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "Bad_Name" } } }) },
      { name: "metadata-unknown", object: cr({ e: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c", bogus: 1 } } }) },
      { name: "metadata-labels-bad", object: cr({ e: { apiVersion: "v1", kind: "ConfigMap", metadata: { labels: { "a b": "c" } } } }) },
      { name: "metadata-wrong-type", object: cr({ e: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: 3 } } }) },
      { name: "typed-defaults-and-pruning", object: cr({ s: { apiVersion: "v1", kind: "Foo", metadata: { name: "x" }, spec: {}, extra: 1 } }) },
      { name: "empty", object: cr({ e: {} }) },
      { name: "kind-wrong-type", object: cr({ e: { apiVersion: "v1", kind: 5 } }) },
      { name: "namespace-and-generate-name", object: cr({ e: { apiVersion: "v1", kind: "ConfigMap", metadata: { generateName: "x-", namespace: "n" } } }) },
    ],
  },
};

// ---------------------------------------------------------------------------------------------- int-or-string
const intOrString = {
  "int-or-string": valueTable("x-kubernetes-int-or-string", { "x-kubernetes-int-or-string": true }, [["int", 5], ["string", "50%"], ["float", J("1.5")], ["bool", true], ["object", {}], ["null", null]]),
  "int-or-string-anyof": valueTable("int-or-string with the anyOf pattern and bounds", { "x-kubernetes-int-or-string": true, anyOf: [{ type: "integer" }, { type: "string" }], pattern: "^[0-9]+%$", maximum: 10 }, [["int-ok", 5], ["int-high", 11], ["string-ok", "5%"], ["string-bad", "five"]]),
};

// ---------------------------------------------------------------------------------------------- list types
const listTypes = {
  "set": valueTable("x-kubernetes-list-type: set", { type: "array", "x-kubernetes-list-type": "set", items: { type: "string" } }, [["ok", ["a", "b"]], ["dup", ["a", "b", "a"]], ["dups", ["a", "a", "b", "b"]]]),
  "set-int": valueTable("set of integers", { type: "array", "x-kubernetes-list-type": "set", items: { type: "integer" } }, [["dup", [1, 2, 1]]]),
  map: valueTable("x-kubernetes-list-type: map, key name", { type: "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"], items: { type: "object", required: ["name"], properties: { name: { type: "string" }, v: { type: "integer" } } } }, [["ok", [{ name: "a" }, { name: "b" }]], ["dup", [{ name: "a", v: 1 }, { name: "a", v: 2 }]], ["missing-key", [{ v: 1 }]]]),
  "map-two-keys": valueTable("map with two keys, one defaulted", { type: "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name", "port"], items: { type: "object", required: ["name"], properties: { name: { type: "string" }, port: { type: "integer", default: 80 } } } }, [["ok", [{ name: "a", port: 1 }, { name: "a", port: 2 }]], ["dup-by-default", [{ name: "a" }, { name: "a", port: 80 }]]]),
  atomic: valueTable("atomic list allows duplicates", { type: "array", "x-kubernetes-list-type": "atomic", items: { type: "string" } }, [["dup", ["a", "a"]]]),
};

// ---------------------------------------------------------------------------------------------- ratcheting (updates)
const rCrd = crd({ a: { type: "integer", maximum: 5 }, b: { type: "string", maxLength: 2 }, l: { type: "array", items: { type: "string", enum: ["x", "y"] } }, s: { type: "array", "x-kubernetes-list-type": "set", items: { type: "string" } }, c: { type: "string", "x-kubernetes-validations": [{ rule: "self.startsWith('ok')", message: "must start with ok" }] }, t: { type: "integer", "x-kubernetes-validations": [{ rule: "self >= oldSelf", message: "must not decrease" }] } });
const upd = (name, oldSpec, newSpec, extra = {}) => ({ name, oldObject: cr(oldSpec, { metadata: { resourceVersion: "7" } }), object: cr(newSpec), ...extra });
const ratcheting = {
  ratcheting: {
    description: "validation ratcheting on update",
    crd: rCrd,
    operation: "update",
    fieldValidation: "Strict",
    cases: [
      upd("unchanged-invalid-ok", { a: 10 }, { a: 10 }),
      upd("changed-invalid", { a: 10 }, { a: 11 }),
      upd("new-invalid-field", { a: 10 }, { a: 10, b: "long" }),
      upd("unchanged-string-ok", { b: "long" }, { b: "long" }),
      upd("list-unchanged", { l: ["z"] }, { l: ["z"] }),
      upd("list-changed", { l: ["z"] }, { l: ["z", "q"] }),
      upd("set-dup-unchanged", { s: ["a", "a"] }, { s: ["a", "a"] }),
      upd("set-dup-changed", { s: ["a", "a"] }, { s: ["a", "a", "b"] }),
      upd("cel-unchanged", { c: "bad" }, { c: "bad" }),
      upd("cel-changed", { c: "bad" }, { c: "worse" }),
      upd("transition-ok", { t: 1 }, { t: 2 }),
      upd("transition-bad", { t: 5 }, { t: 2 }),
      upd("valid-update", { a: 1 }, { a: 2, b: "ok", c: "ok!" }),
      upd("generation-bumps", { a: 1 }, { a: 2 }, { oldObject: cr({ a: 1 }, { metadata: { resourceVersion: "7", generation: 3 } }) }),
      upd("metadata-only-no-bump", { a: 1 }, { a: 1 }, { object: cr({ a: 1 }, { metadata: { labels: { x: "y" } } }), oldObject: cr({ a: 1 }, { metadata: { resourceVersion: "7", generation: 3 } }) }),
      upd("name-change-forbidden", { a: 1 }, { a: 1 }, { object: cr({ a: 1 }, { metadata: { name: "w2" } }) }),
      upd("uid-change-forbidden", { a: 1 }, { a: 1 }, { object: cr({ a: 1 }, { metadata: { uid: "new" } }), oldObject: cr({ a: 1 }, { metadata: { resourceVersion: "7", uid: "old" } }) }),
    ],
  },
};

// ---------------------------------------------------------------------------------------------- status / scale
const scaleCrd = crd({ replicas: { type: "integer" }, selector: { type: "string" } }, { status: { type: "object", properties: { replicas: { type: "integer", maximum: 100 }, selector: { type: "string" }, phase: { type: "string", enum: ["A", "B"] } } }, subresources: { status: {}, scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas", labelSelectorPath: ".status.selector" } } });
const statusScale = {
  "scale-create": {
    description: "scale subresource checks on create",
    crd: scaleCrd,
    operation: "create",
    fieldValidation: "Strict",
    cases: [
      { name: "ok", object: cr({ replicas: 3 }) },
      { name: "negative", object: cr({ replicas: -1 }) },
      { name: "too-big", object: cr({ replicas: 2147483648 }) },
      { name: "status-dropped", object: cr({ replicas: 1 }, { status: { replicas: 5, phase: "Z" } }) },
      { name: "float", objectJson: crJson('{"replicas":1.5}') },
    ],
  },
  "status-update": {
    description: "the /status subresource",
    crd: scaleCrd,
    operation: "status",
    fieldValidation: "Strict",
    cases: [
      { name: "ok", oldObject: cr({ replicas: 1 }, { metadata: { resourceVersion: "3" } }), object: cr({ replicas: 9 }, { status: { replicas: 2, phase: "A" } }) },
      { name: "invalid-status", oldObject: cr({ replicas: 1 }), object: cr({ replicas: 1 }, { status: { replicas: 200, phase: "Z" } }) },
      { name: "status-replicas-negative", oldObject: cr({ replicas: 1 }), object: cr({ replicas: 1 }, { status: { replicas: -3 } }) },
      { name: "selector-wrong-type", oldObject: cr({ replicas: 1 }), object: cr({ replicas: 1 }, { status: { selector: 5 } }) },
      { name: "spec-change-ignored", oldObject: cr({ replicas: 1 }), object: cr({ replicas: -5 }, { status: { replicas: 1 } }) },
      { name: "status-removed", oldObject: cr({ replicas: 1 }, { status: { replicas: 1 } }), object: cr({ replicas: 1 }) },
      { name: "unknown-status-field", oldObject: cr({ replicas: 1 }), object: cr({ replicas: 1 }, { status: { bogus: 1 } }) },
    ],
  },
  "main-update-keeps-status": {
    description: "an update of the main resource keeps the stored status",
    crd: scaleCrd,
    operation: "update",
    fieldValidation: "Strict",
    cases: [
      { name: "status-ignored", oldObject: cr({ replicas: 1 }, { status: { replicas: 1 } }), object: cr({ replicas: 2 }, { status: { replicas: 99, phase: "Z" } }) },
      { name: "spec-invalid", oldObject: cr({ replicas: 1 }), object: cr({ replicas: -2 }) },
    ],
  },
};

// ---------------------------------------------------------------------------------------------- CEL
const celRule = (rule, extra = {}) => ({ rule, ...extra });
const celTable = (description, s, cases) => ({
  description,
  crd: crd({ x: s }),
  operation: "create",
  fieldValidation: "Strict",
  cases: cases.map(([name, v]) => ({ name, object: cr({ x: v }) })),
});
const cel = {
  "string-rules": celTable("CEL on a string", { type: "string", maxLength: 20, "x-kubernetes-validations": [celRule("self.size() > 2", { message: "too short" }), celRule("self.matches('^[a-z]+$')"), celRule("!self.contains('bad')", { messageExpression: "'found bad in ' + self" })] }, [["ok", "abc"], ["short", "ab"], ["upper", "ABC"], ["bad", "xbadx"]]),
  "int-rules": celTable("CEL on an integer", { type: "integer", "x-kubernetes-validations": [celRule("self % 2 == 0", { message: "must be even", reason: "FieldValueForbidden" }), celRule("self < 100", { fieldPath: "" })] }, [["ok", 4], ["odd", 3], ["big", 102]]),
  "object-rules": celTable("CEL on an object", { type: "object", properties: { min: { type: "integer" }, max: { type: "integer" }, name: { type: "string" } }, "x-kubernetes-validations": [celRule("self.min <= self.max", { message: "min must not exceed max", fieldPath: ".min" }), celRule("has(self.name) || self.min == 0", { reason: "FieldValueRequired", message: "name required" })] }, [["ok", { min: 1, max: 2, name: "n" }], ["inverted", { min: 3, max: 1, name: "n" }], ["no-name", { min: 1, max: 1 }]]),
  "list-rules": celTable("CEL on lists", { type: "array", maxItems: 10, items: { type: "string", maxLength: 10 }, "x-kubernetes-validations": [celRule("self.all(x, x != 'no')"), celRule("self.exists(x, x == 'yes')", { message: "needs yes" }), celRule("size(self) == size(self.map(x, x).filter(y, true))")] }, [["ok", ["yes"]], ["no", ["yes", "no"]], ["no-yes", ["a"]]]),
  "map-rules": celTable("CEL on a map", { type: "object", maxProperties: 5, additionalProperties: { type: "string", maxLength: 5 }, "x-kubernetes-validations": [celRule("self.all(k, k.startsWith('k'))", { message: "keys must start with k" }), celRule("'k1' in self")] }, [["ok", { k1: "a" }], ["bad-key", { k1: "a", z: "b" }], ["missing", { k2: "a" }]]),
  "runtime-errors": celTable("CEL runtime errors", { type: "object", properties: { a: { type: "integer" }, s: { type: "string" } }, "x-kubernetes-validations": [celRule("self.a / 0 == 1"), celRule("self.s == 'x'")] }, [["no-field", {}], ["division", { a: 1, s: "x" }]]),
  "quantity-and-ext": celTable("CEL extension libraries", { type: "object", properties: { q: { type: "string", maxLength: 20 }, u: { type: "string", maxLength: 100 }, ip: { type: "string", maxLength: 50 } }, "x-kubernetes-validations": [celRule("!has(self.q) || quantity(self.q).isLessThan(quantity('1Gi'))"), celRule("!has(self.u) || url(self.u).getScheme() == 'https'"), celRule("!has(self.ip) || ip(self.ip).family() == 4"), celRule("'a,b'.split(',').size() == 2")] }, [["ok", { q: "1Mi", u: "https://x", ip: "10.0.0.1" }], ["big", { q: "2Gi" }], ["http", { u: "http://x" }], ["v6", { ip: "::1" }]]),
  "blocked-by-schema-errors": celTable("CEL is skipped after NotSupported/Required/TooLong/TooMany/TypeInvalid errors", { type: "object", required: ["r"], properties: { r: { type: "string" }, e: { type: "string", enum: ["a"] }, m: { type: "integer", maximum: 1 } }, "x-kubernetes-validations": [celRule("false", { message: "never" })] }, [["required-missing", {}], ["enum", { r: "x", e: "b" }], ["maximum-only", { r: "x", m: 5 }]]),
  "message-expression": celTable("messageExpression", { type: "integer", "x-kubernetes-validations": [celRule("self < 10", { messageExpression: "'value ' + string(self) + ' is too big'" }), celRule("self != 5", { messageExpression: "''", message: "fallback message" })] }, [["big", 12], ["five", 5]]),
  "message-expression-string": celTable("messageExpression on a bounded string", { type: "string", maxLength: 10, "x-kubernetes-validations": [celRule("self.size() < 3", { messageExpression: "'got ' + self" }), celRule("self != 'ab'", { messageExpression: "self + ' is reserved'", reason: "FieldValueDuplicate" })] }, [["ok", "a"], ["long", "abcd"], ["reserved", "ab"]]),
  "optional-old-self": {
    description: "transition rules and optionalOldSelf",
    crd: crd({ x: { type: "string", "x-kubernetes-validations": [celRule("self == oldSelf", { message: "immutable" }), celRule("!oldSelf.hasValue() || oldSelf.value() != 'lock'", { optionalOldSelf: true, message: "locked" })] } }),
    operation: "update",
    fieldValidation: "Strict",
    cases: [upd("same", { x: "a" }, { x: "a" }), upd("changed", { x: "a" }, { x: "b" }), upd("added", {}, { x: "b" }), upd("locked", { x: "lock" }, { x: "b" })],
  },
  "cost-runtime": celTable("runtime cost of an unbounded list", { type: "array", items: { type: "string" }, "x-kubernetes-validations": [celRule("self.all(x, self.all(y, self.all(z, x + y + z != '')))")] }, [["small", ["a", "b"]]]),
};
cel["compile-errors"] = {
  description: "CEL compile and cost errors in CRDs",
  operation: "crd-create",
  cases: [
    ["syntax", { type: "string", "x-kubernetes-validations": [celRule("self ==")] }],
    ["undeclared", { type: "string", "x-kubernetes-validations": [celRule("self == other")] }],
    ["type-mismatch", { type: "string", "x-kubernetes-validations": [celRule("self + 1 == 2")] }],
    ["not-bool", { type: "string", "x-kubernetes-validations": [celRule("self")] }],
    ["no-such-field", { type: "object", properties: { a: { type: "string" } }, "x-kubernetes-validations": [celRule("self.b == 'x'")] }],
    ["cost-too-high", { type: "array", items: { type: "string" }, "x-kubernetes-validations": [celRule("self.all(x, self.all(y, self.all(z, x + y + z != '')))")] }],
    ["cost-ok-bounded", { type: "array", maxItems: 10, items: { type: "string", maxLength: 10 }, "x-kubernetes-validations": [celRule("self.all(x, self.all(y, x != y || true))")] }],
    ["bad-message-expression", { type: "string", "x-kubernetes-validations": [celRule("true", { messageExpression: "1 + 'a'" })] }],
    ["message-expression-not-string", { type: "string", "x-kubernetes-validations": [celRule("true", { messageExpression: "1" })] }],
    ["empty-rule", { type: "string", "x-kubernetes-validations": [celRule("  ")] }],
    ["blank-message", { type: "string", "x-kubernetes-validations": [celRule("true", { message: " " })] }],
    ["message-line-break", { type: "string", "x-kubernetes-validations": [celRule("true", { message: "a\nb" })] }],
    ["rule-line-break-no-message", { type: "string", "x-kubernetes-validations": [celRule("true &&\ntrue")] }],
    ["bad-reason", { type: "string", "x-kubernetes-validations": [celRule("true", { reason: "Nope" })] }],
    ["bad-field-path", { type: "object", properties: { a: { type: "string" } }, "x-kubernetes-validations": [celRule("true", { fieldPath: ".b" })] }],
    ["field-path-line-break", { type: "object", properties: { a: { type: "string" } }, "x-kubernetes-validations": [celRule("true", { fieldPath: ".a\n" })] }],
    ["old-self-in-set-items", { type: "array", "x-kubernetes-list-type": "set", items: { type: "string", "x-kubernetes-validations": [celRule("self == oldSelf")] } }],
    ["optional-old-self-unused", { type: "string", "x-kubernetes-validations": [celRule("self == 'a'", { optionalOldSelf: true })] }],
    ["blank-message-expression", { type: "string", "x-kubernetes-validations": [celRule("true", { messageExpression: " " })] }],
    ["ok-with-old-self-map-list", { type: "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"], items: { type: "object", required: ["k"], properties: { k: { type: "string" } }, "x-kubernetes-validations": [celRule("self == oldSelf")] } }],
  ].map(([name, s]) => ({ name, crd: crd({ x: s }) })),
};

// ---------------------------------------------------------------------------------------------- decoding
const decoding = {
  decode: {
    description: "request decoding: field validation modes, JSON details, apiVersion/kind",
    crd: crd({ a: { type: "string" }, n: { type: "integer" } }),
    operation: "create",
    cases: [
      { name: "duplicate-field-strict", fieldValidation: "Strict", objectJson: crJson('{"a":"x","a":"y"}') },
      { name: "duplicate-field-warn", fieldValidation: "Warn", objectJson: crJson('{"a":"x","a":"y"}') },
      { name: "duplicate-field-ignore", fieldValidation: "Ignore", objectJson: crJson('{"a":"x","a":"y"}') },
      { name: "wrong-version", fieldValidation: "Strict", object: { apiVersion: "example.com/v2", kind: "Widget", metadata: { name: "w1" } } },
      { name: "wrong-group", fieldValidation: "Strict", object: { apiVersion: "other.com/v1", kind: "Widget", metadata: { name: "w1" } } },
      { name: "wrong-kind", fieldValidation: "Strict", object: { apiVersion: "example.com/v1", kind: "Gadget", metadata: { name: "w1" } } },
      { name: "no-kind", fieldValidation: "Strict", object: { apiVersion: "example.com/v1", metadata: { name: "w1" } } },
      { name: "no-apiversion", fieldValidation: "Strict", object: { kind: "Widget", metadata: { name: "w1" } } },
      { name: "big-int", fieldValidation: "Strict", objectJson: crJson('{"n":123456789012345678}') },
      { name: "int-overflow", fieldValidation: "Strict", objectJson: crJson('{"n":9223372036854775808}') },
      { name: "float-exp", fieldValidation: "Strict", objectJson: crJson('{"n":1e2}') },
      { name: "unicode-escape", fieldValidation: "Strict", objectJson: crJson('{"a":"\\u00e9\\ud83d\\ude00"}') },
      { name: "not-json", fieldValidation: "Strict", objectJson: "{not json" },
      { name: "array-body", fieldValidation: "Strict", objectJson: "[1,2]" },
      { name: "metadata-unknown-and-spec-unknown-strict", fieldValidation: "Strict", objectJson: crJson('{"a":"x","zz":1}', '{"name":"w1","zzz":2}') },
      { name: "case-insensitive-field", fieldValidation: "Strict", objectJson: crJson('{"A":"x"}') },
      { name: "kind-wrong-type", fieldValidation: "Strict", objectJson: '{"apiVersion":"example.com/v1","kind":5,"metadata":{"name":"w1"}}' },
    ],
  },
};

// ---------------------------------------------------------------------------------------------- CRD checks
const base = (mut) => {
  const c = crd({ a: { type: "string" } });
  mut(c);
  return c;
};
const v0 = (c) => c.spec.versions[0];
const sch = (c) => v0(c).schema.openAPIV3Schema;
const specSchema = (s) => crd({ x: s });
const crdCase = (name, c) => ({ name, crd: c });
const crdChecks = {
  names: {
    description: "CRD names, group, scope, versions",
    operation: "crd-create",
    cases: [
      crdCase("valid", base(() => {})),
      crdCase("name-mismatch", base((c) => { c.metadata.name = "things.example.com"; })),
      crdCase("group-no-dot", base((c) => { c.spec.group = "example"; c.metadata.name = "widgets.example"; })),
      crdCase("group-empty", base((c) => { c.spec.group = ""; c.metadata.name = "widgets."; })),
      crdCase("plural-upper", base((c) => { c.spec.names.plural = "Widgets"; c.metadata.name = "Widgets.example.com"; })),
      crdCase("kind-lower", base((c) => { c.spec.names.kind = "widget"; })),
      crdCase("kind-empty", base((c) => { c.spec.names.kind = ""; })),
      crdCase("list-kind-equals-kind", base((c) => { c.spec.names.listKind = "Widget"; })),
      crdCase("singular-bad", base((c) => { c.spec.names.singular = "Wid_get"; })),
      crdCase("short-names-bad", base((c) => { c.spec.names.shortNames = ["ok", "Bad_", "ok"]; })),
      crdCase("categories-bad", base((c) => { c.spec.names.categories = ["all", "Bad Cat"]; })),
      crdCase("scope-bad", base((c) => { c.spec.scope = "Global"; })),
      crdCase("scope-empty", base((c) => { c.spec.scope = ""; })),
      crdCase("no-versions", base((c) => { c.spec.versions = []; })),
      crdCase("no-storage", base((c) => { v0(c).storage = false; })),
      crdCase("two-storage", base((c) => { c.spec.versions.push({ ...structuredClone(v0(c)), name: "v2" }); })),
      crdCase("duplicate-version", base((c) => { c.spec.versions.push({ ...structuredClone(v0(c)), storage: false }); })),
      crdCase("version-name-bad", base((c) => { v0(c).name = "V1"; })),
      crdCase("not-served-storage", base((c) => { v0(c).served = false; })),
      crdCase("deprecation-warning-too-long", base((c) => { v0(c).deprecated = true; v0(c).deprecationWarning = "x".repeat(300); })),
      crdCase("deprecation-warning-not-deprecated", base((c) => { v0(c).deprecationWarning = "old"; })),
      crdCase("two-versions-different-schemas", base((c) => { c.spec.versions.push({ name: "v2", served: true, storage: false, schema: { openAPIV3Schema: { type: "object", properties: { spec: { type: "object", properties: { b: {} } } } } } }); })),
      crdCase("missing-schema", base((c) => { delete v0(c).schema; })),
      crdCase("preserve-unknown-fields-true", base((c) => { c.spec.preserveUnknownFields = true; })),
      crdCase("protected-group", base((c) => { c.spec.group = "foo.k8s.io"; c.metadata.name = "widgets.foo.k8s.io"; })),
      crdCase("protected-group-approved", base((c) => { c.spec.group = "foo.k8s.io"; c.metadata.name = "widgets.foo.k8s.io"; c.metadata.annotations = { "api-approved.kubernetes.io": "https://github.com/kubernetes/kubernetes/pull/1" }; })),
      crdCase("protected-group-bad-approval", base((c) => { c.spec.group = "foo.k8s.io"; c.metadata.name = "widgets.foo.k8s.io"; c.metadata.annotations = { "api-approved.kubernetes.io": "yes" }; })),
      crdCase("protected-group-unapproved", base((c) => { c.spec.group = "foo.k8s.io"; c.metadata.name = "widgets.foo.k8s.io"; c.metadata.annotations = { "api-approved.kubernetes.io": "unapproved, testing" }; })),
    ],
  },
  conversion: {
    description: "spec.conversion",
    operation: "crd-create",
    cases: [
      crdCase("webhook-no-config", base((c) => { c.spec.conversion = { strategy: "Webhook" }; })),
      crdCase("webhook-url-ok", base((c) => { c.spec.conversion = { strategy: "Webhook", webhook: { conversionReviewVersions: ["v1"], clientConfig: { url: "https://example.com/convert" } } }; })),
      crdCase("webhook-url-http", base((c) => { c.spec.conversion = { strategy: "Webhook", webhook: { conversionReviewVersions: ["v1"], clientConfig: { url: "http://example.com/convert" } } }; })),
      crdCase("webhook-url-query", base((c) => { c.spec.conversion = { strategy: "Webhook", webhook: { conversionReviewVersions: ["v1"], clientConfig: { url: "https://example.com/c?x=1" } } }; })),
      crdCase("webhook-url-and-service", base((c) => { c.spec.conversion = { strategy: "Webhook", webhook: { conversionReviewVersions: ["v1"], clientConfig: { url: "https://example.com", service: { name: "s", namespace: "n" } } } }; })),
      crdCase("webhook-service-bad-path", base((c) => { c.spec.conversion = { strategy: "Webhook", webhook: { conversionReviewVersions: ["v1"], clientConfig: { service: { name: "s", namespace: "n", path: "no-slash", port: 70000 } } } }; })),
      crdCase("webhook-review-versions-unknown", base((c) => { c.spec.conversion = { strategy: "Webhook", webhook: { conversionReviewVersions: ["v9", "v9"], clientConfig: { url: "https://example.com" } } }; })),
      crdCase("strategy-bad", base((c) => { c.spec.conversion = { strategy: "Magic" }; })),
      crdCase("none-with-webhook", base((c) => { c.spec.conversion = { strategy: "None", webhook: { conversionReviewVersions: ["v1"], clientConfig: { url: "https://example.com" } } }; })),
    ],
  },
  subresources: {
    description: "status/scale subresources, printer columns, selectable fields",
    operation: "crd-create",
    cases: [
      crdCase("scale-ok", base((c) => { v0(c).subresources = { scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas" } }; })),
      crdCase("scale-bad-paths", base((c) => { v0(c).subresources = { scale: { specReplicasPath: "spec.replicas", statusReplicasPath: ".spec.x", labelSelectorPath: ".metadata.x" } }; })),
      crdCase("scale-empty-paths", base((c) => { v0(c).subresources = { scale: { specReplicasPath: "", statusReplicasPath: "" } }; })),
      crdCase("status-root-extra", base((c) => { v0(c).subresources = { status: {} }; sch(c).required = ["spec"]; sch(c).description = "d"; })),
      crdCase("status-root-x-validation", base((c) => { v0(c).subresources = { status: {} }; sch(c)["x-kubernetes-validations"] = [{ rule: "true" }]; })),
      crdCase("columns", base((c) => { v0(c).additionalPrinterColumns = [{ name: "A", type: "string", jsonPath: ".spec.a" }, { name: "", type: "bogus", format: "nope", jsonPath: "spec.a" }, { name: "C", type: "integer", jsonPath: "" }]; })),
      crdCase("selectable-fields", base((c) => { v0(c).selectableFields = [{ jsonPath: ".spec.a" }, { jsonPath: ".spec.a" }, { jsonPath: ".metadata.name" }, { jsonPath: ".spec.nope" }, { jsonPath: "" }]; })),
      crdCase("selectable-fields-type", (() => { const c = crd({ o: { type: "object" }, n: { type: "number" } }); v0(c).selectableFields = [{ jsonPath: ".spec.o" }, { jsonPath: ".spec.n" }]; return c; })()),
    ],
  },
  schema: {
    description: "schema checks (§1.4) and structural checks (§2)",
    operation: "crd-create",
    cases: [
      crdCase("type-bad", specSchema({ type: "strin" })),
      crdCase("type-null", specSchema({ type: "null" })),
      crdCase("missing-type", specSchema({ properties: { a: { type: "string" } } })),
      crdCase("missing-type-items", specSchema({ type: "array", items: {} })),
      crdCase("array-without-items", specSchema({ type: "array" })),
      crdCase("root-not-object", crd({}, { schema: { type: "string" } })),
      crdCase("root-no-type", crd({}, { schema: { properties: { spec: { type: "object" } } } })),
      crdCase("id", specSchema({ type: "string", id: "x" })),
      crdCase("ref", specSchema({ type: "string", $ref: "#/x" })),
      crdCase("schema-keyword", specSchema({ type: "string", $schema: "http://json-schema.org/draft-04/schema" })),
      crdCase("additional-items", specSchema({ type: "array", items: { type: "string" }, additionalItems: false })),
      crdCase("pattern-properties", specSchema({ type: "object", patternProperties: { "^a": { type: "string" } } })),
      crdCase("definitions", specSchema({ type: "object", definitions: { a: { type: "string" } } })),
      crdCase("dependencies", specSchema({ type: "object", properties: { a: { type: "string" } }, dependencies: { a: ["b"] } })),
      crdCase("items-array", specSchema({ type: "array", items: [{ type: "string" }] })),
      crdCase("unique-items", specSchema({ type: "array", uniqueItems: true, items: { type: "string" } })),
      crdCase("ap-and-properties", specSchema({ type: "object", properties: { a: { type: "string" } }, additionalProperties: { type: "string" } })),
      crdCase("ap-true-and-properties", specSchema({ type: "object", properties: { a: { type: "string" } }, additionalProperties: true })),
      crdCase("ap-at-root", crd({}, { schema: { type: "object", additionalProperties: { type: "string" } } })),
      crdCase("preserve-false", specSchema({ type: "object", "x-kubernetes-preserve-unknown-fields": false })),
      crdCase("nullable-root", crd({}, { rootExtra: { nullable: true } })),
      crdCase("default-in-metadata", crd({}, { schema: { type: "object", properties: { metadata: { type: "object", default: {} }, spec: { type: "object" } } } })),
      crdCase("default-in-apiversion", crd({}, { schema: { type: "object", properties: { apiVersion: { type: "string", default: "v" }, spec: { type: "object" } } } })),
      crdCase("metadata-extra", crd({}, { schema: { type: "object", properties: { metadata: { type: "object", properties: { labels: { type: "object" } } }, spec: { type: "object" } } } })),
      crdCase("metadata-name-ok", crd({}, { schema: { type: "object", properties: { metadata: { type: "object", properties: { name: { type: "string", maxLength: 10 } } }, spec: { type: "object" } } } })),
      crdCase("kind-not-string", crd({}, { schema: { type: "object", properties: { kind: { type: "integer" }, spec: { type: "object" } } } })),
      crdCase("nested-type", specSchema({ type: "string", anyOf: [{ type: "string" }] })),
      crdCase("nested-default-title-description", specSchema({ type: "string", allOf: [{ default: "a", title: "t", description: "d", nullable: true }] })),
      crdCase("nested-extensions", specSchema({ type: "object", oneOf: [{ "x-kubernetes-preserve-unknown-fields": true, "x-kubernetes-list-type": "set", "x-kubernetes-validations": [{ rule: "true" }] }] })),
      crdCase("nested-ap", specSchema({ type: "object", not: { additionalProperties: { type: "string" } } })),
      crdCase("nested-metadata", crd({}, { schema: { type: "object", properties: { spec: { type: "object" } }, anyOf: [{ properties: { metadata: {} } }] } })),
      crdCase("completeness", specSchema({ type: "object", properties: { a: { type: "string" } }, anyOf: [{ properties: { b: { minLength: 1 } } }, { required: ["a"] }] })),
      crdCase("pattern-invalid", specSchema({ type: "string", pattern: "a(b" })),
      crdCase("pattern-lookahead", specSchema({ type: "string", pattern: "(?=a)" })),
      crdCase("int-or-string-with-preserve", specSchema({ "x-kubernetes-int-or-string": true, "x-kubernetes-preserve-unknown-fields": true })),
      crdCase("int-or-string-with-embedded", specSchema({ "x-kubernetes-int-or-string": true, "x-kubernetes-embedded-resource": true, type: "object" })),
      crdCase("embedded-not-object", specSchema({ type: "string", "x-kubernetes-embedded-resource": true })),
      crdCase("embedded-no-properties", specSchema({ type: "object", "x-kubernetes-embedded-resource": true })),
      crdCase("embedded-with-ap", specSchema({ type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true, additionalProperties: { type: "string" } })),
      crdCase("map-type-bad", specSchema({ type: "object", "x-kubernetes-map-type": "weird" })),
      crdCase("map-type-on-string", specSchema({ type: "string", "x-kubernetes-map-type": "atomic" })),
      crdCase("list-type-bad", specSchema({ type: "array", items: { type: "string" }, "x-kubernetes-list-type": "bag" })),
      crdCase("list-type-on-object", specSchema({ type: "object", "x-kubernetes-list-type": "set" })),
      crdCase("list-map-keys-without-type", specSchema({ type: "array", items: { type: "object", properties: { k: { type: "string" } } }, "x-kubernetes-list-map-keys": ["k"] })),
      crdCase("list-map-no-keys", specSchema({ type: "array", items: { type: "object", properties: { k: { type: "string" } } }, "x-kubernetes-list-type": "map" })),
      crdCase("list-map-key-not-property", specSchema({ type: "array", items: { type: "object", properties: { k: { type: "string" } } }, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["z"] })),
      crdCase("list-map-key-duplicate", specSchema({ type: "array", items: { type: "object", required: ["k"], properties: { k: { type: "string" } } }, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k", "k"] })),
      crdCase("list-map-key-not-scalar", specSchema({ type: "array", items: { type: "object", required: ["k"], properties: { k: { type: "object" } } }, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"] })),
      crdCase("list-map-key-optional", specSchema({ type: "array", items: { type: "object", properties: { k: { type: "string" } } }, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"] })),
      crdCase("list-map-key-nullable", specSchema({ type: "array", items: { type: "object", required: ["k"], properties: { k: { type: "string", nullable: true } } }, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"] })),
      crdCase("list-map-items-not-object", specSchema({ type: "array", items: { type: "string" }, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"] })),
      crdCase("list-set-nullable-items", specSchema({ type: "array", items: { type: "string", nullable: true }, "x-kubernetes-list-type": "set" })),
      crdCase("list-set-object-items", specSchema({ type: "array", items: { type: "object", properties: { a: { type: "string" } } }, "x-kubernetes-list-type": "set" })),
      crdCase("list-set-atomic-object-items", specSchema({ type: "array", items: { type: "object", "x-kubernetes-map-type": "atomic", properties: { a: { type: "string" } } }, "x-kubernetes-list-type": "set" })),
      crdCase("list-set-array-items", specSchema({ type: "array", items: { type: "array", items: { type: "string" } }, "x-kubernetes-list-type": "set" })),
      crdCase("default-wrong-type", specSchema({ type: "integer", default: "x" })),
      crdCase("default-violates-max", specSchema({ type: "integer", maximum: 3, default: 5 })),
      crdCase("default-unpruned", specSchema({ type: "object", properties: { a: { type: "string" } }, default: { a: "x", b: "y" } })),
      crdCase("default-null-nullable", specSchema({ type: "string", nullable: true, default: null })),
      crdCase("default-object-nested-invalid", specSchema({ type: "object", properties: { a: { type: "integer", minimum: 1 } }, default: { a: 0 } })),
      crdCase("default-embedded-metadata", specSchema({ type: "object", "x-kubernetes-embedded-resource": true, properties: { metadata: { type: "object", properties: { name: { type: "string", default: "Bad_Name" } } } } })),
      crdCase("unknown-format-warning", specSchema({ type: "string", format: "made-up" })),
      crdCase("set-of-objects-warning", specSchema({ type: "array", "x-kubernetes-list-type": "set", items: { type: "object", "x-kubernetes-map-type": "atomic", properties: { a: { type: "string" } } } })),
      crdCase("several-errors", specSchema({ type: "object", properties: { a: { type: "strin" }, b: { type: "array" }, c: { type: "string", pattern: "(" }, d: {} } })),
      crdCase("cel-on-nonstructural", specSchema({ "x-kubernetes-validations": [{ rule: "self.x" }] })),
      crdCase("status-subresource-schema-ok", (() => { const c = crd({}, { status: { type: "object" } }); v0(c).subresources = { status: {} }; return c; })()),
    ],
  },
};
const twoVersions = (mut) => base((c) => {
  c.spec.versions.push({ name: "v2", served: true, storage: false, schema: { openAPIV3Schema: { type: "object", properties: { spec: { type: "object", properties: { b: { type: "integer" } } } } } } });
  mut(c);
});
crdChecks.update = {
  description: "CRD updates (immutability and ratcheting of CRD rules)",
  operation: "crd-update",
  cases: [
    { name: "valid-no-change", crd: base(() => {}), oldCrd: base(() => {}) },
    { name: "group-immutable", crd: base((c) => { c.spec.group = "other.com"; c.metadata.name = "widgets.other.com"; }), oldCrd: base(() => {}) },
    { name: "plural-immutable", crd: base((c) => { c.spec.names.plural = "gadgets"; c.metadata.name = "gadgets.example.com"; }), oldCrd: base(() => {}) },
    { name: "kind-change-not-established", crd: base((c) => { c.spec.names.kind = "Gadget"; c.spec.names.listKind = "GadgetList"; }), oldCrd: base(() => {}) },
    { name: "kind-change-established", crd: base((c) => { c.spec.names.kind = "Gadget"; c.spec.names.listKind = "GadgetList"; }), oldCrd: base((c) => { c.status = { conditions: [{ type: "Established", status: "True" }], storedVersions: ["v1"], acceptedNames: c.spec.names }; }) },
    { name: "scope-change-established", crd: base((c) => { c.spec.scope = "Namespaced"; }), oldCrd: base((c) => { c.status = { conditions: [{ type: "Established", status: "True" }], storedVersions: ["v1"], acceptedNames: c.spec.names }; }) },
    { name: "nonstructural-ratcheted", crd: specSchema({ type: "object", properties: { a: {} }, description: "changed" }), oldCrd: specSchema({ type: "object", properties: { a: {} } }) },
    { name: "nonstructural-new", crd: specSchema({ type: "object", properties: { a: {} } }), oldCrd: specSchema({ type: "object" }) },
    { name: "unpruned-default-ratcheted", crd: specSchema({ type: "object", properties: { a: { type: "string" } }, default: { a: "x", b: "y" }, description: "c" }), oldCrd: specSchema({ type: "object", properties: { a: { type: "string" } }, default: { a: "x", b: "y" } }) },
    { name: "invalid-type-ratcheted", crd: specSchema({ type: "strin", description: "c" }), oldCrd: specSchema({ type: "strin" }) },
    { name: "cel-cost-unchanged-schema", crd: base((c) => { c.metadata.labels = { a: "b" }; c.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.l = { type: "array", items: { type: "string" }, "x-kubernetes-validations": [{ rule: "self.all(x, self.all(y, self.all(z, x + y + z != '')))" }] }; }), oldCrd: base((c) => { c.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.l = { type: "array", items: { type: "string" }, "x-kubernetes-validations": [{ rule: "self.all(x, self.all(y, self.all(z, x + y + z != '')))" }] }; }) },
    { name: "new-unknown-format-warning", crd: specSchema({ type: "string", format: "made-up" }), oldCrd: specSchema({ type: "string" }) },
    { name: "old-unknown-format-no-warning", crd: specSchema({ type: "string", format: "made-up", description: "x" }), oldCrd: specSchema({ type: "string", format: "made-up" }) },
    { name: "stored-version-removed", crd: base((c) => { v0(c).name = "v2"; }), oldCrd: base((c) => { c.status = { storedVersions: ["v1"] }; }) },
    { name: "schema-removed-from-served-version", crd: twoVersions((c) => { delete c.spec.versions[1].schema; c.metadata.labels = { x: "y" }; }), oldCrd: twoVersions((c) => { delete c.spec.versions[1].schema; }) },
    { name: "schema-removed-both", crd: twoVersions((c) => { delete c.spec.versions[0].schema; delete c.spec.versions[1].schema; }), oldCrd: twoVersions((c) => { delete c.spec.versions[1].schema; }) },
    { name: "preserve-unknown-fields-set", crd: base((c) => { c.spec.preserveUnknownFields = true; }), oldCrd: base(() => {}) },
  ],
};


// ---------------------------------------------------------------------------------------------- more CRD checks (§1.1, §1.6-1.9)
const webhook = (clientConfig, extra = {}) => base((c) => { c.spec.conversion = { strategy: "Webhook", webhook: { conversionReviewVersions: ["v1"], clientConfig, ...extra } }; });
crdChecks["conversion-more"] = {
  description: "more webhook conversion checks",
  operation: "crd-create",
  cases: [
    crdCase("url-user-info", webhook({ url: "https://user:pw@example.com/c" })),
    crdCase("url-fragment", webhook({ url: "https://example.com/c#frag" })),
    crdCase("url-no-host", webhook({ url: "https:///c" })),
    crdCase("url-not-url", webhook({ url: "::not a url" })),
    crdCase("service-missing-name", webhook({ service: { namespace: "n" } })),
    crdCase("service-missing-namespace", webhook({ service: { name: "s" } })),
    crdCase("service-path-empty-segment", webhook({ service: { name: "s", namespace: "n", path: "/a//b" } })),
    crdCase("service-port-zero", webhook({ service: { name: "s", namespace: "n", port: 0 } })),
    crdCase("service-ok", webhook({ service: { name: "s", namespace: "n", path: "/convert", port: 8443 } })),
    crdCase("ca-bundle-invalid", webhook({ url: "https://example.com", caBundle: "bm90IGEgY2VydA==" })),
    crdCase("review-versions-empty", webhook({ url: "https://example.com" }, { conversionReviewVersions: [] })),
    crdCase("review-versions-duplicate", webhook({ url: "https://example.com" }, { conversionReviewVersions: ["v1", "v1"] })),
    crdCase("review-versions-bad-name", webhook({ url: "https://example.com" }, { conversionReviewVersions: ["V_1", "v1"] })),
    crdCase("webhook-no-client-config", base((c) => { c.spec.conversion = { strategy: "Webhook", webhook: { conversionReviewVersions: ["v1"] } }; })),
    crdCase("strategy-empty", base((c) => { c.spec.conversion = { strategy: "" }; })),
  ],
};
crdChecks["versions-more"] = {
  description: "versions, deprecation warnings, stored versions, defaults with preserveUnknownFields",
  operation: "crd-create",
  cases: [
    crdCase("deprecation-warning-empty", base((c) => { v0(c).deprecated = true; v0(c).deprecationWarning = ""; })),
    crdCase("deprecation-warning-control-char", base((c) => { v0(c).deprecated = true; v0(c).deprecationWarning = "a\u0007b"; })),
    crdCase("deprecation-warning-newline", base((c) => { v0(c).deprecated = true; v0(c).deprecationWarning = "line\nbreak"; })),
    crdCase("deprecation-warning-ok", base((c) => { v0(c).deprecated = true; v0(c).deprecationWarning = "use v2"; })),
    crdCase("two-versions-ok", twoVersions(() => {})),
    crdCase("two-versions-one-without-schema", twoVersions((c) => { delete c.spec.versions[1].schema; })),
    crdCase("two-versions-second-invalid", twoVersions((c) => { c.spec.versions[1].schema.openAPIV3Schema.properties.spec.properties.b = { type: "integer", maximum: "x" }; })),
    crdCase("two-versions-bad-second-name", twoVersions((c) => { c.spec.versions[1].name = "2"; })),
    crdCase("two-versions-identical-subresources", twoVersions((c) => { c.spec.versions[0].subresources = { status: {} }; c.spec.versions[1].subresources = { status: {} }; })),
    crdCase("two-versions-different-columns", twoVersions((c) => { c.spec.versions[0].additionalPrinterColumns = [{ name: "A", type: "string", jsonPath: ".spec.a" }]; c.spec.versions[1].additionalPrinterColumns = [{ name: "B", type: "bogus", jsonPath: ".spec.b" }]; })),
    crdCase("default-with-preserve-unknown-fields", base((c) => { c.spec.preserveUnknownFields = true; sch(c).properties.spec.properties.a.default = "x"; })),
    crdCase("webhook-with-preserve-unknown-fields", base((c) => { c.spec.preserveUnknownFields = true; c.spec.conversion = { strategy: "Webhook", webhook: { conversionReviewVersions: ["v1"], clientConfig: { url: "https://example.com" } } }; })),
    crdCase("selectable-fields-too-many", (() => { const props = {}; for (let i = 0; i < 10; i++) props[`f${i}`] = { type: "string" }; const c = crd(props); v0(c).selectableFields = Object.keys(props).map((k) => ({ jsonPath: `.spec.${k}` })); return c; })()),
    crdCase("selectable-fields-without-schema", base((c) => { delete v0(c).schema; v0(c).selectableFields = [{ jsonPath: ".spec.a" }]; })),
    crdCase("selectable-fields-array-notation", base((c) => { v0(c).selectableFields = [{ jsonPath: ".spec['a']" }]; })),
    crdCase("protected-kubernetes-io", base((c) => { c.spec.group = "x.kubernetes.io"; c.metadata.name = "widgets.x.kubernetes.io"; })),
    crdCase("protected-k8s-io-exact", base((c) => { c.spec.group = "k8s.io"; c.metadata.name = "widgets.k8s.io"; })),
    crdCase("not-protected-lookalike", base((c) => { c.spec.group = "k8s.io.example.com"; c.metadata.name = "widgets.k8s.io.example.com"; })),
    crdCase("group-uppercase", base((c) => { c.spec.group = "Example.com"; c.metadata.name = "widgets.Example.com"; })),
    crdCase("list-kind-lowercase-ok", base((c) => { c.spec.names.listKind = "widgetlist"; })),
    crdCase("kind-with-dash", base((c) => { c.spec.names.kind = "Wid-get"; })),
    crdCase("kind-underscore", base((c) => { c.spec.names.kind = "Wid_get"; })),
    crdCase("list-kind-bad", base((c) => { c.spec.names.listKind = "Widget List"; })),
    crdCase("deprecation-warning-tab", base((c) => { v0(c).deprecated = true; v0(c).deprecationWarning = "tab\there"; })),
    crdCase("metadata-name-too-long", base((c) => { c.spec.names.plural = "w".repeat(64); c.metadata.name = `${"w".repeat(64)}.example.com`; })),
  ],
};
crdChecks["subresources-more"] = {
  description: "more subresource, column and status-root checks",
  operation: "crd-create",
  cases: [
    crdCase("status-root-min-properties", base((c) => { v0(c).subresources = { status: {} }; sch(c).minProperties = 1; })),
    crdCase("status-root-any-of", base((c) => { v0(c).subresources = { status: {} }; sch(c).anyOf = [{ required: ["spec"] }]; })),
    crdCase("status-root-enum", base((c) => { v0(c).subresources = { status: {} }; sch(c).enum = [{}]; })),
    crdCase("status-root-allowed", base((c) => { v0(c).subresources = { status: {} }; sch(c).description = "d"; sch(c).required = ["spec"]; sch(c)["x-kubernetes-preserve-unknown-fields"] = true; })),
    crdCase("scale-label-selector-status", base((c) => { v0(c).subresources = { scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas", labelSelectorPath: ".status.selector" } }; })),
    crdCase("scale-label-selector-bad", base((c) => { v0(c).subresources = { scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas", labelSelectorPath: "status.selector" } }; })),
    crdCase("scale-paths-not-under", base((c) => { v0(c).subresources = { scale: { specReplicasPath: ".status.replicas", statusReplicasPath: ".spec.replicas" } }; })),
    crdCase("column-types", base((c) => { v0(c).additionalPrinterColumns = ["integer", "number", "string", "boolean", "date", "object"].map((t, i) => ({ name: `c${i}`, type: t, jsonPath: ".spec.a" })); })),
    crdCase("column-formats", base((c) => { v0(c).additionalPrinterColumns = ["int32", "int64", "float", "double", "byte", "date", "date-time", "password", "uuid"].map((f, i) => ({ name: `c${i}`, type: "string", format: f, jsonPath: ".spec.a" })); })),
    crdCase("column-missing-type-and-path", base((c) => { v0(c).additionalPrinterColumns = [{ name: "x", type: "", jsonPath: "" }]; })),
  ],
};
crdChecks["schema-more"] = {
  description: "more schema checks: list-map keys with defaults, nested structures, embedded metadata",
  operation: "crd-create",
  cases: [
    crdCase("list-map-key-defaulted", specSchema({ type: "array", items: { type: "object", properties: { k: { type: "string", default: "x" } } }, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"] })),
    crdCase("list-map-items-nullable", specSchema({ type: "array", items: { type: "object", nullable: true, required: ["k"], properties: { k: { type: "string" } } }, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"] })),
    crdCase("list-map-no-items", specSchema({ type: "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"] })),
    crdCase("list-type-set-on-untyped", specSchema({ "x-kubernetes-list-type": "set" })),
    crdCase("map-type-on-untyped", specSchema({ "x-kubernetes-map-type": "granular" })),
    crdCase("embedded-inside-metadata", crd({}, { schema: { type: "object", properties: { metadata: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true }, spec: { type: "object" } } } })),
    crdCase("embedded-kind-not-string", specSchema({ type: "object", "x-kubernetes-embedded-resource": true, properties: { kind: { type: "integer" }, apiVersion: { type: "boolean" } } })),
    crdCase("embedded-metadata-not-object", specSchema({ type: "object", "x-kubernetes-embedded-resource": true, properties: { metadata: { type: "string" } } })),
    crdCase("embedded-metadata-rich-ok", specSchema({ type: "object", "x-kubernetes-embedded-resource": true, properties: { metadata: { type: "object", properties: { labels: { type: "object", additionalProperties: { type: "string" } } } } } })),
    crdCase("root-metadata-name-generate-name-ok", crd({}, { schema: { type: "object", properties: { metadata: { type: "object", properties: { name: { type: "string" }, generateName: { type: "string" } } }, spec: { type: "object" } } } })),
    crdCase("root-metadata-description", crd({}, { schema: { type: "object", properties: { metadata: { type: "object", description: "x" }, spec: { type: "object" } } } })),
    crdCase("root-metadata-not-object", crd({}, { schema: { type: "object", properties: { metadata: { type: "string" }, spec: { type: "object" } } } })),
    crdCase("default-in-ap-of-metadata", crd({}, { schema: { type: "object", properties: { metadata: { type: "object", additionalProperties: { type: "string", default: "x" } }, spec: { type: "object" } } } })),
    crdCase("x-validations-in-not", specSchema({ type: "string", not: { "x-kubernetes-validations": [{ rule: "true" }] } })),
    crdCase("completeness-items", specSchema({ type: "array", items: { type: "string" }, allOf: [{ items: { properties: { a: { type: "string" } } } }] })),
    crdCase("type-object-with-items", specSchema({ type: "object", items: { type: "string" } })),
    crdCase("pattern-backreference", specSchema({ type: "string", pattern: "(a)\\1" })),
    crdCase("max-less-than-min-ok", specSchema({ type: "integer", minimum: 5, maximum: 1 })),
    crdCase("format-int-or-string-ok", specSchema({ "x-kubernetes-int-or-string": true, format: "int-or-string" })),
    crdCase("deep-nesting", specSchema(Array.from({ length: 15 }).reduce((inner) => ({ type: "object", properties: { n: inner } }), { type: "string", maxLength: 1 }))),
    crdCase("many-warnings", specSchema({ type: "object", properties: { a: { type: "string", format: "fmt-a" }, b: { type: "string", format: "fmt-b" }, c: { type: "array", "x-kubernetes-list-type": "set", items: { type: "array", "x-kubernetes-list-type": "atomic", items: { type: "string" } } } } })),
  ],
};

// ---------------------------------------------------------------------------------------------- more custom-resource behaviour
const mvCrd = (() => {
  const c = crd({ a: { type: "string", default: "v1-default" }, n: { type: "integer", maximum: 5 } });
  c.spec.versions.push({ name: "v1beta1", served: true, storage: false, deprecated: true, schema: { openAPIV3Schema: { type: "object", properties: { spec: { type: "object", properties: { a: { type: "string", default: "beta-default" }, old: { type: "string" } } } } } } });
  return c;
})();
pd["multi-version"] = {
  description: "a CRD with two versions: the request version's schema prunes, defaults and validates",
  crd: mvCrd,
  operation: "create",
  fieldValidation: "Warn",
  cases: [
    { name: "v1", object: cr({ n: 9, old: "x" }) },
    { name: "v1beta1", object: { apiVersion: "example.com/v1beta1", kind: "Widget", metadata: { name: "w1" }, spec: { n: 9, old: "x" } } },
    { name: "version-mismatch", version: "v1", object: { apiVersion: "example.com/v1beta1", kind: "Widget", metadata: { name: "w1" }, spec: {} } },
  ],
};
pd["defaults-deep"] = {
  description: "defaults inside arrays, maps, nullable and int-or-string",
  crd: crd({ l: { type: "array", items: { type: "object", properties: { a: { type: "integer", default: 1 }, b: { type: "string", nullable: true, default: "b" } } } }, ln: { type: "array", items: { type: "string", default: "filled" } }, m: { type: "object", additionalProperties: { type: "string", default: "m" } }, ios: { "x-kubernetes-int-or-string": true, default: "25%" }, obj: { type: "object", properties: { inner: { type: "object", default: { x: 1 }, properties: { x: { type: "integer" }, y: { type: "integer", default: 2 } } } } } }),
  operation: "create",
  fieldValidation: "Strict",
  cases: [
    { name: "array-items", object: cr({ l: [{}, { a: 5, b: null }] }) },
    { name: "null-list-items", object: cr({ ln: ["x", null] }) },
    { name: "null-map-values", object: cr({ m: { a: null, b: "v" } }) },
    { name: "int-or-string-default", object: cr({}) },
    { name: "default-of-default", object: cr({ obj: {} }) },
    { name: "explicit-inner", object: cr({ obj: { inner: { x: 3 } } }) },
  ],
};
openapi["nested-combinators"] = valueTable("allOf/anyOf/oneOf/not combined in one schema", { type: "object", properties: { a: { type: "integer" }, b: { type: "string" } }, allOf: [{ anyOf: [{ required: ["a"] }, { required: ["b"] }] }, { not: { required: ["a", "b"] } }], oneOf: [{ properties: { a: { minimum: 10 } } }, { properties: { a: { maximum: 0 } } }] }, [["a-big", { a: 11 }], ["a-middle", { a: 5 }], ["both", { a: 11, b: "x" }], ["neither", {}], ["b-only", { b: "x" }]]);
openapi["enum-and-type"] = valueTable("enum with a type mismatch", { type: "string", enum: ["1", "2"] }, [["int", 1], ["ok", "1"]]);
openapi["pattern-and-length"] = valueTable("pattern plus length bounds", { type: "string", pattern: "^[a-z]*$", minLength: 2, maxLength: 4 }, [["ok", "abc"], ["all-bad", "A"], ["long-bad", "ABCDEFG"]]);
openapi["required-nested"] = valueTable("required inside array items and maps", { type: "object", properties: { l: { type: "array", items: { type: "object", required: ["id"], properties: { id: { type: "string" } } } }, m: { type: "object", additionalProperties: { type: "object", required: ["v"], properties: { v: { type: "integer" } } } } } }, [["ok", { l: [{ id: "a" }], m: { k: { v: 1 } } }], ["missing", { l: [{}, { id: "b" }, {}], m: { k: {}, j: { v: 1 } } }]]);
openapi["number-bounds-float"] = valueTable("float bounds and multipleOf with integers", { type: "number", minimum: 0.5, maximum: 2.5, multipleOf: 0.25 }, [["ok", J("1.25")], ["low", J("0.25")], ["high", 3], ["not-multiple", J("1.3")]]);
openapi["integer-multiple-big"] = valueTable("multipleOf with large integers", { type: "integer", multipleOf: 1000000007 }, [["ok", 2000000014], ["bad", 2000000015], ["huge", J("9223372036854775807")]]);
listTypes["map-nested"] = valueTable("map list inside a map list", { type: "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"], items: { type: "object", required: ["name"], properties: { name: { type: "string" }, ports: { type: "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["port", "protocol"], items: { type: "object", required: ["port"], properties: { port: { type: "integer" }, protocol: { type: "string", default: "TCP" } } } } } } }, [["ok", [{ name: "a", ports: [{ port: 80 }, { port: 80, protocol: "UDP" }] }]], ["dup-inner", [{ name: "a", ports: [{ port: 80 }, { port: 80, protocol: "TCP" }] }]], ["dup-both", [{ name: "a", ports: [{ port: 1 }, { port: 1 }] }, { name: "a" }]]]);
listTypes["set-objects-atomic"] = valueTable("set of atomic objects", { type: "array", "x-kubernetes-list-type": "set", items: { type: "object", "x-kubernetes-map-type": "atomic", properties: { a: { type: "string" } } } }, [["ok", [{ a: "1" }, { a: "2" }]], ["dup", [{ a: "1" }, { a: "1" }]]]);
listTypes["set-float-int"] = { ...valueTable("set of numbers: 1 and 1.0", { type: "array", "x-kubernetes-list-type": "set", items: { type: "number" } }, []), cases: [{ name: "int-and-float", objectJson: crJson('{"x":[1,1.0]}') }, { name: "floats", objectJson: crJson('{"x":[1.5,1.5]}') }] };
ratcheting["ratcheting-nested"] = {
  description: "ratcheting of nested structures and map lists",
  crd: crd({ o: { type: "object", properties: { a: { type: "integer", maximum: 1 }, b: { type: "integer", maximum: 1 } } }, ml: { type: "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"], items: { type: "object", required: ["k"], properties: { k: { type: "string" }, v: { type: "integer", maximum: 1 } } } }, al: { type: "array", items: { type: "object", properties: { v: { type: "integer", maximum: 1 } } } }, m: { type: "object", additionalProperties: { type: "integer", maximum: 1 } } }),
  operation: "update",
  fieldValidation: "Strict",
  cases: [
    upd("sibling-changed", { o: { a: 5, b: 0 } }, { o: { a: 5, b: 1 } }),
    upd("sibling-invalid-changed", { o: { a: 5, b: 0 } }, { o: { a: 5, b: 7 } }),
    upd("map-list-reordered", { ml: [{ k: "x", v: 5 }, { k: "y", v: 0 }] }, { ml: [{ k: "y", v: 0 }, { k: "x", v: 5 }] }),
    upd("map-list-item-changed", { ml: [{ k: "x", v: 5 }] }, { ml: [{ k: "x", v: 6 }] }),
    upd("atomic-list-reordered", { al: [{ v: 5 }, { v: 0 }] }, { al: [{ v: 0 }, { v: 5 }] }),
    upd("atomic-list-same", { al: [{ v: 5 }] }, { al: [{ v: 5 }] }),
    upd("map-key-kept", { m: { a: 5 } }, { m: { a: 5, b: 0 } }),
    upd("map-key-renamed", { m: { a: 5 } }, { m: { b: 5 } }),
  ],
};
statusScale["scale-types"] = {
  description: "scale replicas of the wrong type and label selectors",
  crd: scaleCrd,
  operation: "create",
  fieldValidation: "Ignore",
  cases: [
    { name: "replicas-string", object: cr({ replicas: "3" }) },
    { name: "replicas-missing", object: cr({}) },
    { name: "replicas-null", object: cr({ replicas: null }) },
  ],
};
statusScale["status-with-rules"] = {
  description: "status subresource validation with CEL on status",
  crd: crd({ a: { type: "string" } }, { status: { type: "object", properties: { n: { type: "integer", "x-kubernetes-validations": [{ rule: "self >= 0", message: "non-negative" }] } } }, subresources: { status: {} } }),
  operation: "status",
  fieldValidation: "Strict",
  cases: [
    { name: "ok", oldObject: cr({ a: "x" }), object: cr({ a: "y" }, { status: { n: 1 } }) },
    { name: "rule-fails", oldObject: cr({ a: "x" }), object: cr({ a: "x" }, { status: { n: -1 } }) },
    { name: "ratcheted", oldObject: cr({ a: "x" }, { status: { n: -1 } }), object: cr({ a: "x" }, { status: { n: -1 } }) },
  ],
};
embedded["embedded-nested"] = {
  description: "embedded resources inside lists and maps, with defaults",
  crd: crd({ items: { type: "array", items: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } }, byName: { type: "object", additionalProperties: { type: "object", "x-kubernetes-embedded-resource": true, properties: { spec: { type: "object", properties: { r: { type: "integer", default: 1 } } } } } } }),
  operation: "create",
  fieldValidation: "Warn",
  cases: [
    { name: "list-ok", object: cr({ items: [{ apiVersion: "v1", kind: "Pod", metadata: { name: "p" }, spec: {} }] }) },
    { name: "list-bad", object: cr({ items: [{ kind: "Pod" }, { apiVersion: "v1" }, { apiVersion: "v1", kind: "Pod", metadata: { name: "UPPER" } }] }) },
    { name: "map-defaults-and-pruning", object: cr({ byName: { a: { apiVersion: "x/v1", kind: "X", spec: {}, junk: 1, metadata: { name: "ok", junk: 2 } } } }) },
  ],
};
intOrString["int-or-string-nested"] = valueTable("int-or-string inside lists with bounds", { type: "array", items: { "x-kubernetes-int-or-string": true, maxLength: 3, maximum: 100 } }, [["ok", [1, "50%"]], ["bad", [101, "1000%"]], ["float", { json: "[1.5]" }]]);
intOrString["int-or-string-pattern-only"] = valueTable("int-or-string with pattern (applies to strings only)", { "x-kubernetes-int-or-string": true, pattern: "^[0-9]+$" }, [["int", 5], ["digits", "12"], ["letters", "ab"]]);
objectmeta["namespaced-more"] = {
  description: "namespaced resources: defaults, generateName and finalizers on update",
  crd: crd({ a: { type: "string" } }, { scope: "Namespaced" }),
  operation: "create",
  fieldValidation: "Strict",
  cases: [
    { name: "generate-name-invalid", object: { apiVersion: "example.com/v1", kind: "Widget", metadata: { generateName: "Bad_", namespace: "ns" }, spec: {} } },
    { name: "generate-name-long", object: { apiVersion: "example.com/v1", kind: "Widget", metadata: { generateName: "g".repeat(70), namespace: "ns" }, spec: {} } },
    { name: "update-adds-finalizer", operation: "update", oldObject: { apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "w1", namespace: "ns", finalizers: ["old"] }, spec: {} }, object: { apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "w1", namespace: "ns", finalizers: ["old", "new"] }, spec: {} } },
    { name: "update-namespace-change", operation: "update", namespace: "ns", oldObject: { apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "w1", namespace: "ns" }, spec: {} }, object: { apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "w1", namespace: "other" }, spec: {} } },
  ],
};


// ---------------------------------------------------------------------------------------------- CEL expression library
// One CRD per expression, a fixed object: the result is the rule's verdict (or runtime error) in Kubernetes.
const celSpec = {
  s: { type: "string", maxLength: 32 },
  e: { type: "string", maxLength: 32 },
  i: { type: "integer" },
  f: { type: "number" },
  b: { type: "boolean" },
  l: { type: "array", maxItems: 8, items: { type: "string", maxLength: 16 } },
  n: { type: "array", maxItems: 8, items: { type: "integer" } },
  m: { type: "object", maxProperties: 8, additionalProperties: { type: "string", maxLength: 16 } },
  q: { type: "string", maxLength: 16 },
  ios: { "x-kubernetes-int-or-string": true },
  ts: { type: "string", format: "date-time", maxLength: 40 },
  d: { type: "string", format: "duration", maxLength: 16 },
  o: { type: "object", properties: { a: { type: "string", maxLength: 8 }, b: { type: "integer" } } },
  ml: { type: "array", maxItems: 4, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"], items: { type: "object", required: ["k"], properties: { k: { type: "string", maxLength: 8 }, v: { type: "integer" } } } },
};
const celObject = { s: "Hello, World", e: "", i: 42, f: 2.5, b: true, l: ["a", "b", "c"], n: [3, 1, 2], m: { x: "1", y: "2" }, q: "1500m", ios: "50%", ts: "2024-01-02T03:04:05Z", d: "1h30m", o: { a: "x", b: 7 }, ml: [{ k: "a", v: 1 }, { k: "b", v: 2 }] };
const celExprs = [
  ["size", "self.s.size() == 12"], ["contains", "self.s.contains('World')"], ["starts", "self.s.startsWith('Hell')"], ["ends", "self.s.endsWith('d')"],
  ["matches", "self.s.matches('^H.*d$')"], ["lower", "self.s.lowerAscii() == 'hello, world'"], ["upper", "self.s.upperAscii() == 'HELLO, WORLD'"],
  ["replace", "self.s.replace('l', 'L') == 'HeLLo, WorLd'"], ["split", "self.s.split(', ').size() == 2"], ["substring", "self.s.substring(0, 5) == 'Hello'"],
  ["substring-oob", "self.s.substring(0, 50) == ''"], ["trim", "' a '.trim() == 'a'"], ["index-of", "self.s.indexOf('o') == 4"], ["last-index-of", "self.s.lastIndexOf('o') == 8"],
  ["char-at", "self.s.charAt(1) == 'e'"], ["join", "self.l.join('-') == 'a-b-c'"], ["format", "'%s=%d'.format(['x', 1]) == 'x=1'"], ["quote", "strings.quote('a\"b') == '\"a\\\\\"b\"'"],
  ["reverse", "self.e.reverse() == ''"], ["empty-string-size", "self.e.size() == 0"], ["string-concat", "self.s + '!' == 'Hello, World!'"],
  ["int-math", "self.i * 2 - 4 == 80"], ["int-div", "self.i / 5 == 8"], ["int-mod", "self.i % 5 == 2"], ["int-overflow", "self.i * 9223372036854775807 > 0"],
  ["div-zero", "self.i / (self.i - 42) == 0"], ["float-math", "self.f * 2.0 == 5.0"], ["int-float-compare", "self.i > self.f"], ["double-conv", "double(self.i) == 42.0"],
  ["int-conv", "int(self.f) == 2"], ["string-conv", "string(self.i) == '42'"], ["uint", "uint(self.i) == 42u"], ["bool-logic", "self.b && !false || false"],
  ["ternary", "(self.i > 40 ? 'big' : 'small') == 'big'"], ["list-size", "size(self.l) == 3"], ["list-in", "'b' in self.l"], ["list-index", "self.l[0] == 'a'"],
  ["list-oob", "self.l[5] == 'a'"], ["list-all", "self.n.all(x, x > 0)"], ["list-exists", "self.n.exists(x, x == 2)"], ["list-exists-one", "self.n.exists_one(x, x > 2)"],
  ["list-map", "self.n.map(x, x * 2) == [6, 2, 4]"], ["list-filter", "self.n.filter(x, x > 1).size() == 2"], ["list-sum", "self.n.sum() == 6"], ["list-min-max", "self.n.min() == 1 && self.n.max() == 3"],
  ["list-sort", "self.n.sort() == [1, 2, 3]"], ["list-is-sorted", "self.n.isSorted()"], ["list-index-of", "self.l.indexOf('c') == 2"], ["list-slice", "self.l.slice(1, 3) == ['b', 'c']"],
  ["list-concat", "self.l + ['d'] == ['a', 'b', 'c', 'd']"], ["list-distinct", "self.l.distinct().size() == 3"], ["list-flatten", "[[1], [2, 3]].flatten() == [1, 2, 3]"],
  ["map-has", "has(self.m.x)"], ["map-in", "'y' in self.m"], ["map-index", "self.m['x'] == '1'"], ["map-missing-key", "self.m['z'] == '1'"],
  ["map-all", "self.m.all(k, self.m[k].size() == 1)"], ["map-size", "size(self.m) == 2"], ["object-field", "self.o.a == 'x' && self.o.b == 7"], ["has-missing", "!has(self.o.c)"],
  ["optional", "self.?missing.orValue('d') == 'd'"], ["optional-has", "self.o.?a.hasValue()"], ["quantity", "quantity(self.q).isGreaterThan(quantity('1'))"], ["quantity-compare", "quantity(self.q).compareTo(quantity('2')) < 0"],
  ["quantity-invalid", "quantity('bogus').isInteger()"], ["is-quantity", "!isQuantity('x1')"], ["int-or-string", "self.ios == '50%'"], ["timestamp", "timestamp(self.ts).getFullYear() == 2024"],
  ["timestamp-math", "timestamp(self.ts) + duration('1h') > timestamp(self.ts)"], ["duration", "duration(self.d) == duration('90m')"], ["duration-get", "duration(self.d).getMinutes() == 90"],
  ["bad-timestamp", "timestamp('yesterday') > timestamp(self.ts)"], ["url", "url('https://example.com:8080/p').getPort() == '8080'"], ["is-url", "!isURL('not a url')"],
  ["ip", "ip('10.0.0.1').isLoopback() == false"], ["cidr", "cidr('10.0.0.0/8').containsIP(ip('10.1.2.3'))"], ["is-cidr", "isCIDR('10.0.0.0/8')"], ["semver", "semver('1.2.3').isLessThan(semver('1.10.0'))"],
  ["is-semver", "!isSemver('v1')"], ["regex-find", "self.s.find('[A-Z]') == 'H'"], ["regex-find-all", "self.s.findAll('o').size() == 2"], ["base64", "base64.encode(b'hi') == 'aGk='"],
  ["math-greatest", "math.greatest(self.n) == 3"], ["math-abs", "math.abs(-5) == 5"], ["math-ceil", "math.ceil(self.f) == 3.0"], ["sets-contains", "sets.contains(self.l, ['a'])"],
  ["sets-intersects", "sets.intersects(self.l, ['z'])"], ["map-list-key", "self.ml.exists(e, e.k == 'b' && e.v == 2)"], ["type-check", "type(self.i) == int"], ["dyn", "dyn(self.i) == 42"],
  ["string-lt", "self.l[0] < self.l[1]"], ["bytes", "bytes('abc').size() == 3"], ["null-compare", "self.o.a != null"], ["bad-regex", "self.s.matches('(')"],
  ["format-named", "format.named('dns1123Label').validate('Bad_Label').hasValue()"], ["list-set-ops", "self.l.lastIndexOf('a') == 0"], ["error-message-fail", "1 == 2"],
];
const exprCrd = (rule) => crd(celSpec, { specExtra: { "x-kubernetes-validations": [{ rule }] } });
cel["expressions"] = {
  description: "CEL standard library and Kubernetes extensions at runtime (one rule on spec, fixed object)",
  operation: "create",
  fieldValidation: "Strict",
  cases: celExprs.map(([name, rule]) => ({ name, crd: exprCrd(rule), object: cr(celObject) })),
};
cel["expressions-compile"] = {
  description: "the same expressions and some broken ones as CRD checks (compile, cost)",
  operation: "crd-create",
  cases: [
    ...celExprs.filter((_, i) => i % 4 === 0).map(([name, rule]) => ({ name, crd: exprCrd(rule) })),
    ["unknown-function", "self.s.frobnicate()"], ["wrong-arity", "self.s.contains()"], ["macro-misuse", "self.n.all(1, true)"], ["bad-escape", "'\\q' == ''"],
    ["unbounded-string-cost", "self.l.all(x, self.l.all(y, x.matches(y)))"], ["old-self-on-create-rule", "self.i == oldSelf.i"],
    ["invalid-regex-literal", "self.s.matches('[')"], ["int-literal-overflow", "self.i == 99999999999999999999"], ["reserved-word", "self.namespace == ''"],
  ].map((x) => (Array.isArray(x) ? { name: x[0], crd: exprCrd(x[1]) } : x)),
};

export const areas = {
  openapi,
  formats,
  "pruning-defaulting": pd,
  objectmeta,
  embedded,
  "int-or-string": intOrString,
  "list-types": listTypes,
  ratcheting,
  "status-scale": statusScale,
  cel,
  decoding,
  "crd-checks": crdChecks,
};
