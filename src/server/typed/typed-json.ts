/**
 * JSON answers of typed objects in Go's struct field order (what the API server's encoder writes for the Go
 * types it serves), chosen by the object's kind and apiVersion; custom resources (unstructured: sorted keys,
 * as encoding/json writes maps) have no shape here.
 */
import { goJsonMarshalStruct, type GoShape } from "../../go/json-struct.js";
import { isObject, type JsonObject, type JsonValue } from "../../value/json-value.js";
import { CRD_SHAPE } from "../registry/crd-go-order.js";
import * as shapes from "./go-shapes.js";

/** A Table row's object: a typed object in its struct order, anything else (a custom resource) sorted. */
const ROW_OBJECT: GoShape = { pick: (o) => typedShape(o) ?? "any" };
const TABLE = shapes.table(ROW_OBJECT);

const META = ["meta.k8s.io/v1", "meta.k8s.io/v1beta1"];
const DISCOVERY = ["apidiscovery.k8s.io/v2", "apidiscovery.k8s.io/v2beta1"];
const RBAC = "rbac.authorization.k8s.io/v1";
/** Discovery documents of the legacy format, some written without apiVersion. */
const LEGACY_DISCOVERY = [undefined, "v1"];

/** kind → the apiVersions it is typed in → its shape. */
const BY_KIND = new Map<string, Map<string | undefined, GoShape>>();
function add(kind: string, apiVersions: readonly (string | undefined)[], shape: GoShape): void {
  const m = BY_KIND.get(kind) ?? new Map<string | undefined, GoShape>();
  for (const v of apiVersions) m.set(v, shape);
  BY_KIND.set(kind, m);
}
add("CustomResourceDefinition", ["apiextensions.k8s.io/v1"], CRD_SHAPE);
add("CustomResourceDefinitionList", ["apiextensions.k8s.io/v1"], shapes.listOf(CRD_SHAPE));
add("APIVersions", LEGACY_DISCOVERY, shapes.API_VERSIONS);
add("APIGroupList", LEGACY_DISCOVERY, shapes.API_GROUP_LIST);
add("APIGroup", LEGACY_DISCOVERY, shapes.API_GROUP);
add("APIResourceList", LEGACY_DISCOVERY, shapes.API_RESOURCE_LIST);
add("APIGroupDiscoveryList", DISCOVERY, shapes.API_GROUP_DISCOVERY_LIST);
add("Table", META, TABLE);
add("PartialObjectMetadata", META, shapes.PARTIAL_OBJECT_METADATA);
add("PartialObjectMetadataList", META, shapes.PARTIAL_OBJECT_METADATA_LIST);
add("Scale", ["autoscaling/v1"], shapes.SCALE);
add("Namespace", ["v1"], shapes.NAMESPACE);
add("NamespaceList", ["v1"], shapes.listOf(shapes.NAMESPACE));
for (const [kind, shape] of [
  ["Role", shapes.ROLE],
  ["ClusterRole", shapes.CLUSTER_ROLE],
  ["RoleBinding", shapes.ROLE_BINDING],
  ["ClusterRoleBinding", shapes.ROLE_BINDING],
] as const) {
  add(kind, [RBAC], shape);
  add(`${kind}List`, [RBAC], shapes.listOf(shape));
}
add("SelfSubjectReview", ["authentication.k8s.io/v1"], shapes.SELF_SUBJECT_REVIEW);
add("SelfSubjectAccessReview", ["authorization.k8s.io/v1"], shapes.SELF_SUBJECT_ACCESS_REVIEW);
add("SelfSubjectRulesReview", ["authorization.k8s.io/v1"], shapes.SELF_SUBJECT_RULES_REVIEW);

/** The Go type shape of a typed object the server answers, by its kind and apiVersion (undefined: unstructured). */
export function typedShape(o: JsonObject): GoShape | undefined {
  const kind = o["kind"];
  if (typeof kind !== "string") return undefined;
  const m = BY_KIND.get(kind);
  if (m === undefined) return undefined;
  const apiVersion = o["apiVersion"];
  return m.get(typeof apiVersion === "string" ? apiVersion : undefined);
}

/** The JSON text of `v` in Go's struct order when it is a typed object, else undefined. */
export function typedJson(v: JsonValue): string | undefined {
  if (!isObject(v)) return undefined;
  const shape = typedShape(v);
  return shape === undefined ? undefined : goJsonMarshalStruct(v, shape);
}

/** `/version` as the API server writes version.Info: struct order, indented by two spaces. */
export { VERSION_INFO } from "./go-shapes.js";
