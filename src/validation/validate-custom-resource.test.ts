/**
 * Translated from apiextensions-apiserver pkg/apiserver/validation/validation_test.go
 * (TestValidateCustomResource, OpenAPI part; the CEL-only cases belong to src/rules) and the seed
 * CronTab example. Like upstream, errors are compared as sets.
 */
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import type { JSONSchemaProps } from "../crd/types.js";
import { errorString } from "../errors/field-error.js";
import { FieldPath } from "../errors/field-path.js";
import { type JsonValue, float64 } from "../value/json-value.js";
import { compileSchemaValidator, validateCustomResource } from "./schema-validator.js";

interface Case {
  name: string;
  schema: JSONSchemaProps;
  compat?: { major: number; minor: number };
  valid?: JsonValue[];
  invalid?: { object: JsonValue; errs: string[] }[];
}

const TYPES_NOT_OBJECT = (types: string, nulls: boolean) => [
  { object: { field: "foo" }, errs: [`field: Invalid value: "string": field in body must be of type ${types}: "string"`] },
  { object: { field: 42 }, errs: [`field: Invalid value: "integer": field in body must be of type ${types}: "integer"`] },
  { object: { field: true }, errs: [`field: Invalid value: "boolean": field in body must be of type ${types}: "boolean"`] },
  { object: { field: 1.2 }, errs: [`field: Invalid value: "number": field in body must be of type ${types}: "number"`] },
  { object: { field: [] }, errs: [`field: Invalid value: "array": field in body must be of type ${types}: "array"`] },
  ...(nulls ? [{ object: { field: null }, errs: [`field: Invalid value: "null": field in body must be of type ${types}: "null"`] }] : []),
];

const ANY_OF_INT_STRING = (kind: string, extra: string[] = []) => [
  `<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)`,
  `field: Invalid value: "${kind}": field in body must be of type integer,string: "${kind}"`,
  `field: Invalid value: "${kind}": field in body must be of type integer: "${kind}"`,
  ...extra,
];
const CHECKED_FIELD = `<nil>: Invalid value: "": Checked value must be of type integer (default format) in field`;
const ALL_OF_NONE = `<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated`;

const cases: Case[] = [
  {
    name: "!nullable",
    schema: { type: "object", properties: { field: { type: "object", nullable: false } } },
    valid: [{}, { field: {} }],
    invalid: TYPES_NOT_OBJECT("object", true),
  },
  {
    name: "nullable",
    schema: { type: "object", properties: { field: { type: "object", nullable: true } } },
    valid: [{}, { field: {} }, { field: null }],
    invalid: TYPES_NOT_OBJECT("object", false),
  },
  {
    name: "nullable and no type",
    schema: { type: "object", properties: { field: { nullable: true } } },
    valid: [{}, { field: {} }, { field: null }, { field: "foo" }, { field: 42 }, { field: true }, { field: 1.2 }, { field: [] }],
  },
  {
    name: "x-kubernetes-int-or-string",
    schema: { type: "object", properties: { field: { "x-kubernetes-int-or-string": true } } },
    valid: [{}, { field: 42 }, { field: "foo" }],
    invalid: [
      { object: { field: null }, errs: [`field: Invalid value: "null": field in body must be of type integer,string: "null"`] },
      { object: { field: true }, errs: [`field: Invalid value: "boolean": field in body must be of type integer,string: "boolean"`] },
      { object: { field: 1.2 }, errs: [`field: Invalid value: "number": field in body must be of type integer,string: "number"`] },
      { object: { field: {} }, errs: [`field: Invalid value: "object": field in body must be of type integer,string: "object"`] },
      { object: { field: [] }, errs: [`field: Invalid value: "array": field in body must be of type integer,string: "array"`] },
    ],
  },
  {
    name: "nullable and x-kubernetes-int-or-string",
    schema: { type: "object", properties: { field: { nullable: true, "x-kubernetes-int-or-string": true } } },
    valid: [{}, { field: 42 }, { field: "foo" }, { field: null }],
    invalid: [
      { object: { field: true }, errs: [`field: Invalid value: "boolean": field in body must be of type integer,string: "boolean"`] },
      { object: { field: 1.2 }, errs: [`field: Invalid value: "number": field in body must be of type integer,string: "number"`] },
      { object: { field: {} }, errs: [`field: Invalid value: "object": field in body must be of type integer,string: "object"`] },
      { object: { field: [] }, errs: [`field: Invalid value: "array": field in body must be of type integer,string: "array"`] },
    ],
  },
  {
    name: "nullable, x-kubernetes-int-or-string and user-provided anyOf",
    schema: {
      type: "object",
      properties: {
        field: { nullable: true, "x-kubernetes-int-or-string": true, anyOf: [{ type: "integer" }, { type: "string" }] },
      },
    },
    valid: [{}, { field: null }, { field: 42 }, { field: "foo" }],
    invalid: [
      { object: { field: true }, errs: ANY_OF_INT_STRING("boolean") },
      { object: { field: 1.2 }, errs: ANY_OF_INT_STRING("number", [CHECKED_FIELD]) },
      { object: { field: {} }, errs: ANY_OF_INT_STRING("object") },
      { object: { field: [] }, errs: ANY_OF_INT_STRING("array") },
    ],
  },
  {
    name: "nullable, x-kubernetes-int-or-string and user-provider allOf",
    schema: {
      type: "object",
      properties: {
        field: {
          nullable: true,
          "x-kubernetes-int-or-string": true,
          allOf: [{ anyOf: [{ type: "integer" }, { type: "string" }] }],
        },
      },
    },
    valid: [{}, { field: null }, { field: 42 }, { field: "foo" }],
    invalid: [
      { object: { field: true }, errs: [ALL_OF_NONE, ...ANY_OF_INT_STRING("boolean")] },
      { object: { field: 1.2 }, errs: [ALL_OF_NONE, ...ANY_OF_INT_STRING("number", [CHECKED_FIELD])] },
      { object: { field: {} }, errs: [ALL_OF_NONE, ...ANY_OF_INT_STRING("object")] },
      { object: { field: [] }, errs: [ALL_OF_NONE, ...ANY_OF_INT_STRING("array")] },
    ],
  },
  {
    name: "invalid regex",
    schema: { type: "object", properties: { field: { type: "string", pattern: "+" } } },
    invalid: [
      {
        object: { field: "foo" },
        errs: [
          "field: Invalid value: \"foo\": field in body should match '+, but pattern is invalid: error parsing regexp: missing argument to repetition operator: `+`'",
        ],
      },
    ],
  },
  {
    name: "required field",
    schema: {
      type: "object",
      required: ["field"],
      properties: { field: { type: "object", required: ["nested"], properties: { nested: {} } } },
    },
    invalid: [
      { object: { test: "a" }, errs: ["field: Required value"] },
      { object: { field: {} }, errs: ["field.nested: Required value"] },
    ],
  },
  {
    name: "enum",
    schema: {
      type: "object",
      properties: {
        field: {
          type: "object",
          required: ["nestedint", "nestedstring"],
          properties: {
            nestedint: { type: "integer", enum: [1, 2] },
            nestedstring: { type: "string", enum: ["a", "b"] },
          },
        },
      },
    },
    invalid: [
      { object: { field: {} }, errs: ["field.nestedint: Required value", "field.nestedstring: Required value"] },
      {
        object: { field: { nestedint: "x", nestedstring: true } },
        errs: [
          `field.nestedint: Invalid value: "string": field.nestedint in body must be of type integer: "string"`,
          `field.nestedint: Unsupported value: "x": supported values: "1", "2"`,
          `field.nestedstring: Invalid value: "boolean": field.nestedstring in body must be of type string: "boolean"`,
          `field.nestedstring: Unsupported value: true: supported values: "a", "b"`,
        ],
      },
    ],
  },
  {
    name: "maxProperties",
    schema: { type: "object", properties: { fieldX: { type: "object", maxProperties: 2 } } },
    invalid: [{ object: { fieldX: { a: true, b: true, c: true } }, errs: ["fieldX: Too many: 3: must have at most 2 items"] }],
  },
  {
    name: "maxItems",
    schema: { type: "object", properties: { fieldX: { type: "array", maxItems: 2 } } },
    invalid: [{ object: { fieldX: ["a", "b", "c"] }, errs: ["fieldX: Too many: 3: must have at most 2 items"] }],
  },
  {
    name: "maxLength",
    schema: { type: "object", properties: { fieldX: { type: "string", maxLength: 2 } } },
    invalid: [{ object: { fieldX: "abc" }, errs: ["fieldX: Too long: may not be more than 2 bytes"] }],
  },
  {
    name: "k8sLongName",
    compat: { major: 1, minor: 34 },
    schema: { type: "object", properties: { fieldX: { type: "string", format: "k8s-long-name" } } },
    invalid: [{ object: { fieldX: "a.-" }, errs: [`fieldX: Invalid value: "a.-": fieldX in body must be of type k8s-long-name: "a.-"`] }],
  },
  {
    name: "k8sShortName",
    compat: { major: 1, minor: 34 },
    schema: { type: "object", properties: { fieldX: { type: "string", format: "k8s-short-name" } } },
    invalid: [{ object: { fieldX: "a-" }, errs: [`fieldX: Invalid value: "a-": fieldX in body must be of type k8s-short-name: "a-"`] }],
  },
  {
    name: "k8sShortName before 1.34 is not validated",
    compat: { major: 1, minor: 33 },
    schema: { type: "object", properties: { fieldX: { type: "string", format: "k8s-short-name" } } },
    valid: [{ fieldX: "a-" }],
  },
  {
    name: "numeric formats valid",
    schema: {
      type: "object",
      properties: {
        intThirtyTwo: { type: "integer", format: "int32" },
        intSixtyFour: { type: "integer", format: "int64" },
        floatThreeTwo: { type: "number", format: "float" },
        floatSixFour: { type: "number", format: "double" },
      },
    },
    valid: [
      {
        intThirtyTwo: -2147483648,
        intSixtyFour: -9223372036854775808n,
        floatThreeTwo: float64(-3.4028234663852886e38),
        floatSixFour: float64(-Number.MAX_VALUE),
      },
      { intThirtyTwo: 0, intSixtyFour: 0, floatThreeTwo: float64(0), floatSixFour: float64(0) },
      {
        intThirtyTwo: 2147483647,
        intSixtyFour: 9223372036854775807n,
        floatThreeTwo: float64(3.4028234663852886e38),
        floatSixFour: float64(Number.MAX_VALUE),
      },
    ],
  },
  {
    name: "numeric formats invalid",
    schema: {
      type: "object",
      properties: {
        intThirtyTwo: { type: "integer", format: "int32" },
        intSixtyFour: { type: "integer", format: "int64" },
        floatThreeTwo: { type: "number", format: "float" },
        floatSixFour: { type: "number", format: "double" },
      },
    },
    invalid: [
      {
        object: { intThirtyTwo: 2147483648 },
        errs: [`<nil>: Invalid value: "": Checked value must be of type integer with format int32 in intThirtyTwo`],
      },
      {
        object: { intThirtyTwo: -2147483649 },
        errs: [`<nil>: Invalid value: "": Checked value must be of type integer with format int32 in intThirtyTwo`],
      },
      {
        object: { intSixtyFour: float64(2 ** 63 * 1.1) },
        errs: [
          `intSixtyFour: Invalid value: "float64": intSixtyFour in body must be of type int64: "float64"`,
          `<nil>: Invalid value: "": Checked value must be of type integer with format int64 in intSixtyFour`,
        ],
      },
      {
        object: { intSixtyFour: float64(-(2 ** 63) * 1.1) },
        errs: [
          `intSixtyFour: Invalid value: "float64": intSixtyFour in body must be of type int64: "float64"`,
          `<nil>: Invalid value: "": Checked value must be of type integer with format int64 in intSixtyFour`,
        ],
      },
      {
        object: { floatThreeTwo: float64(3.4028234663852886e38 * 1.1) },
        errs: [`<nil>: Invalid value: "": Checked value must be of type number with format float in floatThreeTwo`],
      },
      {
        object: { floatThreeTwo: float64(-3.4028234663852886e38 * 1.1) },
        errs: [`<nil>: Invalid value: "": Checked value must be of type number with format float in floatThreeTwo`],
      },
    ],
  },
  {
    name: "seed CronTab",
    schema: {
      type: "object",
      properties: {
        spec: {
          type: "object",
          properties: {
            cronSpec: { type: "string", pattern: String.raw`^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$` },
            image: { type: "string" },
            replicas: { type: "integer", minimum: 1, maximum: 10 },
          },
        },
      },
    },
    valid: [{ spec: { cronSpec: "*/5 * * * *", image: "my-awesome-cron-image", replicas: 1 } }],
    invalid: [
      {
        object: { spec: { cronSpec: "* * * *", image: "my-awesome-cron-image", replicas: 15 } },
        errs: [
          String.raw`spec.cronSpec: Invalid value: "* * * *": spec.cronSpec in body should match '^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$'`,
          "spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10",
        ],
      },
    ],
  },
];

describe("TestValidateCustomResource (OpenAPI part)", () => {
  for (const c of cases) {
    it(c.name, () => {
      const v = compileSchemaValidator(c.schema, c.compat ? { compatibilityVersion: c.compat } : {});
      for (const obj of c.valid ?? []) {
        assert.deepEqual(validateCustomResource(null, obj, v).map(errorString), [], JSON.stringify(obj, (_, x) => (typeof x === "bigint" ? `${x}n` : x)));
      }
      for (const f of c.invalid ?? []) {
        const got = validateCustomResource(null, f.object, v).map(errorString);
        assert.deepEqual([...new Set(got)].sort(), [...new Set(f.errs)].sort());
      }
    });
  }
});

describe("message paths", () => {
  it("status sub-schema: names relative to status, field path status.*", () => {
    const v = compileSchemaValidator({ type: "object", properties: { replicas: { type: "integer", minimum: 0 } }, required: ["phase"] });
    const got = validateCustomResource(FieldPath.of("status"), { replicas: -1 }, v).map(errorString);
    assert.deepEqual(got, [
      "status.replicas: Invalid value: -1: replicas in body should be greater than or equal to 0",
      "status.phase: Required value",
    ]);
  });
  it("root-level value: message starts with a space", () => {
    const v = compileSchemaValidator({ type: "integer" });
    assert.deepEqual(validateCustomResource(FieldPath.of("spec", "default"), "x", v).map(errorString), [
      `spec.default: Invalid value: "string":  in body must be of type integer: "string"`,
    ]);
    assert.deepEqual(validateCustomResource(null, "x", v).map(errorString), [
      `<nil>: Invalid value: "string":  in body must be of type integer: "string"`,
    ]);
  });
  it("array items and additionalProperties keys", () => {
    const v = compileSchemaValidator({
      type: "object",
      properties: {
        spec: {
          type: "object",
          properties: {
            items: { type: "array", items: { type: "object", properties: { name: { type: "string", maxLength: 3 } } } },
            m: { type: "object", additionalProperties: { type: "integer", maximum: 1000000 } },
          },
        },
      },
    });
    const got = validateCustomResource(null, { spec: { items: [{}, {}, { name: "abcd" }], m: { key: 2000000, f: float64(1.5e6) } } }, v).map(errorString);
    assert.deepEqual(got, [
      "spec.items[2].name: Too long: may not be more than 3 bytes",
      "spec.m.key: Invalid value: 2000000: spec.m.key in body should be less than or equal to 1000000",
      // float64 data: compared as float64 and printed with Go %v
      "spec.m.f: Invalid value: 1.5e+06: spec.m.f in body should be less than or equal to 1e+06",
    ]);
  });
  it("additionalProperties at the root and root-level required", () => {
    const v = compileSchemaValidator({ type: "object", required: ["spec"], additionalProperties: { type: "string" } });
    assert.deepEqual(validateCustomResource(null, { a: 1 }, v).map(errorString), [
      `a: Invalid value: "integer": .a in body must be of type string: "integer"`,
      "spec: Required value",
    ]);
  });
});
