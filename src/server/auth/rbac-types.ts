/**
 * `rbac.authorization.k8s.io/v1` Roles, ClusterRoles, RoleBindings and ClusterRoleBindings served as
 * built-in resource types, stored under Kubernetes' keys (`/registry/roles/<ns>/<name>`, …), with
 * kubectl's printer columns.
 */
import { isObject, type JsonObject, type JsonValue } from "../../value/json-value.js";
import { createHash } from "node:crypto";
import type { PipelineResult } from "../../pipeline/types.js";
import { type Admission, type ResourceType, storageVersionHash } from "../registry/resource-type.js";
import { rootType, type TypeNode } from "../ssa/type-schema.js";
import { TableConvertor, type PrinterColumn } from "../tableconvertor/table.js";
import { RBAC_GROUP, rbacAdmission, type RbacKind } from "./rbac-admission.js";
import { checkEscalation } from "./rbac-escalation.js";
import { strategicMergePatch } from "./strategic-merge.js";
import { bindingOf, CLUSTER_ROLE_BINDINGS_PREFIX, CLUSTER_ROLES_PREFIX, ROLE_BINDINGS_PREFIX, ROLES_PREFIX } from "./rbac-policy.js";

const CREATED_AT: PrinterColumn = {
  name: "Created At",
  type: "date",
  format: "",
  description: "",
  priority: 0,
  jsonPath: ".metadata.creationTimestamp",
  rawDate: true,
};

const AGE: PrinterColumn = { name: "Age", type: "date", format: "", description: "", priority: 0, jsonPath: ".metadata.creationTimestamp" };

function subjectsColumn(name: string, kind: string): PrinterColumn {
  return {
    name,
    type: "string",
    format: "",
    description: "",
    priority: 1,
    jsonPath: ".subjects",
    compute: (o: JsonObject): JsonValue =>
      bindingOf(o)
        .subjects.filter((s) => s.kind === kind)
        .map((s) => (kind === "ServiceAccount" ? `${s.namespace}/${s.name}` : s.name))
        .join(", "),
  };
}

const BINDING_COLUMNS: PrinterColumn[] = [
  {
    name: "Role",
    type: "string",
    format: "",
    description: "",
    priority: 0,
    jsonPath: ".roleRef",
    compute: (o: JsonObject) => {
      const r = isObject(o["roleRef"]) ? o["roleRef"] : {};
      return `${typeof r["kind"] === "string" ? r["kind"] : ""}/${typeof r["name"] === "string" ? r["name"] : ""}`;
    },
  },
  AGE,
  subjectsColumn("Users", "User"),
  subjectsColumn("Groups", "Group"),
  subjectsColumn("ServiceAccounts", "ServiceAccount"),
];

/** Decoding (400) first, then escalation prevention (403), then validation (422), as the RBAC storages. */
function guarded(kind: RbacKind, plural: string): Admission {
  const base = rbacAdmission(kind);
  const check = (res: PipelineResult, old: JsonObject | undefined): PipelineResult => {
    if (res.object && res.decodeError === undefined) checkEscalation(kind, plural, res.object, old);
    return res;
  };
  return {
    create: (obj, opts) => check(base.create(obj, opts), undefined),
    update: (obj, old, opts) => check(base.update(obj, old, opts), old),
    updateStatus: (obj, old, opts) => check(base.updateStatus(obj, old, opts), old),
  };
}

function rbacType(kind: RbacKind, plural: string, prefix: string, columns: PrinterColumn[]): ResourceType {
  const admission = guarded(kind, plural);
  let smd: TypeNode | undefined;
  return {
    group: RBAC_GROUP,
    version: "v1",
    plural,
    singular: kind.toLowerCase(),
    kind,
    listKind: `${kind}List`,
    namespaced: kind === "Role" || kind === "RoleBinding",
    shortNames: [],
    categories: [],
    status: false,
    table: new TableConvertor(columns),
    selectableFields: new Map(),
    storagePrefix: prefix,
    storageVersionHash: storageVersionHash(RBAC_GROUP, "v1", kind, (t) => createHash("sha256").update(t).digest()),
    terminating: false,
    admission: () => admission,
    strategicMergePatch,
    smdType: () => (smd ??= rootType(undefined)),
  };
}

/** The four RBAC resource types. */
export function rbacResourceTypes(): ResourceType[] {
  return [
    rbacType("ClusterRoleBinding", "clusterrolebindings", CLUSTER_ROLE_BINDINGS_PREFIX, BINDING_COLUMNS),
    rbacType("ClusterRole", "clusterroles", CLUSTER_ROLES_PREFIX, [CREATED_AT]),
    rbacType("RoleBinding", "rolebindings", ROLE_BINDINGS_PREFIX, BINDING_COLUMNS),
    rbacType("Role", "roles", ROLES_PREFIX, [CREATED_AT]),
  ];
}
