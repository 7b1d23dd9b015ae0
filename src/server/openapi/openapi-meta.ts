/** Shared OpenAPI v3 component schemas: the published meta.k8s.io ones (ObjectMeta, ListMeta, Status, DeleteOptions…) and autoscaling/v1 Scale. */
import { PUBLISHED_META_SCHEMAS, PUBLISHED_SCALE_SCHEMAS } from "./published-meta-schemas.js";
import { schemaJson } from "./schema-json.js";

export const META = "io.k8s.apimachinery.pkg.apis.meta.v1";
export const OBJECT_META = `${META}.ObjectMeta`;
export const LIST_META = `${META}.ListMeta`;
export const SCALE = "io.k8s.api.autoscaling.v1.Scale";

let metaTexts: Map<string, string> | undefined;
let scaleTexts: Map<string, string> | undefined;

/**
 * The JSON texts of the component schemas every group-version document carries (the meta.k8s.io ones as Kubernetes
 * publishes them) and, with a scale subresource, the autoscaling/v1 Scale ones; written once, on first need.
 */
export function sharedSchemaTexts(withScale: boolean): Map<string, string> {
  metaTexts ??= new Map(Object.entries(PUBLISHED_META_SCHEMAS).map(([k, v]) => [k, schemaJson(v)]));
  if (!withScale) return metaTexts;
  scaleTexts ??= new Map([...metaTexts, ...Object.entries(PUBLISHED_SCALE_SCHEMAS).map(([k, v]): [string, string] => [k, schemaJson(v)])]);
  return scaleTexts;
}
