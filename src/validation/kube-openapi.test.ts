/**
 * kube-openapi pkg/validation/validate tests translated to data: schema_test.go
 * (TestNumericFormatEnforcement, Pattern, PatternProperties), plus the enum / type helpers.
 */
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import type { JSONSchemaProps } from "../crd/types.js";
import { type JsonValue, float64 } from "../value/json-value.js";
import { enumContains, isFloat64AJSONInteger } from "./evaluate.js";
import { compileSchemaValidator, validateValue } from "./schema-validator.js";

const valid = (schema: JSONSchemaProps, v: JsonValue) => validateValue(compileSchemaValidator(schema), v).length === 0;

describe("TestNumericFormatEnforcement", () => {
  const cases: [string, JSONSchemaProps, JsonValue, boolean][] = [
    ["int32 valid value", { type: "integer", format: "int32" }, 123, true],
    ["int32 overflow value", { type: "integer", format: "int32" }, 2147483648, false],
    ["int32 boundary max value", { type: "integer", format: "int32" }, 2147483647, true],
    ["int32 boundary min value", { type: "integer", format: "int32" }, -2147483648, true],
    ["int32 underflow value", { type: "integer", format: "int32" }, -2147483649, false],
    ["int64 valid value", { type: "integer", format: "int64" }, 9223372036854775807n, true],
    ["float32 valid value", { type: "number", format: "float" }, 1.23, true],
    ["float32 overflow value", { type: "number", format: "float" }, float64(3.4028234663852886e38 * 1.1), false],
    ["double valid value", { type: "number", format: "double" }, 1.23, true],
    ["double max value", { type: "number", format: "double" }, float64(Number.MAX_VALUE), true],
    ["number type with int32 format (format ignored)", { type: "number", format: "int32" }, float64(2147483648), true],
    ["integer type with float format (format ignored)", { type: "integer", format: "float" }, 4294967294, true],
    ["multiple types with int32 format (format ignored)", { "x-kubernetes-int-or-string": true, format: "int32" }, 2147483648, true],
  ];
  for (const [name, schema, v, want] of cases) it(name, () => assert.equal(valid(schema, v), want));
});

describe("schema_test.go", () => {
  const person: JSONSchemaProps = {
    properties: {
      name: { type: "string", pattern: "^[A-Za-z]+$", minLength: 1 },
      place: { type: "string", pattern: "^[A-Za-z]+$", minLength: 1 },
    },
    required: ["name"],
  };
  it("TestSchemaValidator_Validate_Pattern", () => {
    assert.equal(valid(person, { name: "Ivan" }), true);
    assert.equal(valid(person, { name: "Ivan", place: "10" }), false);
  });
  it("TestSchemaValidator_PatternProperties", () => {
    const s: JSONSchemaProps = {
      properties: { name: { type: "string", pattern: "^[A-Za-z]+$", minLength: 1 } },
      patternProperties: { "address-[0-9]+": { type: "string", pattern: String.raw`^[\s|a-z]+$` } },
      required: ["name"],
      additionalProperties: false,
    };
    assert.equal(valid(s, { name: "Ivan", "address-1": "sesame street" }), true);
    assert.equal(valid(s, { name: "Ivan", "address-1": "1, Sesame Street" }), false);
    assert.deepEqual(
      validateValue(compileSchemaValidator(s), { name: "Ivan", "address-1": "sesame street", "address-A": "address" }).map((e) => e.message),
      [".address-A in body is a forbidden property"],
    );
  });
  it("nil data: only type and enum are checked", () => {
    assert.deepEqual(
      validateValue(compileSchemaValidator({ type: "number", enum: [1], minimum: 5 }), null).map((e) => e.message),
      [` in body must be of type number: "null"`, " in body should be one of [1]"],
    );
  });
});

describe("helpers", () => {
  it("isFloat64AJSONInteger (go-openapi/swag conv)", () => {
    assert.equal(isFloat64AJSONInteger(1), true);
    assert.equal(isFloat64AJSONInteger(1.5), false);
    assert.equal(isFloat64AJSONInteger(2 ** 53), false);
    assert.equal(isFloat64AJSONInteger(2 ** 53 - 1), true);
    assert.equal(isFloat64AJSONInteger(1e9 + 1e-7), true); // relative error below 1e-9
    assert.equal(isFloat64AJSONInteger(0.0000000001), false);
  });
  it("enum membership follows Go ConvertibleTo + DeepEqual", () => {
    assert.equal(enumContains([float64(1)], 1), true);
    assert.equal(enumContains([1], float64(1)), true);
    assert.equal(enumContains([1], 1.9), true);
    assert.equal(enumContains([2], 1.9), false);
    assert.equal(enumContains(["A"], 65), true);
    assert.equal(enumContains(["\ufffd"], -1), true);
    assert.equal(enumContains(["1"], 1), false);
    assert.equal(enumContains([1], "1"), false);
    assert.equal(enumContains([true], true), true);
    assert.equal(enumContains([{ a: 1 }], { a: 1 }), true);
    assert.equal(enumContains([{ a: 1 }], { a: float64(1) }), false);
    assert.equal(enumContains([[1, 2]], [1, 2]), true);
    assert.equal(enumContains([null], null), false);
    assert.equal(enumContains([9223372036854775807n], 9223372036854775807n), true);
  });
});

describe("the schema of a default (Structural.ToKubeOpenAPI)", () => {
  const messages = (s: JSONSchemaProps, v: JsonValue, toKubeOpenAPI: boolean) => validateValue(compileSchemaValidator(s, { toKubeOpenAPI }), v).map((e) => e.message);
  it("keeps a node's own type under x-kubernetes-int-or-string, where a custom resource's validation uses integer,string", () => {
    const s: JSONSchemaProps = { type: "object", "x-kubernetes-int-or-string": true };
    assert.deepEqual(messages(s, {}, false), [' in body must be of type integer,string: "object"']);
    assert.deepEqual(messages(s, {}, true), []);
    assert.deepEqual(messages({ "x-kubernetes-int-or-string": true }, true, true), []);
    assert.deepEqual(messages({ type: "integer", "x-kubernetes-int-or-string": true }, "http", true), [' in body must be of type integer: "string"']);
  });
});
