/**
 * Ratcheting (pkg/apiserver/validation/ratcheting_test.go and the OpenAPI scenarios of
 * test/integration/ratcheting_test.go): errors of unchanged subtrees are dropped on update.
 */
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import type { JSONSchemaProps } from "../crd/types.js";
import { errorString } from "../errors/field-error.js";
import type { JsonValue } from "../value/json-value.js";
import { compileSchemaValidator, validateCustomResource, validateCustomResourceUpdate } from "./schema-validator.js";

const zero: JSONSchemaProps = { type: "number", minimum: 0, maximum: 0 };
const small: JSONSchemaProps = { type: "number", maximum: 50 };
const medium: JSONSchemaProps = { type: "number", minimum: 50, maximum: 10000 };
const large: JSONSchemaProps = { type: "number", minimum: 10000 };
const objectSchema: JSONSchemaProps = { type: "object", properties: { zero, small, medium, large } };
const objectObjectSchema: JSONSchemaProps = { type: "object", properties: { nested: objectSchema } };

function update(schema: JSONSchemaProps, n: JsonValue, o: JsonValue): string[] {
  return validateCustomResourceUpdate(null, n, o, compileSchemaValidator(schema)).map(errorString);
}
function valid(schema: JSONSchemaProps, n: JsonValue, o: JsonValue): boolean {
  return update(schema, n, o).length === 0;
}

describe("ratcheting_test.go", () => {
  it("TestScalarRatcheting", () => {
    assert.equal(valid(medium, 1, 1), true);
    assert.equal(valid(medium, 1, 2), false);
  });
  it("TestObjectScalarFieldsRatcheting", () => {
    assert.equal(valid(objectSchema, { small: 500 }, { small: 500 }), true);
    assert.equal(valid(objectSchema, { small: 501 }, { small: 501, medium: 500 }), true);
    assert.equal(valid(objectSchema, { small: 500 }, { small: 501 }), false);
  });
  it("TestObjectObjectFieldsRatcheting", () => {
    assert.equal(valid(objectObjectSchema, { nested: { small: 500 } }, { nested: { small: 500 } }), true);
    assert.equal(valid(objectObjectSchema, { nested: { small: 501 } }, { nested: { small: 501, medium: 500 } }), true);
    assert.equal(valid(objectObjectSchema, { nested: { small: 500 } }, { nested: { small: 501 } }), false);
  });
  it("TestNumericFormatRatcheting", () => {
    const s: JSONSchemaProps = { type: "object", properties: { intThirtyTwo: { type: "integer", format: "int32" }, unrelated: { type: "string" } } };
    assert.equal(valid(s, { intThirtyTwo: 2147483648 }, { intThirtyTwo: 2147483648 }), true);
    assert.equal(valid(s, { intThirtyTwo: 2147483648, unrelated: "changed" }, { intThirtyTwo: 2147483648, unrelated: "original" }), true);
    assert.deepEqual(update(s, { intThirtyTwo: 2147483649 }, { intThirtyTwo: 2147483648 }), [
      `<nil>: Invalid value: "": Checked value must be of type integer with format int32 in intThirtyTwo`,
    ]);
  });
});

describe("ratcheting scenarios", () => {
  const spec = (p: Record<string, JSONSchemaProps>, extra: JSONSchemaProps = {}): JSONSchemaProps => ({
    type: "object",
    properties: { apiVersion: { type: "string" }, kind: { type: "string" }, spec: { type: "object", properties: p, ...extra } },
  });
  it("unchanged invalid field tolerated, changed invalid field reported", () => {
    const s = spec({ a: { type: "string", maxLength: 2 }, b: { type: "string", maxLength: 2 } });
    assert.deepEqual(update(s, { spec: { a: "xxx", b: "ok" } }, { spec: { a: "xxx", b: "o" } }), []);
    assert.deepEqual(update(s, { spec: { a: "xxx", b: "yyy" } }, { spec: { a: "xxx", b: "o" } }), ["spec.b: Too long: may not be more than 2 bytes"]);
  });
  it("node-level keywords are checked when the node changed (required / minProperties)", () => {
    const s = spec({ a: { type: "string" }, b: { type: "string" } }, { required: ["c"], minProperties: 3 });
    assert.deepEqual(update(s, { spec: { a: "x" } }, { spec: { a: "x" } }), []);
    assert.deepEqual(update(s, { spec: { a: "x", b: "y" } }, { spec: { a: "x" } }), [
      "spec: Invalid value: 2: spec in body should have at least 3 properties",
      "spec.c: Required value",
    ]);
  });
  it("additionalProperties keys correlate by name", () => {
    const s = spec({ m: { type: "object", additionalProperties: { type: "string", enum: ["a"] } } });
    assert.deepEqual(update(s, { spec: { m: { x: "bad", y: "a" } } }, { spec: { m: { x: "bad" } } }), []);
    assert.deepEqual(update(s, { spec: { m: { x: "bad", y: "worse" } } }, { spec: { m: { x: "bad" } } }), [
      `spec.m.y: Unsupported value: "worse": supported values: "a"`,
    ]);
  });
  it("list-type=map items correlate by key, even when reordered", () => {
    const s = spec({
      l: {
        type: "array",
        "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["name"],
        items: { type: "object", properties: { name: { type: "string" }, v: { type: "integer", maximum: 1 } } },
      },
    });
    const old = { spec: { l: [{ name: "a", v: 5 }, { name: "b", v: 0 }] } };
    assert.deepEqual(update(s, { spec: { l: [{ name: "b", v: 0 }, { name: "a", v: 5 }] } }, old), []);
    assert.deepEqual(update(s, { spec: { l: [{ name: "b", v: 7 }, { name: "a", v: 5 }] } }, old), [
      "spec.l[0].v: Invalid value: 7: spec.l[0].v in body should be less than or equal to 1",
    ]);
  });
  it("atomic/set lists do not correlate by index, but an unchanged list ratchets as a whole", () => {
    const s = spec({ l: { type: "array", items: { type: "integer", maximum: 1 } } });
    assert.deepEqual(update(s, { spec: { l: [5, 6] } }, { spec: { l: [5, 6] } }), []);
    assert.deepEqual(update(s, { spec: { l: [5, 0] } }, { spec: { l: [5, 6] } }), [
      "spec.l[0]: Invalid value: 5: spec.l[0] in body should be less than or equal to 1",
    ]);
  });
  it("int64 1 and float64 1.0 are different (reflect.DeepEqual)", () => {
    const s = spec({ n: { type: "integer", maximum: 0 } });
    assert.deepEqual(update(s, { spec: { n: 1 } }, { spec: { n: 1 } }), []);
  });
  it("root apiVersion/kind are never ratcheted", () => {
    const s: JSONSchemaProps = { type: "object", properties: { apiVersion: { type: "string", pattern: "^v$" }, kind: { type: "string", enum: ["K"] }, spec: { type: "object" } } };
    const obj = { apiVersion: "x", kind: "Y", spec: {} };
    // a fully unchanged object ratchets at the root...
    assert.deepEqual(update(s, obj, obj), []);
    // ...but unchanged apiVersion/kind are not ratcheted on their own
    assert.deepEqual(update(s, { ...obj, spec: { a: 1 } }, obj), [
      `apiVersion: Invalid value: "x": apiVersion in body should match '^v$'`,
      `kind: Unsupported value: "Y": supported values: "K"`,
    ]);
  });
  it("fields without a schema make the parent never equal (preserve-unknown-fields)", () => {
    const s = spec({ a: { type: "string", maxLength: 1 } });
    const obj = { spec: { a: "xx", unknown: 1 } };
    assert.deepEqual(update(s, obj, obj), []);
    const s2: JSONSchemaProps = { type: "object", minProperties: 5, properties: { spec: { type: "object" } } };
    assert.deepEqual(update(s2, { spec: {}, other: 1 }, { spec: {}, other: 1 }), [
      "<nil>: Invalid value: 2:  in body should have at least 5 properties",
    ]);
  });
  it("composition errors belong to the enclosing node", () => {
    const s = spec({ a: { anyOf: [{ type: "string" }, { type: "boolean" }] } });
    assert.deepEqual(update(s, { spec: { a: 1 } }, { spec: { a: 1 } }), []);
    assert.equal(update(s, { spec: { a: 2 } }, { spec: { a: 1 } }).length, 2);
  });
  it("create never ratchets", () => {
    const s = spec({ a: { type: "string", maxLength: 1 } });
    assert.deepEqual(validateCustomResource(null, { spec: { a: "xx" } }, compileSchemaValidator(s)).map(errorString), [
      "spec.a: Too long: may not be more than 1 byte",
    ]);
  });

  describe("test/integration/ratcheting_test.go scenarios (as old/new pairs)", () => {
    const item = (name: string, port: number, field = "value") => ({ name, port, field });
    const listMap = (extra: JSONSchemaProps): JSONSchemaProps => ({
      type: "object",
      properties: {
        field: {
          type: "array",
          "x-kubernetes-list-type": "map",
          "x-kubernetes-list-map-keys": ["name", "port"],
          ...extra,
          items: {
            type: "object",
            required: ["name", "port"],
            properties: { name: { type: "string" }, port: { type: "number", ...(extra.items as JSONSchemaProps | undefined)?.properties?.port }, field: { type: "string" } },
          },
        },
      },
    });
    it("Map Type List Reordering Grandfathers Invalid Key: maxItems", () => {
      const s = listMap({ maxItems: 2 });
      const old = { field: [item("nginx", 443), item("etcd", 2379), item("kube-apiserver", 6443)] };
      assert.deepEqual(update(s, { field: [item("kube-apiserver", 6443), item("nginx", 443), item("etcd", 2379)] }, old), []);
      assert.deepEqual(
        update(s, { field: [item("kube-apiserver", 6443), item("nginx", 443), item("etcd", 2379), item("dev", 8080)] }, old),
        ["field: Too many: 4: must have at most 2 items"],
      );
    });
    it("Map Type List Reordering Grandfathers Invalid Key: multipleOf on a key", () => {
      const s = listMap({ items: { properties: { port: { multipleOf: 2 } } } });
      const old = { field: [item("kube-apiserver", 6443), item("nginx", 443), item("etcd", 2379)] };
      assert.deepEqual(update(s, { field: [item("nginx", 443), item("etcd", 2379), item("kube-apiserver", 6443)] }, old), []);
      assert.deepEqual(
        update(s, { field: [item("nginx", 443), item("etcd", 2379), item("kube-apiserver", 6443, "changed"), item("dev", 8080)] }, old),
        [],
      );
      assert.deepEqual(update(s, { field: [item("dev", 8081)] }, old), [
        "field[0].port: Invalid value: 8081: field[0].port in body should be a multiple of 2",
      ]);
    });
    it("ArrayItems do not correlate by index", () => {
      const s: JSONSchemaProps = {
        type: "object",
        properties: {
          values: { type: "array", items: { type: "object", additionalProperties: { type: "string", minLength: 6 } } },
          otherField: { type: "string" },
        },
      };
      const old = { values: [{ name: "1", key: "value" }, { name: "2", key: "value" }] };
      assert.deepEqual(update(s, { values: [{ name: "1", key: "value" }, { name: "2", key: "bad" }] }, old), [
        `values[0].name: Invalid value: "1": values[0].name in body should be at least 6 chars long`,
        `values[0].key: Invalid value: "value": values[0].key in body should be at least 6 chars long`,
        `values[1].name: Invalid value: "2": values[1].name in body should be at least 6 chars long`,
        `values[1].key: Invalid value: "bad": values[1].key in body should be at least 6 chars long`,
      ]);
      assert.deepEqual(update(s, { ...old, otherField: "hello world" }, old), []);
      assert.notDeepEqual(update(s, { values: [{ name: "1", key: "value" }, { name: "2", key: "value", key2: "valid value" }] }, old), []);
      assert.notDeepEqual(update(s, { values: [{ name: "2", key: "value" }, { name: "1", key: "value" }] }, old), []);
    });
  });
});
