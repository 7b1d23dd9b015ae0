import assert from "node:assert/strict";
import { test } from "node:test";
import { marshalPatched } from "../endpoints/scale-patch.js";
import type { JsonObject } from "../../value/json-value.js";
import { goOrderedCrd, omitEmptyCrdSpec } from "./crd-go-order.js";

test("a stored CRD in Go's encoding order (as the real server quotes it in test/golden/server/34-fuzz-findings-2.json)", () => {
  const crd = {
    status: { storedVersions: ["v1"], acceptedNames: { kind: "Find", plural: "finds" } },
    spec: {
      versions: [
        {
          storage: true,
          schema: { openAPIV3Schema: { "x-kubernetes-validations": [{ message: "m", rule: "r" }], properties: { b: { type: "string" }, a: { default: { z: 1, y: 2 }, type: "object" } }, type: "object" } },
          served: true,
          name: "v1",
        },
      ],
      scope: "Namespaced",
      names: { kind: "Find", plural: "finds" },
      group: "g.example.com",
    },
    metadata: { labels: { b: "1", a: "2" }, uid: "u", name: "finds.g.example.com" },
    kind: "CustomResourceDefinition",
    apiVersion: "apiextensions.k8s.io/v1",
  };
  const maps = new WeakSet<object>();
  assert.equal(
    marshalPatched(goOrderedCrd(crd, maps), maps),
    '{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"finds.g.example.com","uid":"u","labels":{"a":"2","b":"1"}},' +
      '"spec":{"group":"g.example.com","names":{"plural":"finds","kind":"Find"},"scope":"Namespaced","versions":[{"name":"v1","served":true,"storage":true,' +
      '"schema":{"openAPIV3Schema":{"type":"object","properties":{"a":{"type":"object","default":{"z":1,"y":2}},"b":{"type":"string"}},"x-kubernetes-validations":[{"rule":"r","message":"m"}]}}}]},' +
      '"status":{"acceptedNames":{"plural":"finds","kind":"Find"},"storedVersions":["v1"]}}',
  );
});

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
