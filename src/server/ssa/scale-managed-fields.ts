/**
 * Field ownership through a custom resource's `/scale` (apimachinery `managedfields.ScaleHandler`): the field
 * manager of a /scale write works on the autoscaling/v1 Scale, whose managed fields are the custom resource's
 * entries that own the spec replicas field, each reduced to `f:spec.f:replicas` of `autoscaling/v1`
 * ({@link toScaleManagedFields}); after the write, the Scale's owners of `spec.replicas` are mapped back onto the
 * custom resource's entries ({@link toParentManagedFields}).
 *
 * Entries stay filed under the key (manager identifier) they were decoded with while their apiVersion changes, as
 * Kubernetes does: an Update entry of the custom resource that owns the replicas field therefore comes back from
 * a /scale write as a second entry of the same manager, operation and apiVersion (without a time), beside the
 * entry that keeps its other fields — and the later of the two wins when the list is decoded again.
 */
import type { JsonObject, JsonValue } from "../../value/json-value.js";
import { decodeManagedFields, encodeManagedFields, type Managed } from "./field-manager.js";
import { FieldSet, type PathElement } from "./fieldset.js";
import { OBJECT_META, SCALAR, type TypeNode } from "./type-schema.js";

/** The Scale's own group/version. */
export const SCALE_GROUP_VERSION = "autoscaling/v1";

/**
 * `ResourcePathMappings`: each version of the CRD (`group/version`) → its spec replicas path (`.spec.replicas`),
 * or null for a version without the scale subresource.
 */
export type ReplicasPathMappings = ReadonlyMap<string, string | null>;

function struct(fields: Record<string, TypeNode>): TypeNode {
  return { kind: "map", fields: new Map(Object.entries(fields)), atomic: false, closed: true };
}

/** The structured-merge-diff type of an autoscaling/v1 Scale (Go structs: undeclared fields are refused). */
export const SCALE_TYPE: TypeNode = struct({
  apiVersion: SCALAR,
  kind: SCALAR,
  metadata: { ...(OBJECT_META as Extract<TypeNode, { kind: "map" }>), closed: true },
  spec: struct({ replicas: { kind: "scalar", scalar: "numeric" } }),
  status: struct({ replicas: { kind: "scalar", scalar: "numeric" }, selector: { kind: "scalar", scalar: "string" } }),
});

const REPLICAS_IN_SCALE: PathElement[] = [
  { kind: "f", name: "spec" },
  { kind: "f", name: "replicas" },
];

/** A spec replicas path (`.spec.replicas`) as a field path. */
function fieldPath(path: string): PathElement[] {
  return path
    .replace(/^\./, "")
    .split(".")
    .map((name): PathElement => ({ kind: "f", name }));
}

function setOf(path: PathElement[]): FieldSet {
  const s = new FieldSet();
  s.insert(path);
  return s;
}

/** Decoded entries (an undecodable list counts as none). */
function decoded(entries: JsonValue | undefined): Map<string, Managed> {
  return decodeManagedFields(entries) ?? new Map();
}

/** `ToSubresource`: the Scale's managed fields for the custom resource's `parentEntries`. */
export function toScaleManagedFields(parentEntries: JsonValue | undefined, mappings: ReplicasPathMappings): JsonObject[] | undefined {
  const out = new Map<string, Managed>();
  for (const [id, m] of decoded(parentEntries)) {
    const path = mappings.get(m.apiVersion);
    if (path === undefined || path === null) continue;
    if (!m.set.has(fieldPath(path))) continue;
    const e: Managed = { manager: m.manager, operation: m.operation, apiVersion: SCALE_GROUP_VERSION, subresource: m.subresource, set: setOf(REPLICAS_IN_SCALE) };
    if (m.time !== undefined) e.time = m.time;
    out.set(id, e);
  }
  return encodeManagedFields(out);
}

/**
 * `ToParent`: the custom resource's managed fields after a /scale write whose Scale ended with `scaleEntries`;
 * `parentGV` is the version the request addressed.
 */
export function toParentManagedFields(
  parentEntries: JsonValue | undefined,
  scaleEntries: JsonValue | undefined,
  parentGV: string,
  mappings: ReplicasPathMappings,
): JsonObject[] | undefined {
  const parent = decoded(parentEntries);
  const scale = decoded(scaleEntries);
  const out = new Map<string, Managed>();
  for (const [id, m] of parent) {
    if (!mappings.has(m.apiVersion)) continue;
    const path = mappings.get(m.apiVersion);
    if (path === null || path === undefined || !m.set.has(fieldPath(path))) {
      out.set(id, m);
      continue;
    }
    if (!scale.has(id)) {
      // The Scale's manager no longer owns replicas: the entry loses the field (and goes when nothing is left).
      const rest = m.set.difference(setOf(fieldPath(path)));
      if (!rest.empty()) out.set(id, { ...m, set: rest });
    } else {
      out.set(id, m);
      scale.delete(id);
    }
  }
  const own = mappings.get(parentGV);
  for (const [id, m] of scale) {
    if (!m.set.has(REPLICAS_IN_SCALE)) continue;
    const e: Managed = { manager: m.manager, operation: m.operation, apiVersion: parentGV, subresource: m.subresource, set: own ? setOf(fieldPath(own)) : new FieldSet() };
    const t = parent.get(id)?.time;
    if (t !== undefined) e.time = t;
    out.set(id, e);
  }
  return encodeManagedFields(out);
}
