/**
 * The structured-merge-diff type of CustomResourceDefinition objects, as the API server's typed schema
 * (apiextensions v1 Go types) gives it: structs are declared fields (so their own path is never owned
 * unless empty), `spec.versions`, `names.shortNames`/`categories`, `storedVersions` and
 * `conversionReviewVersions` are atomic lists, `status.conditions` is a map list keyed by `type`.
 * And the zero CRD a create is compared with (the Go zero value as the type converter sees it), so that
 * a create owns `f:spec` without `"."`, as Kubernetes records it.
 */
import type { JsonObject } from "../../value/json-value.js";
import { DEDUCED, OBJECT_META, SCALAR, type TypeNode } from "./type-schema.js";

function struct(fields: Record<string, TypeNode>): TypeNode {
  return { kind: "map", fields: new Map(Object.entries(fields)), atomic: false };
}

const ATOMIC_LIST: TypeNode = { kind: "list", rel: "atomic", keys: [], elem: DEDUCED };

const NAMES = struct({
  plural: SCALAR,
  singular: SCALAR,
  shortNames: ATOMIC_LIST,
  kind: SCALAR,
  listKind: SCALAR,
  categories: ATOMIC_LIST,
});

const SERVICE = struct({ namespace: SCALAR, name: SCALAR, path: SCALAR, port: SCALAR });

const CONVERSION = struct({
  strategy: SCALAR,
  webhook: struct({
    clientConfig: struct({ url: SCALAR, service: SERVICE, caBundle: SCALAR }),
    conversionReviewVersions: ATOMIC_LIST,
  }),
});

const CONDITION = struct({ type: SCALAR, status: SCALAR, lastTransitionTime: SCALAR, reason: SCALAR, message: SCALAR, observedGeneration: SCALAR });

/** The CRD type. */
export const CRD_TYPE: TypeNode = struct({
  apiVersion: SCALAR,
  kind: SCALAR,
  metadata: OBJECT_META,
  spec: struct({
    group: SCALAR,
    names: NAMES,
    scope: SCALAR,
    versions: ATOMIC_LIST,
    conversion: CONVERSION,
    preserveUnknownFields: SCALAR,
  }),
  status: struct({
    conditions: { kind: "list", rel: "map", keys: ["type"], elem: CONDITION },
    acceptedNames: NAMES,
    storedVersions: ATOMIC_LIST,
  }),
});

/** `runtime.DefaultUnstructuredConverter.ToUnstructured(&CustomResourceDefinition{})`. */
export function zeroCrd(): JsonObject {
  return {
    metadata: { creationTimestamp: null },
    spec: { group: "", names: { plural: "", kind: "" }, scope: "", versions: null },
    status: { conditions: null, acceptedNames: { plural: "", kind: "" }, storedVersions: null },
  };
}
