import assert from "node:assert/strict";
import { test } from "node:test";
import type { JsonObject } from "../../value/json-value.js";
import { omitEmptyCrdSpec } from "./crd-omitempty.js";

test("omitEmptyCrdSpec: empty omitempty lists and maps go, at every depth; empty values elsewhere stay", () => {
  const spec: JsonObject = {
    names: { plural: "xs", kind: "X", shortNames: [], categories: ["all"] },
    versions: [
      {
        name: "v1",
        additionalPrinterColumns: [],
        selectableFields: [],
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: "object",
            required: [],
            "x-kubernetes-validations": [],
            properties: {
              a: { type: "array", items: { type: "object", properties: {}, enum: [] }, "x-kubernetes-list-map-keys": [] },
              b: { type: "object", additionalProperties: { type: "string", allOf: [], anyOf: [{ enum: [] }] }, default: {} },
              c: { type: "object", dependencies: { y: { required: [] } }, not: { oneOf: [] } },
            },
          },
        },
      },
    ],
  };
  omitEmptyCrdSpec(spec);
  assert.deepEqual(spec, {
    names: { plural: "xs", kind: "X", categories: ["all"] },
    versions: [
      {
        name: "v1",
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: "object",
            properties: {
              a: { type: "array", items: { type: "object" } },
              b: { type: "object", additionalProperties: { type: "string", anyOf: [{}] }, default: {} },
              c: { type: "object", dependencies: { y: {} }, not: {} },
            },
          },
        },
      },
    ],
  });
});
