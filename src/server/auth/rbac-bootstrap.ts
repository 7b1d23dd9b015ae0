/**
 * The default RBAC policy kube-apiserver reconciles at start-up (`bootstrappolicy`), limited to the roles
 * a CRD server needs: `cluster-admin` (bound to `system:masters`), `system:discovery`,
 * `system:basic-user` (self reviews), `system:public-info-viewer`, with their default bindings, and the
 * aggregated `admin`/`edit`/`view` roles.
 * Missing objects are created; existing ones are left as the user changed them.
 */
import { KeyExistsError, type Store } from "../../storage/types.js";
import type { JsonObject } from "../../value/json-value.js";
import { newUid, nowTimestamp } from "../registry/object-meta.js";
import { encodeObject } from "../endpoints/rest-common.js";
import { RBAC_GROUP } from "./rbac-admission.js";
import { CLUSTER_ROLE_BINDINGS_PREFIX, CLUSTER_ROLES_PREFIX, type PolicyRuleJson } from "./rbac-policy.js";
import { ALL_AUTHENTICATED, ALL_UNAUTHENTICATED, SYSTEM_MASTERS } from "./user-info.js";

function meta(name: string, labels: Record<string, string> = {}): JsonObject {
  return {
    name,
    uid: newUid(),
    creationTimestamp: nowTimestamp(),
    labels: { "kubernetes.io/bootstrapping": "rbac-defaults", ...labels },
    annotations: { "rbac.authorization.kubernetes.io/autoupdate": "true" },
  };
}

const CLUSTER_ROLES: Record<string, PolicyRuleJson[]> = {
  "cluster-admin": [
    { verbs: ["*"], apiGroups: ["*"], resources: ["*"] },
    { verbs: ["*"], nonResourceURLs: ["*"] },
  ],
  "system:discovery": [
    {
      verbs: ["get"],
      nonResourceURLs: ["/livez", "/readyz", "/healthz", "/version", "/version/", "/openapi", "/openapi/*", "/api", "/api/*", "/apis", "/apis/*"],
    },
  ],
  "system:basic-user": [
    { verbs: ["create"], apiGroups: ["authorization.k8s.io"], resources: ["selfsubjectaccessreviews", "selfsubjectrulesreviews"] },
    { verbs: ["create"], apiGroups: ["authentication.k8s.io"], resources: ["selfsubjectreviews"] },
  ],
  "system:public-info-viewer": [{ verbs: ["get"], nonResourceURLs: ["/livez", "/readyz", "/healthz", "/version", "/version/"] }],
};

const AGG = "rbac.authorization.k8s.io/aggregate-to-";
const READ_WRITE = ["get", "list", "watch", "create", "update", "patch", "delete", "deletecollection"];

/**
 * The user-facing aggregated roles: `admin` ⊇ `edit` ⊇ `view`, filled by the aggregation controller from
 * ClusterRoles labelled `rbac.authorization.k8s.io/aggregate-to-<role>: "true"` (how CRD authors extend
 * them). Of Kubernetes' `system:aggregate-to-*` roles only the admin one grants anything crdkit serves.
 */
const AGGREGATED: Record<string, { labels: Record<string, string>; rules?: PolicyRuleJson[]; aggregate?: string }> = {
  admin: { labels: {}, aggregate: "admin" },
  edit: { labels: { [`${AGG}admin`]: "true" }, aggregate: "edit" },
  view: { labels: { [`${AGG}edit`]: "true" }, aggregate: "view" },
  "system:aggregate-to-admin": {
    labels: { [`${AGG}admin`]: "true" },
    rules: [
      { verbs: ["create"], apiGroups: ["authorization.k8s.io"], resources: ["localsubjectaccessreviews"] },
      { verbs: READ_WRITE, apiGroups: [RBAC_GROUP], resources: ["roles", "rolebindings"] },
    ],
  },
};

const BINDINGS: Record<string, string[]> = {
  "cluster-admin": [SYSTEM_MASTERS],
  "system:discovery": [ALL_AUTHENTICATED],
  "system:basic-user": [ALL_AUTHENTICATED],
  "system:public-info-viewer": [ALL_AUTHENTICATED, ALL_UNAUTHENTICATED],
};

/**
 * Creates the default cluster roles and bindings that are missing; resolves to how many this call
 * created. Idempotent and safe when several replicas start at once: an object another replica (or an
 * earlier start) created is left alone, the create of a key that appeared meanwhile is a no-op.
 */
export async function ensureBootstrapPolicy(store: Store): Promise<number> {
  const objects: [string, JsonObject][] = [];
  for (const [name, rules] of Object.entries(CLUSTER_ROLES)) {
    objects.push([CLUSTER_ROLES_PREFIX + name, { apiVersion: `${RBAC_GROUP}/v1`, kind: "ClusterRole", metadata: meta(name), rules: rules as unknown as JsonObject[] }]);
  }
  for (const [name, r] of Object.entries(AGGREGATED)) {
    const obj: JsonObject = { apiVersion: `${RBAC_GROUP}/v1`, kind: "ClusterRole", metadata: meta(name, r.labels) };
    if (r.aggregate) obj["aggregationRule"] = { clusterRoleSelectors: [{ matchLabels: { [`${AGG}${r.aggregate}`]: "true" } }] };
    if (r.rules) obj["rules"] = r.rules as unknown as JsonObject[];
    objects.push([CLUSTER_ROLES_PREFIX + name, obj]);
  }
  for (const [name, groups] of Object.entries(BINDINGS)) {
    objects.push([
      CLUSTER_ROLE_BINDINGS_PREFIX + name,
      {
        apiVersion: `${RBAC_GROUP}/v1`,
        kind: "ClusterRoleBinding",
        metadata: meta(name),
        roleRef: { apiGroup: RBAC_GROUP, kind: "ClusterRole", name },
        subjects: groups.map((g) => ({ apiGroup: RBAC_GROUP, kind: "Group", name: g })),
      },
    ]);
  }
  let created = 0;
  for (const [key, obj] of objects) {
    if (await store.get(key)) continue;
    try {
      await store.create(key, encodeObject(obj));
      created++;
    } catch (e) {
      if (!(e instanceof KeyExistsError)) throw e;
    }
  }
  return created;
}
