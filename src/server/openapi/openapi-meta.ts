/** Shared OpenAPI v3 component schemas: the published meta.k8s.io ones (ObjectMeta, ListMeta, Status, DeleteOptions…) and Scale. */
import type { JsonObject } from "../../value/json-value.js";
import { PUBLISHED_META_SCHEMAS } from "./published-meta-schemas.js";

export const META = "io.k8s.apimachinery.pkg.apis.meta.v1";
export const OBJECT_META = `${META}.ObjectMeta`;
export const LIST_META = `${META}.ListMeta`;
export const SCALE = "io.k8s.api.autoscaling.v1.Scale";

/** Component schemas every group-version document carries (the meta.k8s.io ones as Kubernetes publishes them). */
export function sharedSchemas(withScale: boolean): Record<string, JsonObject> {
  const out: Record<string, JsonObject> = structuredClone(PUBLISHED_META_SCHEMAS);
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
