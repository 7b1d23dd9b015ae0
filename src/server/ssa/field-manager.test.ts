import assert from "node:assert/strict";
import { test } from "node:test";
import type { JsonObject, JsonValue } from "../../value/json-value.js";
import { takeRequestManagedFields, trackApply, trackUpdate } from "./field-manager.js";
import { DEDUCED, rootType } from "./type-schema.js";

test("managers whose names, operations and versions join to the same text stay two managers", () => {
  // "m\0Update" + "Update" + "v1" and "m" + "Update" + "Update\0v1" read the same when joined with NULs
  const entry = (manager: string, apiVersion: string, field: string) => ({
    manager,
    operation: "Update",
    apiVersion,
    fieldsType: "FieldsV1",
    fieldsV1: { "f:spec": { [`f:${field}`]: {} } },
  });
  const next: JsonObject = {
    apiVersion: "v1",
    kind: "Thing",
    metadata: { name: "t", managedFields: [entry("m\u0000Update", "v1", "a"), entry("m", "Update\u0000v1", "b")] },
    spec: { a: 1, b: 2 },
  };
  // an update adding spec.c: the two managers keep their fields
  const out = trackUpdate(next, { ...next, spec: { a: 1, b: 2, c: 3 } }, DEDUCED, "tester", "v1", "");
  const managed = (out["metadata"] as JsonObject)["managedFields"] as JsonObject[];
  assert.deepEqual(managed.map((e) => [e["manager"], e["apiVersion"]]).filter(([m]) => m !== "tester"), [
    ["m", "Update\u0000v1"],
    ["m\u0000Update", "v1"],
  ]);
});

test("takeRequestManagedFields: [{}] strips, entries the field manager cannot decode are dropped, [] and valid entries stay", () => {
  const strip: JsonObject = { managedFields: [{}] };
  assert.equal(takeRequestManagedFields(strip), true);
  assert.deepEqual(strip, {});
  const bad: JsonObject = { managedFields: [{ manager: "m", operation: "Bogus", fieldsType: "FieldsV2" }] };
  assert.equal(takeRequestManagedFields(bad), false);
  assert.deepEqual(bad, {});
  const empty: JsonObject = { managedFields: [] };
  assert.equal(takeRequestManagedFields(empty), false);
  assert.deepEqual(empty, { managedFields: [] });
  const good: JsonObject = { managedFields: [{ manager: "m", operation: "Apply", apiVersion: "x/v1", fieldsType: "FieldsV1", fieldsV1: { "f:spec": {} } }] };
  assert.equal(takeRequestManagedFields(good), false);
  assert.equal((good["managedFields"] as JsonValue[]).length, 1);
});

test("an apply that no longer sets a struct field removes it whole (not only the paths below it)", () => {
  const type = rootType({
    type: "object",
    properties: {
      spec: {
        type: "object",
        properties: { a: { type: "string" }, labels: { type: "object", additionalProperties: { type: "string" } }, free: { type: "object", additionalProperties: { type: "object", properties: { x: { type: "string" } } } } },
      },
    },
  });
  const cfg = (spec: JsonObject): JsonObject => ({ apiVersion: "x.example.com/v1", kind: "T", metadata: { name: "t" }, spec });
  const first = trackApply(undefined, cfg({ a: "1", labels: { k: "v" }, free: { m: { x: "y" } } }), type, "m", "x.example.com/v1", false);
  // labels (a property) goes whole, not as an empty map; free stays for its new key
  const second = trackApply(first, cfg({ a: "1", free: { n: { x: "z" } } }), type, "m", "x.example.com/v1", false);
  assert.deepEqual(second["spec"], { a: "1", free: { n: { x: "z" } } });
  // nothing left under spec: spec goes too
  const third = trackApply(second, { apiVersion: "x.example.com/v1", kind: "T", metadata: { name: "t" } }, type, "m", "x.example.com/v1", false);
  assert.deepEqual(Object.keys(third), ["apiVersion", "kind", "metadata"]);
  // an applied empty spec gives up what the applier owned below it: emptied, it is null as smd writes it (the real
  // server then refuses it: test/server-diff/sequences/47-corpus-apply, "the applier applies an empty spec")
  assert.equal(trackApply(second, cfg({}), type, "m", "x.example.com/v1", false)["spec"], null);
  // an applied empty spec over nothing to give up stays as sent
  assert.deepEqual(trackApply(undefined, cfg({}), type, "m", "x.example.com/v1", false)["spec"], {});
});
