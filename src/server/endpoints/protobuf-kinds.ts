/**
 * The protobuf messages of the built-in kinds clients send as `application/vnd.kubernetes.protobuf` (kubectl's
 * typed clients: `kubectl create role`, `auth can-i`, `auth whoami`; client-go's generated clientsets, which
 * send protobuf by default: CustomResourceDefinitions (protobuf-crd-kind.ts) and DeleteOptions): field
 * numbers and JSON names, decoded by endpoints/protobuf-body.ts into the JSON that Go's `json.Marshal` writes of
 * the decoded struct (what the same client would have sent as JSON).
 */
import { CRD_SCHEMA } from "./protobuf-crd-kind.js";
import { OBJECT_META, type Schema } from "./protobuf-schema.js";

const POLICY_RULE: Schema = {
  1: { name: "verbs", type: "strings" },
  2: { name: "apiGroups", type: "strings" },
  3: { name: "resources", type: "strings" },
  4: { name: "resourceNames", type: "strings" },
  5: { name: "nonResourceURLs", type: "strings" },
};
const LABEL_SELECTOR: Schema = {
  1: { name: "matchLabels", type: "map" },
  2: {
    name: "matchExpressions",
    type: "messages",
    schema: { 1: { name: "key", type: "string", keepEmpty: true }, 2: { name: "operator", type: "string", keepEmpty: true }, 3: { name: "values", type: "strings" } },
  },
};
const SUBJECT: Schema = {
  1: { name: "kind", type: "string", keepEmpty: true },
  2: { name: "apiGroup", type: "string" },
  3: { name: "name", type: "string", keepEmpty: true },
  4: { name: "namespace", type: "string" },
};
const ROLE_REF: Schema = {
  1: { name: "apiGroup", type: "string", keepEmpty: true },
  2: { name: "kind", type: "string", keepEmpty: true },
  3: { name: "name", type: "string", keepEmpty: true },
};
const META = { name: "metadata", type: "message", schema: OBJECT_META } as const;
const BINDING: Schema = { 1: META, 2: { name: "subjects", type: "messages", schema: SUBJECT }, 3: { name: "roleRef", type: "message", schema: ROLE_REF } };

const NAMESPACE_CONDITION: Schema = {
  1: { name: "type", type: "string", keepEmpty: true },
  2: { name: "status", type: "string", keepEmpty: true },
  4: { name: "lastTransitionTime", type: "time" },
  5: { name: "reason", type: "string" },
  6: { name: "message", type: "string" },
};

/** meta/v1 DeleteOptions (any apiVersion: an unversioned kind of the meta scheme; client-go sends its group's). */
export const DELETE_OPTIONS_SCHEMA: Schema = {
  1: { name: "gracePeriodSeconds", type: "int64" },
  2: {
    name: "preconditions",
    type: "message",
    schema: { 1: { name: "uid", type: "string", keepEmpty: true }, 2: { name: "resourceVersion", type: "string", keepEmpty: true } },
  },
  3: { name: "orphanDependents", type: "bool" },
  4: { name: "propagationPolicy", type: "string", keepEmpty: true },
  5: { name: "dryRun", type: "strings" },
  6: { name: "ignoreStoreReadErrorWithClusterBreakingPotential", type: "bool" },
};

/** The kinds crdkit decodes from protobuf, by `apiVersion/kind`. */
export const PROTOBUF_KINDS: Record<string, Schema> = {
  "apiextensions.k8s.io/v1/CustomResourceDefinition": CRD_SCHEMA,
  "v1/Namespace": {
    1: META,
    2: { name: "spec", type: "message", schema: { 1: { name: "finalizers", type: "strings" } } },
    3: {
      name: "status",
      type: "message",
      schema: { 1: { name: "phase", type: "string" }, 2: { name: "conditions", type: "messages", schema: NAMESPACE_CONDITION } },
    },
  },
  "rbac.authorization.k8s.io/v1/Role": { 1: META, 2: { name: "rules", type: "messages", schema: POLICY_RULE } },
  "rbac.authorization.k8s.io/v1/ClusterRole": {
    1: META,
    2: { name: "rules", type: "messages", schema: POLICY_RULE },
    3: { name: "aggregationRule", type: "message", schema: { 1: { name: "clusterRoleSelectors", type: "messages", schema: LABEL_SELECTOR } } },
  },
  "rbac.authorization.k8s.io/v1/RoleBinding": BINDING,
  "rbac.authorization.k8s.io/v1/ClusterRoleBinding": BINDING,
  "authorization.k8s.io/v1/SelfSubjectAccessReview": {
    1: META,
    2: {
      name: "spec",
      type: "message",
      schema: {
        1: {
          name: "resourceAttributes",
          type: "message",
          schema: {
            1: { name: "namespace", type: "string" },
            2: { name: "verb", type: "string" },
            3: { name: "group", type: "string" },
            4: { name: "version", type: "string" },
            5: { name: "resource", type: "string" },
            6: { name: "subresource", type: "string" },
            7: { name: "name", type: "string" },
          },
        },
        2: { name: "nonResourceAttributes", type: "message", schema: { 1: { name: "path", type: "string" }, 2: { name: "verb", type: "string" } } },
      },
    },
  },
  "authorization.k8s.io/v1/SelfSubjectRulesReview": { 1: META, 2: { name: "spec", type: "message", schema: { 1: { name: "namespace", type: "string" } } } },
  "authentication.k8s.io/v1/SelfSubjectReview": { 1: META },
};

