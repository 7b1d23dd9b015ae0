/** The `/scale` subresource: `autoscaling/v1 Scale` views of custom resources (apiextensions `ScaleREST`). */
import { deepClone, isObject, kindOf, setKey, type JsonObject, type JsonValue } from "../../value/json-value.js";
import { apiErrors } from "../endpoints/errors.js";
import { compileJsonPath, evalJsonPath } from "../tableconvertor/jsonpath.js";
import type { ResourceType, ScaleSpec } from "./resource-type.js";

function first(path: string, obj: JsonObject): JsonValue | undefined {
  const p = compileJsonPath(path);
  if (!p) return undefined;
  return evalJsonPath(p, obj)[0];
}

/**
 * The Scale of `obj`; 500 when the spec replicas field is missing, as Kubernetes' GET — or, for a write
 * (`missingReplicas`), that value (the scale handler's `invalidSpecReplicas`).
 */
export function toScale(spec: ScaleSpec, obj: JsonObject, missingReplicas?: number): JsonObject {
  const meta = isObject(obj["metadata"]) ? obj["metadata"] : {};
  const m: JsonObject = {};
  for (const k of ["name", "namespace", "uid", "resourceVersion", "creationTimestamp"]) if (meta[k] !== undefined) m[k] = meta[k];
  const specReplicas = first(spec.specReplicasPath, obj) ?? missingReplicas;
  if (specReplicas === undefined) throw apiErrors.internal(`the spec replicas field "${spec.specReplicasPath}" does not exist`);
  if (kindOf(specReplicas) !== "integer") {
    throw apiErrors.internal(`${spec.specReplicasPath} accessor error: ${String(specReplicas)} is of the type ${kindOf(specReplicas)}, expected int64`);
  }
  const statusReplicas = first(spec.statusReplicasPath, obj);
  const status: JsonObject = { replicas: kindOf(statusReplicas) === "integer" ? statusReplicas! : 0 };
  if (spec.labelSelectorPath) {
    const sel = first(spec.labelSelectorPath, obj);
    if (typeof sel === "string") status["selector"] = sel;
  }
  // ScaleSpec.replicas is omitempty in Go (0 is not written); ScaleStatus.replicas is not.
  return { kind: "Scale", apiVersion: "autoscaling/v1", metadata: m, spec: Number(specReplicas) === 0 ? {} : { replicas: specReplicas! }, status };
}

/** Writes `replicas` into a copy of `obj` at `specReplicasPath` (and the Scale's resourceVersion, when it has one). */
export function applyScale(rt: ResourceType, obj: JsonObject, replicas: number, resourceVersion: string): JsonObject {
  const spec = rt.scale!;
  const out = deepClone(obj);
  const parts = spec.specReplicasPath.replace(/^\./, "").split(".");
  let cur: JsonObject = out;
  for (const p of parts.slice(0, -1)) {
    if (!isObject(cur[p])) setKey(cur, p, {});
    cur = cur[p] as JsonObject;
  }
  setKey(cur, parts[parts.length - 1]!, replicas);
  if (resourceVersion !== "" && isObject(out["metadata"])) out["metadata"]["resourceVersion"] = resourceVersion;
  return out;
}
