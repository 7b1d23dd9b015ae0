import assert from "node:assert/strict";
import { test } from "node:test";
import type { JsonObject } from "../../value/json-value.js";
import type { ResourceType } from "../registry/resource-type.js";
import { ApiError } from "./errors.js";
import { scaleApplied, scalePatched, scaleUpdated } from "./scale-write.js";

const rt = {
  group: "sa.example.com",
  version: "v1",
  scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas", replicasPaths: new Map([["sa.example.com/v1", ".spec.replicas"]]) },
} as unknown as ResourceType;

const T = "2026-11-28T05:00:00Z";
const entry = (manager: string, operation: string, fieldsV1: JsonObject, extra: JsonObject = {}): JsonObject => ({
  manager,
  operation,
  apiVersion: "sa.example.com/v1",
  ...extra,
  fieldsType: "FieldsV1",
  fieldsV1,
});

function widget(replicas: number | undefined, managedFields: JsonObject[]): JsonObject {
  return {
    apiVersion: "sa.example.com/v1",
    kind: "Widget",
    metadata: { name: "w1", namespace: "default", uid: "u", resourceVersion: "5", creationTimestamp: T, managedFields },
    spec: { ...(replicas === undefined ? {} : { replicas }), size: "s" },
  };
}

const owned = widget(1, [entry("scaler", "Apply", { "f:spec": { "f:replicas": {} } }, { subresource: "scale" }), entry("creator", "Update", { "f:spec": { ".": {}, "f:size": {} } }, { time: T })]);
const scale = (replicas: number | string, metadata: JsonObject = { name: "w1" }): JsonObject => ({ apiVersion: "autoscaling/v1", kind: "Scale", metadata, spec: { replicas } });

function status(f: () => unknown): { code: number; message: string } {
  try {
    f();
  } catch (e) {
    if (e instanceof ApiError) return { code: e.status.code, message: e.status.message };
    throw e;
  }
  return { code: 0, message: "" };
}

test("apply to /scale: another apiVersion or kind is refused as GroupVersionKind prints it", () => {
  const cases: [JsonObject, string][] = [
    [{ ...scale(1), apiVersion: "autoscaling/v2" }, "invalid object type: autoscaling/v2, Kind=Scale"],
    [{ ...scale(1), apiVersion: "v1" }, "invalid object type: /v1, Kind=Scale"],
    [{ ...scale(1), apiVersion: "a/b/c", kind: "Widget" }, "invalid object type: /, Kind=Widget"],
    [{ metadata: { name: "w1" }, spec: { replicas: 1 } }, "invalid object type: /, Kind="],
  ];
  for (const [config, message] of cases) assert.deepEqual(status(() => scaleApplied(rt, config, owned, "scaler", false)), { code: 400, message });
});

test("apply to /scale: the real server's 500s when nobody owns replicas or the Scale would change", () => {
  const unowned = widget(1, [entry("creator", "Update", { "f:spec": { ".": {}, "f:size": {} } }, { time: T })]);
  const convert = "to proper version: request to convert CR to an invalid group/version: autoscaling/v1";
  assert.deepEqual(status(() => scaleApplied(rt, scale(1), unowned, "scaler", false)), {
    code: 500,
    message: `failed to create manager for existing fields: failed to convert live object (/; autoscaling/v1, Kind=Scale) ${convert}`,
  });
  assert.deepEqual(status(() => scaleApplied(rt, scale(3, { name: "w1", namespace: "default" }), owned, "scaler", true)), {
    code: 500,
    message: `failed to convert new object (default/w1; autoscaling/v1, Kind=Scale) ${convert}`,
  });
  assert.deepEqual(status(() => scaleApplied(rt, scale("3"), owned, "scaler", true)), {
    code: 500,
    message: "failed to create typed patch object (/w1; autoscaling/v1, Kind=Scale): .spec.replicas: expected numeric (int or float), got string",
  });
  assert.deepEqual(status(() => scaleApplied(rt, scale(3), owned, "other", false)), {
    code: 409,
    message: 'Apply failed with 1 conflict: conflict with "scaler" with subresource "scale": .spec.replicas',
  });
});

test("apply to /scale of the same replicas by a new manager records its ownership on the custom resource", () => {
  const next = scaleApplied(rt, scale(1), owned, "other", false);
  assert.deepEqual((next["metadata"] as JsonObject)["managedFields"], [
    entry("other", "Apply", { "f:spec": { "f:replicas": {} } }, { subresource: "scale" }),
    entry("scaler", "Apply", { "f:spec": { "f:replicas": {} } }, { subresource: "scale" }),
    entry("creator", "Update", { "f:spec": { ".": {}, "f:size": {} } }, { time: T }),
  ]);
  assert.deepEqual(next["spec"], { replicas: 1, size: "s" });
});

test("a /scale update to 0 leaves replicas to nobody; a missing replicas field must be set", () => {
  const next = scaleUpdated(rt, owned, 0, "", "putter");
  assert.deepEqual((next["metadata"] as JsonObject)["managedFields"], [entry("creator", "Update", { "f:spec": { ".": {}, "f:size": {} } }, { time: T })]);
  assert.deepEqual(next["spec"], { replicas: 0, size: "s" });
  const missing = widget(undefined, []);
  assert.deepEqual(status(() => scalePatched(rt, "application/merge-patch+json", { metadata: { labels: { a: "1" } } }, [], "Warn", missing, "m")), {
    code: 400,
    message: 'the spec replicas field ".spec.replicas" cannot be empty',
  });
  const { next: set, warnings } = scalePatched(rt, "application/json-patch+json", [{ op: "remove", path: "/spec/replicas" }], ['duplicate field "[0].op"'], "Warn", missing, "m");
  assert.deepEqual(set["spec"], { replicas: 0, size: "s" });
  assert.deepEqual(warnings, ['json patch duplicate field "[0].op"']);
});
