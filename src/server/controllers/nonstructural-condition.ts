/**
 * The `NonStructuralSchema` condition, as the API server's nonstructuralschema controller keeps it: set
 * (reason `Violations` or `StructuralError`, the engine's message) while a CRD has a non-structural schema,
 * removed otherwise. Through the v1 API only a CRD that already was non-structural can stay so (CRD update
 * validation ratchets `requireStructuralSchema` and `preserveUnknownFields`); such CRDs come from storage
 * (an etcd written by older API servers or v1beta1 clients).
 */
import { decodeCrd } from "../../crd/decode-crd.js";
import { nonStructuralSchemaCondition } from "../../crdvalidation/nonstructural.js";
import { isObject, type JsonObject, type JsonValue } from "../../value/json-value.js";

/** Sets or removes the condition in `conditions` (returns the new list). */
export function withNonStructuralCondition(crd: JsonObject, conditions: JsonValue[], now: string): JsonValue[] {
  const decoded = decodeCrd(crd);
  const cond = decoded.ok ? nonStructuralSchemaCondition(decoded.crd) : null;
  const i = conditions.findIndex((c) => isObject(c) && c["type"] === "NonStructuralSchema");
  if (!cond) return i < 0 ? conditions : conditions.filter((_, j) => j !== i);
  const prev = i >= 0 ? conditions[i] : undefined;
  // `SetCRDCondition`: the transition time changes only with the status.
  const lastTransitionTime = isObject(prev) && prev["status"] === cond.status && typeof prev["lastTransitionTime"] === "string" ? prev["lastTransitionTime"] : now;
  const next: JsonObject = { type: cond.type, status: cond.status, lastTransitionTime, reason: cond.reason, message: cond.message };
  return i < 0 ? [...conditions, next] : conditions.map((c, j) => (j === i ? next : c));
}
