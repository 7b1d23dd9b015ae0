import assert from "node:assert/strict";
import { test } from "node:test";
import type { JsonObject } from "../../value/json-value.js";
import { trackApply, trackUpdate } from "./field-manager.js";
import { SCALE_TYPE, toParentManagedFields, toScaleManagedFields } from "./scale-managed-fields.js";
import { appliedTypeErrors } from "./typed-validate.js";

const GV = "sa.example.com/v1";
const MAPPINGS = new Map<string, string | null>([
  [GV, ".spec.replicas"],
  ["sa.example.com/v2", null],
]);
const T = "2026-11-28T05:00:00Z";
const REPLICAS = { "f:spec": { "f:replicas": {} } };

function entry(manager: string, operation: "Apply" | "Update", apiVersion: string, fieldsV1: JsonObject, extra: JsonObject = {}): JsonObject {
  return { manager, operation, apiVersion, ...(extra["time"] ? { time: extra["time"] } : {}), fieldsType: "FieldsV1", fieldsV1, ...(extra["subresource"] ? { subresource: extra["subresource"] } : {}) };
}

const creator = entry("creator", "Update", GV, { "f:spec": { ".": {}, "f:replicas": {}, "f:size": {} } }, { time: T });

test("the Scale's managed fields are the entries owning the replicas path, reduced to spec.replicas of autoscaling/v1", () => {
  const parent = [
    creator,
    entry("labeler", "Update", GV, { "f:metadata": { "f:labels": { "f:a": {} } } }, { time: T }),
    entry("old", "Update", "sa.example.com/v2", REPLICAS, { time: T }),
    entry("gone", "Update", "sa.example.com/v9", REPLICAS, { time: T }),
  ];
  assert.deepEqual(toScaleManagedFields(parent, MAPPINGS), [
    { manager: "creator", operation: "Update", apiVersion: "autoscaling/v1", time: T, fieldsType: "FieldsV1", fieldsV1: REPLICAS },
  ]);
  assert.equal(toScaleManagedFields([entry("labeler", "Update", GV, { "f:spec": { "f:size": {} } })], MAPPINGS), undefined);
  assert.equal(toScaleManagedFields(undefined, MAPPINGS), undefined);
});

test("an ownership-only apply to the Scale: the applier is added, an Update owner comes back as a second entry without time", () => {
  const scale = toScaleManagedFields([creator], MAPPINGS)!;
  const live: JsonObject = { apiVersion: "autoscaling/v1", kind: "Scale", metadata: { name: "w1", managedFields: scale }, spec: { replicas: 1 }, status: { replicas: 0 } };
  const config: JsonObject = { apiVersion: "autoscaling/v1", kind: "Scale", metadata: { name: "w1" }, spec: { replicas: 1 } };
  const applied = trackApply(live, config, SCALE_TYPE, "scaler", "autoscaling/v1", false, [], "scale");
  const out = toParentManagedFields([creator], (applied["metadata"] as JsonObject)["managedFields"], GV, MAPPINGS);
  assert.deepEqual(out, [
    entry("scaler", "Apply", GV, REPLICAS, { subresource: "scale" }),
    entry("creator", "Update", GV, REPLICAS),
    entry("creator", "Update", GV, { "f:spec": { ".": {}, "f:size": {} } }, { time: T }),
  ]);
  // Decoded again, the later entry of the two (the one with a time) is the creator's: it no longer owns replicas.
  assert.deepEqual(toScaleManagedFields(out, MAPPINGS), [
    { manager: "scaler", operation: "Apply", apiVersion: "autoscaling/v1", fieldsType: "FieldsV1", fieldsV1: REPLICAS, subresource: "scale" },
  ]);
});

test("a /scale update moves replicas to its manager; replicas 0 (omitted from a Scale) leaves them to nobody", () => {
  const parent = [entry("scaler", "Apply", GV, REPLICAS, { subresource: "scale", time: T }), creator];
  const live: JsonObject = {
    apiVersion: "autoscaling/v1",
    kind: "Scale",
    metadata: { name: "w1", managedFields: toScaleManagedFields(parent, MAPPINGS)! },
    spec: { replicas: 1 },
    status: { replicas: 0 },
  };
  const update = (replicas: number) => {
    const next = trackUpdate(live, { ...live, metadata: { name: "w1" }, spec: replicas === 0 ? {} : { replicas } }, SCALE_TYPE, "putter", "autoscaling/v1", "scale");
    return toParentManagedFields(parent, (next["metadata"] as JsonObject)["managedFields"], GV, MAPPINGS);
  };
  const creatorRest = entry("creator", "Update", GV, { "f:spec": { ".": {}, "f:size": {} } }, { time: T });
  // Sorted by time: the mapped entry has none.
  assert.deepEqual(update(5), [entry("putter", "Update", GV, REPLICAS, { subresource: "scale" }), creatorRest]);
  assert.deepEqual(update(0), [creatorRest]);
  // Nobody owning replicas in the Scale: the update is not tracked, and the custom resource's owners lose the field.
  assert.deepEqual(toParentManagedFields(parent, undefined, GV, MAPPINGS), [creatorRest]);
});

test("entries of versions the CRD does not serve are dropped when mapped back", () => {
  const parent = [creator, entry("x", "Update", "sa.example.com/v9", { "f:spec": { "f:size": {} } }, { time: T })];
  const scale = toScaleManagedFields(parent, MAPPINGS);
  assert.deepEqual(toParentManagedFields(parent, scale, GV, MAPPINGS), [entry("creator", "Update", GV, REPLICAS), entry("creator", "Update", GV, { "f:spec": { ".": {}, "f:size": {} } }, { time: T })]);
});

test("an applied Scale is checked against the Scale's Go types", () => {
  const scale = (spec: JsonObject, extra: JsonObject = {}): JsonObject => ({ apiVersion: "autoscaling/v1", kind: "Scale", metadata: { name: "w1" }, spec, ...extra });
  assert.equal(appliedTypeErrors(scale({ replicas: 2 }, { status: { replicas: 3, selector: "a=b" } }), SCALE_TYPE), undefined);
  assert.equal(appliedTypeErrors(scale({ replicas: "8" }), SCALE_TYPE), ".spec.replicas: expected numeric (int or float), got string");
  assert.equal(appliedTypeErrors(scale({ replicas: 8, extra: 1 }), SCALE_TYPE), ".spec.extra: field not declared in schema");
  // smd stops walking a map at its first undeclared field (Go iterates the map in random order: crdkit takes the
  // keys in sorted order), so one of the two is named.
  assert.equal(appliedTypeErrors(scale({ replicas: 8 }, { extra: 1, metadata: { name: "w1", foo: 1 } }), SCALE_TYPE), ".extra: field not declared in schema");
});
