/**
 * The custom resource a `/scale` write makes (`ScaleREST.Update` with `scaleUpdatedObjectInfo`): the field manager
 * runs on the autoscaling/v1 Scale, whose managed fields the scale handler derives from the custom resource's
 * (`ssa/scale-managed-fields.ts`), and the new replicas and their owners go back into the custom resource.
 * PUT, merge and JSON patches record an Update; server-side apply runs as the real server's field manager does for
 * a Scale of a custom resource, whose converter cannot convert the unstructured Scale it builds.
 */
import { failureStatus } from "../../errors/index.js";
import { MAX_DEPTH } from "../../io/yaml-decode.js";
import { depthExceeds } from "../../value/json-depth.js";
import { deepClone, deepEqual, isObject, type JsonObject, type JsonValue } from "../../value/json-value.js";
import { metaOf } from "../registry/object-meta.js";
import { groupVersion, type ResourceType } from "../registry/resource-type.js";
import { applyScale, toScale } from "../registry/scale.js";
import { trackApply, trackUpdate } from "../ssa/field-manager.js";
import { SCALE_GROUP_VERSION, SCALE_TYPE, toParentManagedFields, toScaleManagedFields } from "../ssa/scale-managed-fields.js";
import { ApiError, apiErrors } from "./errors.js";
import { jsonPatch, JsonPatchDecodeError, JsonPatchDepthError, JsonPatchError, mergePatch } from "./patch.js";
import { patchTooDeep } from "./patch-depth.js";
import { patchNotDecodable } from "./patch-not-decodable.js";
import { decodePatchedScale, goOrderedScale, INVALID_SPEC_REPLICAS, markJsonPatchPaths, marshalPatched, mergePatchSorted } from "./scale-patch.js";

/** The Scale a /scale write starts from (replicas the object lacks are `invalidSpecReplicas`) and its managed fields. */
interface CurrentScale {
  scale: JsonObject;
  managed: JsonObject[] | undefined;
}

function currentScale(rt: ResourceType, old: JsonObject): CurrentScale {
  const scale = toScale(rt.scale!, old, INVALID_SPEC_REPLICAS);
  return { scale, managed: toScaleManagedFields(metaOf(old)["managedFields"], rt.scale!.replicasPaths ?? new Map()) };
}

function withManaged(c: CurrentScale): JsonObject {
  return c.managed ? { ...c.scale, metadata: { ...metaOf(c.scale), managedFields: c.managed } } : c.scale;
}

/** `next` with the managed fields the Scale's `scaleManaged` give the custom resource `old` (`ToParent`). */
function withParentManaged(rt: ResourceType, old: JsonObject, next: JsonObject, scaleManaged: JsonValue | undefined): JsonObject {
  const managed = toParentManagedFields(metaOf(old)["managedFields"], scaleManaged, groupVersion(rt.group, rt.version), rt.scale!.replicasPaths ?? new Map());
  if (managed === undefined) delete metaOf(next)["managedFields"];
  else metaOf(next)["managedFields"] = managed;
  return next;
}

function cannotBeEmpty(rt: ResourceType): ApiError {
  return apiErrors.badRequest(`the spec replicas field "${rt.scale!.specReplicasPath}" cannot be empty`);
}

/**
 * The custom resource after a PUT, merge or JSON patch of its /scale set `replicas` (and the Scale's
 * `resourceVersion`, a precondition): the field manager records the update by `manager` on the Scale (so replicas
 * 0, which a Scale omits, is owned by nobody), then the owners of replicas map back to the custom resource.
 */
export function scaleUpdated(
  rt: ResourceType,
  old: JsonObject,
  replicas: number,
  resourceVersion: string,
  manager: string,
  current = currentScale(rt, old),
  tracked = true,
): JsonObject {
  if (replicas === INVALID_SPEC_REPLICAS) throw cannotBeEmpty(rt);
  const newScale: JsonObject = { ...current.scale, spec: replicas === 0 ? {} : { replicas } };
  // Untracked (a Scale body without apiVersion, which the field manager cannot type): the Scale keeps the managed
  // fields it was given, and the owners of replicas still map back (the updater's own entry among them).
  const scaleManaged = tracked ? metaOf(trackUpdate(withManaged(current), newScale, SCALE_TYPE, manager, SCALE_GROUP_VERSION, "scale"))["managedFields"] : current.managed;
  return withParentManaged(rt, old, applyScale(rt, old, replicas, resourceVersion), scaleManaged);
}

/** `GroupVersionKind.String()` of an applied object's apiVersion and kind. */
function gvkString(apiVersion: string, kind: string): string {
  const parts = apiVersion.split("/");
  const [group, version] = apiVersion === "" || parts.length > 2 ? ["", ""] : parts.length === 1 ? ["", apiVersion] : [parts[0]!, parts[1]!];
  return `${group}/${version}, Kind=${kind}`;
}

/** The custom resource converter's refusal of the unstructured Scale the field manager converts (a plain 500). */
function scaleConversionError(what: string, nsName: string): ApiError {
  return new ApiError(
    failureStatus(500, "", `${what} (${nsName}; autoscaling/v1, Kind=Scale) to proper version: request to convert CR to an invalid group/version: autoscaling/v1`),
  );
}

/**
 * The custom resource after server-side apply of `config` to its /scale by `manager`: another apiVersion or kind
 * is 400; with nobody owning replicas, or an apply that would change the Scale, the field manager's conversion of
 * an unstructured Scale fails (500); conflicts are 409. Only applies that change no field but ownership succeed.
 */
export function scaleApplied(rt: ResourceType, config: JsonObject, old: JsonObject, manager: string, force: boolean): JsonObject {
  const str = (v: JsonValue | undefined) => (typeof v === "string" ? v : "");
  const apiVersion = str(config["apiVersion"]);
  const kind = str(config["kind"]);
  if (apiVersion !== SCALE_GROUP_VERSION || kind !== "Scale") throw apiErrors.badRequest(`invalid object type: ${gvkString(apiVersion, kind)}`);
  const current = currentScale(rt, old);
  // `skipNonAppliedManager`: no managed fields → an Update of an empty object of the applied kind first.
  if (current.managed === undefined) throw scaleConversionError("failed to create manager for existing fields: failed to convert live object", "/");
  const live = withManaged(current);
  const out = trackApply(live, config, SCALE_TYPE, manager, SCALE_GROUP_VERSION, force, [], "scale");
  const fields = (o: JsonObject) => ({ ...o, metadata: { ...metaOf(o), managedFields: null } });
  if (!deepEqual(fields(out), fields(live))) {
    const cm = isObject(config["metadata"]) ? config["metadata"] : {};
    throw scaleConversionError("failed to convert new object", `${str(cm["namespace"])}/${str(cm["name"])}`);
  }
  return withParentManaged(rt, old, deepClone(old), metaOf(out)["managedFields"]);
}

/**
 * The custom resource after a merge or JSON patch (`type`) of its /scale, decoded into a Scale as the patch handler
 * does, and the strict-decoding errors to warn about. `patchStrictErrors`: the patch body's own duplicate fields.
 */
export function scalePatched(
  rt: ResourceType,
  type: string,
  patch: JsonValue,
  patchStrictErrors: string[],
  validation: "Strict" | "Warn" | "Ignore",
  old: JsonObject,
  manager: string,
): { next: JsonObject; warnings: string[] } {
  const current = currentScale(rt, old);
  const base = goOrderedScale(current.scale, current.managed);
  const sorted = new WeakSet<object>();
  let patched: JsonValue;
  try {
    if (type === "application/merge-patch+json") patched = isObject(patch) ? mergePatchSorted(base, patch, sorted) : mergePatch(base, patch);
    else {
      patched = jsonPatch(base, patch, { decodeOps: validation !== "Ignore" });
      markJsonPatchPaths(patched, patch, sorted);
    }
  } catch (e) {
    if (e instanceof JsonPatchError) throw apiErrors.patchRejected(e.message);
    if (e instanceof JsonPatchDecodeError) throw apiErrors.badRequest(e.message);
    if (e instanceof JsonPatchDepthError) throw patchTooDeep(e.document);
    throw e;
  }
  if (depthExceeds(patched, MAX_DEPTH)) throw patchTooDeep(patched);
  if (!isObject(patched)) throw apiErrors.badRequest("the patched object is not an object");
  const decoded = decodePatchedScale(patched, sorted);
  if ("error" in decoded) throw patchNotDecodable(marshalPatched(patched, sorted), decoded.error);
  // The patch's own strict errors (a JSON patch's prefixed), then the patched document's.
  const prefix = type === "application/json-patch+json" ? "json patch " : "";
  const strict = validation === "Ignore" ? [] : [...patchStrictErrors.map((e) => prefix + e), ...decoded.unknownFields];
  if (validation === "Strict" && strict.length > 0) throw patchNotDecodable(marshalPatched(patched, sorted), `strict decoding error: ${strict.join(", ")}`);
  const next = scaleUpdated(rt, old, decoded.replicas, decoded.resourceVersion, manager, current);
  return { next, warnings: validation === "Warn" ? strict : [] };
}
