/**
 * Every OpenAPI keyword the API server evaluates, with the exact field.Error text (kube-openapi
 * errors/schema.go formats, converted by kubeOpenAPIResultToFieldErrors) and kube-openapi's evaluation
 * order (type → allOf/oneOf/anyOf/not → string → format → number → slice → enum → object).
 * Each case validates `{ x: <value> }` against `{ type: object, properties: { x: <schema> } }`.
 */
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import type { JSONSchemaProps } from "../crd/types.js";
import { errorString } from "../errors/field-error.js";
import { type JsonValue, float64 } from "../value/json-value.js";
import { compileSchemaValidator, validateCustomResource, validateCustomResourceUpdate } from "./schema-validator.js";

const cases: [string, JSONSchemaProps, JsonValue, string[]][] = [
  // type
  ["type string", { type: "string" }, 1, [`x: Invalid value: "integer": x in body must be of type string: "integer"`]],
  ["type integer accepts integral float64", { type: "integer" }, float64(3), []],
  ["type integer rejects 1.5", { type: "integer" }, 1.5, [`x: Invalid value: "number": x in body must be of type integer: "number"`, `<nil>: Invalid value: "": Checked value must be of type integer (default format) in x`]],
  ["type integer rejects float64 beyond 2^53", { type: "integer" }, float64(2 ** 53), [`x: Invalid value: "number": x in body must be of type integer: "number"`]],
  ["type number accepts int64", { type: "number" }, 3, []],
  ["type boolean", { type: "boolean" }, "true", [`x: Invalid value: "string": x in body must be of type boolean: "string"`]],
  ["type array", { type: "array" }, {}, [`x: Invalid value: "object": x in body must be of type array: "object"`]],
  ["null non-nullable", { type: "string" }, null, [`x: Invalid value: "null": x in body must be of type string: "null"`]],
  ["null nullable", { type: "string", nullable: true }, null, []],
  ["null untyped", {}, null, []],
  // format type checks for non-strings
  ["format on untyped node checks non-string data", { format: "email" }, 5, [`x: Invalid value: "int64": x in body must be of type email: "int64"`]],
  ["format on untyped node, object data", { format: "email" }, {}, [`x: Invalid value: "": x in body must be of type email: ""`]],
  ["int64 format accepts int", { type: "integer", format: "int64" }, 5, []],
  // string
  ["maxLength", { type: "string", maxLength: 2 }, "abc", ["x: Too long: may not be more than 2 bytes"]],
  ["maxLength 1", { type: "string", maxLength: 1 }, "ab", ["x: Too long: may not be more than 1 byte"]],
  ["maxLength counts runes", { type: "string", maxLength: 2 }, "é😀", []],
  ["minLength", { type: "string", minLength: 3 }, "ab", [`x: Invalid value: "ab": x in body should be at least 3 chars long`]],
  ["minLength counts runes", { type: "string", minLength: 3 }, "😀😀", [`x: Invalid value: "😀😀": x in body should be at least 3 chars long`]],
  ["string validator stops at first failure", { type: "string", maxLength: 1, pattern: "^z" }, "ab", ["x: Too long: may not be more than 1 byte"]],
  ["pattern unanchored", { type: "string", pattern: "b+" }, "abc", []],
  ["pattern", { type: "string", pattern: "^[a-z]+$" }, "A1", [`x: Invalid value: "A1": x in body should match '^[a-z]+$'`]],
  ["pattern RE2 \\d is ASCII", { type: "string", pattern: String.raw`^\d$` }, "٣", [String.raw`x: Invalid value: "٣": x in body should match '^\d$'`]],
  [
    "pattern lookahead",
    { type: "string", pattern: "(?=a)" },
    "a",
    ["x: Invalid value: \"a\": x in body should match '(?=a), but pattern is invalid: error parsing regexp: invalid or unsupported Perl syntax: `(?=`'"],
  ],
  // format (strings)
  ["format email", { type: "string", format: "email" }, "nope", [`x: Invalid value: "nope": x in body must be of type email: "nope"`]],
  ["format keeps spelling", { type: "string", format: "date-time" }, "x", [`x: Invalid value: "x": x in body must be of type date-time: "x"`]],
  ["unsupported format ignored", { type: "string", format: "unknown" }, "x", []],
  ["int32 format on a string node is stripped", { type: "string", format: "int32" }, "x", []],
  ["string and format errors both reported", { type: "string", maxLength: 1, format: "uuid" }, "ab", ["x: Too long: may not be more than 1 byte", `x: Invalid value: "ab": x in body must be of type uuid: "ab"`]],
  // number
  ["maximum int", { type: "integer", maximum: 10 }, 15, ["x: Invalid value: 15: x in body should be less than or equal to 10"]],
  ["maximum int, bound printed as int64", { type: "integer", maximum: 1000000 }, 1000001, ["x: Invalid value: 1000001: x in body should be less than or equal to 1000000"]],
  ["maximum float data, bound printed as float64", { type: "number", maximum: 1000000 }, 1000000.5, ["x: Invalid value: 1.0000005e+06: x in body should be less than or equal to 1e+06"]],
  ["exclusiveMaximum", { type: "integer", maximum: 10, exclusiveMaximum: true }, 10, ["x: Invalid value: 10: x in body should be less than 10"]],
  ["minimum", { type: "number", minimum: 0.5 }, 0.25, ["x: Invalid value: 0.25: x in body should be greater than or equal to 0.5"]],
  ["exclusiveMinimum", { type: "number", minimum: 0, exclusiveMinimum: true }, float64(0), ["x: Invalid value: 0: x in body should be greater than 0"]],
  ["bound truncated to int64 for int data: 1 passes minimum 1.5", { minimum: 1.5 }, 1, []],
  ["bound truncated to int64 for int data: message prints 1", { minimum: 1.5 }, 0, ["x: Invalid value: 0: x in body should be greater than or equal to 1"]],
  ["float data keeps the float bound", { minimum: 1.5 }, float64(1), ["x: Invalid value: 1: x in body should be greater than or equal to 1.5"]],
  [
    "fractional bound on integer type: range error + float comparison",
    { type: "integer", maximum: 10.5 },
    11,
    [`<nil>: Invalid value: "": Maximum boundary value must be of type integer (default format) in x`, "x: Invalid value: 11: x in body should be less than or equal to 10.5"],
  ],
  ["minimum is reported before maximum", { type: "integer", minimum: 5, maximum: 1 }, 3, ["x: Invalid value: 3: x in body should be greater than or equal to 5", "x: Invalid value: 3: x in body should be less than or equal to 1"]],
  ["multipleOf int", { type: "integer", multipleOf: 3 }, 7, ["x: Invalid value: 7: x in body should be a multiple of 3"]],
  ["multipleOf float", { type: "number", multipleOf: 0.5 }, 0.75, ["x: Invalid value: 0.75: x in body should be a multiple of 0.5"]],
  ["multipleOf float ok", { type: "number", multipleOf: 0.1 }, 0.3, []],
  ["multipleOf 0.5 for int data truncates to 0", { multipleOf: 0.5 }, 3, [`x: Invalid value: 0: factor MultipleOf declared for x must be positive: 0`]],
  ["multipleOf negative", { type: "number", multipleOf: -2 }, 1.5, ["x: Invalid value: -2: factor MultipleOf declared for x must be positive: -2"]],
  ["int32 range", { type: "integer", format: "int32" }, 2147483648, [`<nil>: Invalid value: "": Checked value must be of type integer with format int32 in x`]],
  ["int64 default-format range for huge float", { type: "integer" }, float64(1e19), [`x: Invalid value: "number": x in body must be of type integer: "number"`, `<nil>: Invalid value: "": Checked value must be of type integer (default format) in x`]],
  ["bigint int64 compare", { type: "integer", maximum: 2 ** 53 }, 9223372036854775807n, ["x: Invalid value: 9223372036854775807: x in body should be less than or equal to 9007199254740992"]],
  // slice
  ["maxItems", { type: "array", maxItems: 1 }, [1, 2], ["x: Too many: 2: must have at most 1 item"]],
  ["minItems", { type: "array", minItems: 3 }, [1], ["x: Invalid value: 1: x in body should have at least 3 items"]],
  ["uniqueItems", { type: "array", uniqueItems: true }, [{ a: 1 }, { a: 1 }], [`x: Invalid value: "": x in body shouldn't contain duplicates`]],
  ["uniqueItems int64 vs float64 differ", { type: "array", uniqueItems: true }, [1, float64(1)], []],
  ["items errors before maxItems", { type: "array", maxItems: 1, items: { type: "string" } }, [1, "a"], [`x[0]: Invalid value: "integer": x[0] in body must be of type string: "integer"`, "x: Too many: 2: must have at most 1 item"]],
  // enum
  ["enum strings", { type: "string", enum: ["foo", "bar", "baz"] }, "qux", [`x: Unsupported value: "qux": supported values: "foo", "bar", "baz"`]],
  ["enum int64 1 matches 1.0", { enum: [float64(1)] }, 1, []],
  ["enum float 1.5 matches int 1", { enum: [1] }, 1.5, []],
  ["enum int 65 matches string A", { enum: ["A"] }, 65, []],
  ["enum objects and arrays", { enum: [{ a: 1 }, [1, "b"], true, null, float64(2)] }, "x", [`x: Unsupported value: "x": supported values: "{\\"a\\":1}", "[1,\\"b\\"]", "true", "null", "2"`]],
  ["enum null never matches", { nullable: true, enum: [null, "a"] }, null, [`x: Unsupported value: null: supported values: "null", "a"`]],
  ["enum object value printed as JSON", { enum: ["a"] }, { k: [1] }, [`x: Unsupported value: {"k":[1]}: supported values: "a"`]],
  // object
  ["maxProperties", { type: "object", maxProperties: 1 }, { a: 1, b: 2 }, ["x: Too many: 2: must have at most 1 item"]],
  ["minProperties", { type: "object", minProperties: 2 }, { a: 1 }, ["x: Invalid value: 1: x in body should have at least 2 properties"]],
  ["required present null counts as present", { type: "object", required: ["a"] }, { a: null }, []],
  ["required", { type: "object", required: ["a", "b"] }, {}, ["x.a: Required value", "x.b: Required value"]],
  ["additionalProperties false", { type: "object", properties: { a: {} }, additionalProperties: false }, { a: 1, b: 2 }, [`x: Invalid value: "b": x.b in body is a forbidden property`]],
  // patternProperties (key patterns compiled on first use; Go's regexp.MatchString error ⇒ no match)
  ["patternProperties match", { type: "object", patternProperties: { "(": { type: "integer" }, "^a": { type: "integer" } }, additionalProperties: false }, { ab: 1 }, []],
  ["patternProperties mismatch", { type: "object", patternProperties: { "(": { type: "integer" }, "^a": { type: "integer" } }, additionalProperties: false }, { ab: "s" }, [`x.ab: Invalid value: "string": x.ab in body must be of type integer: "string"`]],
  ["patternProperties invalid key pattern matches nothing", { type: "object", patternProperties: { "(": { type: "integer" }, "^a": { type: "integer" } }, additionalProperties: false }, { "(": "s" }, [`x: Invalid value: "(": x.( in body is a forbidden property`]],
  ["additionalProperties schema", { type: "object", additionalProperties: { type: "string" } }, { k: 1 }, [`x.k: Invalid value: "integer": x.k in body must be of type string: "integer"`]],
  // composition
  ["anyOf ok", { anyOf: [{ type: "string" }, { type: "integer" }] }, 1, []],
  ["anyOf best failure (highest match count)", { anyOf: [{ type: "string" }, { type: "integer", minimum: 5 }] }, 1, [`<nil>: Invalid value: "": "x" must validate at least one schema (anyOf)`, "x: Invalid value: 1: x in body should be greater than or equal to 5"]],
  [
    "anyOf keeps the failure of the branch with the highest match count (more nodes visited)",
    { anyOf: [{ type: "object", required: ["c"] }, { properties: { a: { type: "string" } } }] },
    { a: 1 },
    [`<nil>: Invalid value: "": "x" must validate at least one schema (anyOf)`, `x.a: Invalid value: "integer": x.a in body must be of type string: "integer"`],
  ],
  ["oneOf none", { oneOf: [{ type: "string" }, { type: "boolean" }] }, 1, [`<nil>: Invalid value: "": "x" must validate one and only one schema (oneOf). Found none valid`, `x: Invalid value: "integer": x in body must be of type string: "integer"`]],
  ["oneOf two", { oneOf: [{ type: "integer" }, { minimum: 0 }] }, 1, [`<nil>: Invalid value: "": "x" must validate one and only one schema (oneOf). Found 2 valid alternatives`]],
  ["allOf partial", { allOf: [{ type: "integer" }, { maximum: 0 }] }, 1, ["x: Invalid value: 1: x in body should be less than or equal to 0", `<nil>: Invalid value: "": "x" must validate all the schemas (allOf)`]],
  ["not", { not: { type: "integer" } }, 1, [`<nil>: Invalid value: "": "x" must not validate the schema (not)`]],
  [
    "evaluation order: type, composition, string, format, enum",
    { type: "integer", anyOf: [{ type: "boolean" }], format: "uuid", maxLength: 1, enum: ["ab"] },
    "abc",
    [
      `x: Invalid value: "string": x in body must be of type integer: "string"`,
      `<nil>: Invalid value: "": "x" must validate at least one schema (anyOf)`,
      `x: Invalid value: "string": x in body must be of type boolean: "string"`,
      "x: Too long: may not be more than 1 byte",
      `x: Unsupported value: "abc": supported values: "ab"`,
    ],
  ],
  ["duplicate messages de-duplicated", { allOf: [{ type: "string" }, { type: "string" }] }, 1, [`x: Invalid value: "integer": x in body must be of type string: "integer"`, `<nil>: Invalid value: "": "x" must validate all the schemas (allOf). None validated`]],
];

describe("keywords: exact messages and order", () => {
  for (const [name, schema, value, want] of cases) {
    it(name, () => {
      const v = compileSchemaValidator({ type: "object", properties: { x: schema } });
      assert.deepEqual(validateCustomResource(null, { x: value }, v).map(errorString), want);
    });
  }
});

describe("robustness", () => {
  it("malformed schema fields are ignored, never a crash", () => {
    const bad = {
      type: 5,
      required: "x",
      properties: [],
      items: "nope",
      allOf: {},
      enum: "a",
      maxLength: "3",
      additionalProperties: 3,
      "x-kubernetes-list-map-keys": "k",
    } as unknown as JSONSchemaProps;
    const v = compileSchemaValidator({ type: "object", properties: { x: bad } });
    assert.deepEqual(validateCustomResource(null, { x: [1, { a: 2 }] }, v), []);
  });
  it("$ref is rejected at compile time with a clear error", () => {
    assert.throws(() => compileSchemaValidator({ $ref: "#/definitions/x" }), /schema references not supported: #\/definitions\/x/);
  });
  it("no schema accepts everything; a null validator returns no errors", () => {
    assert.deepEqual(validateCustomResource(null, { a: 1 }, compileSchemaValidator(undefined)), []);
    assert.deepEqual(validateCustomResource(null, { a: 1 }, null), []);
  });
  it("deeply nested equal values are compared without recursion (ratcheting, uniqueItems)", () => {
    const mk = (): JsonValue => {
      let d: JsonValue = 1;
      for (let i = 0; i < 100000; i++) d = [d];
      return d;
    };
    const v = compileSchemaValidator({ type: "object", properties: { x: { type: "array", maxItems: 0, uniqueItems: true } } });
    assert.deepEqual(validateCustomResourceUpdate(null, { x: mk() }, { x: mk() }, v), []);
    assert.deepEqual(validateCustomResource(null, { x: [mk(), mk()] }, v).map(errorString), [
      "x: Too many: 2: must have at most 0 items",
      `x: Invalid value: "": x in body shouldn't contain duplicates`,
    ]);
  });
  it("deep values under a shallow schema are not walked", () => {
    let deep: JsonValue = 1;
    for (let i = 0; i < 100000; i++) deep = [deep];
    const v = compileSchemaValidator({ type: "object", properties: { x: { type: "array", maxItems: 0 } } });
    assert.deepEqual(validateCustomResource(null, { x: deep }, v).map(errorString), ["x: Too many: 1: must have at most 0 items"]);
  });
});
