/** Shared OpenAPI v3 component schemas: ObjectMeta, ListMeta, Patch, Status, DeleteOptions, Scale. */
import type { JsonObject } from "../../value/json-value.js";

export const META = "io.k8s.apimachinery.pkg.apis.meta.v1";
export const OBJECT_META = `${META}.ObjectMeta`;
export const LIST_META = `${META}.ListMeta`;
export const SCALE = "io.k8s.api.autoscaling.v1.Scale";

const str = (description: string): JsonObject => ({ type: "string", description });
const strMap = (description: string): JsonObject => ({ type: "object", description, additionalProperties: { type: "string", default: "" } });

/** Component schemas every group-version document carries. */
export function sharedSchemas(withScale: boolean): Record<string, JsonObject> {
  const out: Record<string, JsonObject> = {
    [OBJECT_META]: {
      description: "Metadata that every persisted resource has: identity, labels, annotations and bookkeeping written by the server.",
      type: "object",
      properties: {
        annotations: strMap("Unstructured key/value data stored with the object; not queryable."),
        creationTimestamp: { type: "string", format: "date-time", description: "When the server created the object (RFC 3339, UTC). Read-only." },
        deletionGracePeriodSeconds: { type: "integer", format: "int64", description: "Seconds allowed for graceful termination. Read-only." },
        deletionTimestamp: { type: "string", format: "date-time", description: "When deletion was requested (RFC 3339). Read-only." },
        finalizers: {
          type: "array",
          description: "Entries that must be removed before the object is deleted from the registry.",
          items: { type: "string", default: "" },
          "x-kubernetes-list-type": "set",
        },
        generateName: str("A prefix the server uses to generate a unique name when name is empty."),
        generation: { type: "integer", format: "int64", description: "A sequence number for the desired state, incremented on spec changes. Read-only." },
        labels: strMap("Key/value pairs used to organize and select objects."),
        managedFields: { type: "array", description: "Field ownership records of server-side apply.", items: { type: "object" } },
        name: str("The object's name, unique within a namespace (or the cluster, for cluster-scoped resources). Cannot be updated."),
        namespace: str("The namespace the object lives in; empty for cluster-scoped resources. Cannot be updated."),
        ownerReferences: { type: "array", description: "Objects this object depends on.", items: { type: "object" } },
        resourceVersion: str("An opaque value identifying the object's version, used for optimistic concurrency and watches. Read-only."),
        selfLink: str("Deprecated; not set by the server."),
        uid: str("The unique id of this object in time and space, set by the server. Read-only."),
      },
    },
    [LIST_META]: {
      description: "Metadata of lists: resourceVersion and continue token.",
      type: "object",
      properties: {
        continue: str("Token to fetch the next page of a limited list."),
        remainingItemCount: { type: "integer", format: "int64", description: "Number of items after this page, when known." },
        resourceVersion: str("The version the list was read at."),
        selfLink: str("Deprecated; not set by the server."),
      },
    },
    [`${META}.Patch`]: { description: "A patch document (JSON patch, merge patch or apply configuration).", type: "object" },
    [`${META}.Status`]: {
      description: "The result of an operation that does not return an object.",
      type: "object",
      properties: {
        apiVersion: { type: "string" },
        code: { type: "integer", format: "int32" },
        details: { type: "object" },
        kind: { type: "string" },
        message: { type: "string" },
        metadata: { allOf: [{ $ref: `#/components/schemas/${LIST_META}` }], default: {} },
        reason: { type: "string" },
        status: { type: "string" },
      },
    },
    [`${META}.DeleteOptions`]: {
      description: "Options of a delete request.",
      type: "object",
      properties: {
        apiVersion: { type: "string" },
        dryRun: { type: "array", items: { type: "string", default: "" } },
        gracePeriodSeconds: { type: "integer", format: "int64" },
        kind: { type: "string" },
        preconditions: { type: "object" },
        propagationPolicy: { type: "string" },
      },
    },
  };
  if (withScale) {
    out[SCALE] = {
      description: "The scale of a resource (autoscaling/v1).",
      type: "object",
      properties: {
        apiVersion: { type: "string" },
        kind: { type: "string" },
        metadata: { allOf: [{ $ref: `#/components/schemas/${OBJECT_META}` }], default: {} },
        spec: { type: "object", properties: { replicas: { type: "integer", format: "int32" } } },
        status: {
          type: "object",
          required: ["replicas"],
          properties: { replicas: { type: "integer", format: "int32", default: 0 }, selector: { type: "string" } },
        },
      },
      "x-kubernetes-group-version-kind": [{ group: "autoscaling", kind: "Scale", version: "v1" }],
    };
  }
  return out;
}
