/**
 * The Go struct shapes (JSON field names in declaration order) of the typed objects the API server answers
 * besides CRDs and Status: discovery documents (k8s.io/apimachinery meta/v1, k8s.io/api apidiscovery/v2),
 * Table and PartialObjectMetadata (meta/v1), Scale (autoscaling/v1), Namespace (core/v1), RBAC (rbac/v1) and
 * the self reviews (authentication/v1, authorization/v1), and version.Info.
 */
import { goStruct, type GoShape } from "../../go/json-struct.js";
import { OBJECT_META_SHAPE } from "../registry/crd-go-order.js";

const s = goStruct;
const TYPE_META = ["kind", "apiVersion"] as const;
const LIST_META = s(["selfLink", "resourceVersion", "continue", "remainingItemCount", "shardInfo"]);
const META = OBJECT_META_SHAPE;

/** A typed object: TypeMeta, metadata (ObjectMeta), then its own fields. */
const object = (fields: (string | readonly [string, GoShape])[]): GoShape => s([...TYPE_META, ["metadata", META], ...fields]);
/** A typed list of `item`s. */
export const listOf = (item: GoShape): GoShape => s([...TYPE_META, ["metadata", LIST_META], ["items", item]]);

// Discovery (meta/v1).
const SERVER_ADDRESS = s(["clientCIDR", "serverAddress"]);
const GROUP_VERSION = s(["groupVersion", "version"]);
export const API_VERSIONS = s([...TYPE_META, "versions", ["serverAddressByClientCIDRs", SERVER_ADDRESS]]);
export const API_GROUP = s([...TYPE_META, "name", ["versions", GROUP_VERSION], ["preferredVersion", GROUP_VERSION], ["serverAddressByClientCIDRs", SERVER_ADDRESS]]);
export const API_GROUP_LIST = s([...TYPE_META, ["groups", API_GROUP]]);
const API_RESOURCE = s(["name", "singularName", "namespaced", "group", "version", "kind", "verbs", "shortNames", "categories", "storageVersionHash"]);
export const API_RESOURCE_LIST = s([...TYPE_META, "groupVersion", ["resources", API_RESOURCE]]);

// Aggregated discovery (apidiscovery/v2 and v2beta1).
const GVK = s(["group", "version", "kind"]);
const SUBRESOURCE_DISCOVERY = s(["subresource", ["responseKind", GVK], ["acceptedTypes", GVK], "verbs"]);
const RESOURCE_DISCOVERY = s(["resource", ["responseKind", GVK], "scope", "singularResource", "verbs", "shortNames", "categories", ["subresources", SUBRESOURCE_DISCOVERY]]);
const VERSION_DISCOVERY = s(["version", ["resources", RESOURCE_DISCOVERY], "freshness"]);
export const API_GROUP_DISCOVERY_LIST = listOf(object([["versions", VERSION_DISCOVERY]]));

/** version.Info (`/version`). */
export const VERSION_INFO = s([
  "major", "minor", "emulationMajor", "emulationMinor", "minCompatibilityMajor", "minCompatibilityMinor",
  "gitVersion", "gitCommit", "gitTreeState", "buildDate", "goVersion", "compiler", "platform",
]);

/** Table; `row` is the shape of a row's embedded object (a RawExtension: whatever object it holds). */
export const table = (row: GoShape): GoShape =>
  s([
    ...TYPE_META,
    ["metadata", LIST_META],
    ["columnDefinitions", s(["name", "type", "format", "description", "priority"])],
    ["rows", s(["cells", ["conditions", s(["type", "status", "reason", "message"])], ["object", row]])],
  ]);
export const PARTIAL_OBJECT_METADATA = object([]);
export const PARTIAL_OBJECT_METADATA_LIST = listOf(PARTIAL_OBJECT_METADATA);

/** autoscaling/v1 Scale. */
export const SCALE = object([["spec", s(["replicas"])], ["status", s(["replicas", "selector"])]]);

/** core/v1 Namespace. */
export const NAMESPACE = object([
  ["spec", s(["finalizers"])],
  ["status", s(["phase", ["conditions", s(["type", "status", "lastTransitionTime", "reason", "message"])]])],
]);

// rbac/v1.
const POLICY_RULE = s(["verbs", "apiGroups", "resources", "resourceNames", "nonResourceURLs"]);
const LABEL_SELECTOR = s([["matchLabels", { map: "any" }], ["matchExpressions", s(["key", "operator", "values"])]]);
const SUBJECT = s(["kind", "apiGroup", "name", "namespace"]);
const ROLE_REF = s(["apiGroup", "kind", "name"]);
export const ROLE = object([["rules", POLICY_RULE]]);
export const CLUSTER_ROLE = object([["rules", POLICY_RULE], ["aggregationRule", s([["clusterRoleSelectors", LABEL_SELECTOR]])]]);
export const ROLE_BINDING = object([["subjects", SUBJECT], ["roleRef", ROLE_REF]]);

// authentication/v1 and authorization/v1 self reviews.
const USER_INFO = s(["username", "uid", "groups", ["extra", { map: "any" }]]);
export const SELF_SUBJECT_REVIEW = object([["status", s([["userInfo", USER_INFO]])]]);
const REQUIREMENT = s(["key", "operator", "values"]);
const SELECTOR_ATTRIBUTES = s(["rawSelector", ["requirements", REQUIREMENT]]);
const RESOURCE_ATTRIBUTES = s([
  "namespace", "verb", "group", "version", "resource", "subresource", "name", ["fieldSelector", SELECTOR_ATTRIBUTES], ["labelSelector", SELECTOR_ATTRIBUTES],
]);
export const SELF_SUBJECT_ACCESS_REVIEW = object([
  ["spec", s([["resourceAttributes", RESOURCE_ATTRIBUTES], ["nonResourceAttributes", s(["path", "verb"])]])],
  ["status", s(["allowed", "denied", "reason", "evaluationError"])],
]);
export const SELF_SUBJECT_RULES_REVIEW = object([
  ["spec", s(["namespace"])],
  [
    "status",
    s([["resourceRules", s(["verbs", "apiGroups", "resources", "resourceNames"])], ["nonResourceRules", s(["verbs", "nonResourceURLs"])], "incomplete", "evaluationError"]),
  ],
]);
