/**
 * `v1` Namespaces served as a built-in resource type: stored under kube-apiserver's key
 * (`/registry/namespaces/<name>`), short name `ns`, kubectl's columns (NAME, STATUS, AGE), the `/status`
 * and `/finalize` subresources, and the REST storage's deletion rule (`pkg/registry/core/namespace/storage`):
 * the first DELETE only marks the namespace (deletionTimestamp, phase Terminating) and answers it; while
 * `spec.finalizers` is not empty a DELETE answers 409; the namespace controller empties it.
 */
import { createHash } from "node:crypto";
import { isObject, type JsonObject, type JsonValue } from "../../../value/json-value.js";
import { strategicMergePatch } from "../../auth/strategic-merge.js";
import { rootType, type TypeNode } from "../../ssa/type-schema.js";
import { compileJsonPath } from "../../tableconvertor/jsonpath.js";
import { humanAge } from "../../tableconvertor/human-duration.js";
import { CREATION_TIMESTAMP_DESCRIPTION, TableConvertor, type PrinterColumn } from "../../tableconvertor/table.js";
import { metaOf, nowTimestamp } from "../object-meta.js";
import { type ResourceType, storageVersionHash } from "../resource-type.js";
import { addKubernetesFinalizer, namespaceAdmission, PHASE_TERMINATING } from "./namespace-admission.js";

/** Storage prefix of Namespace objects (kube-apiserver's key). */
export const NAMESPACES_PREFIX = "/registry/namespaces/";

/** Verbs of the namespaces resource (no deletecollection). */
export const NAMESPACE_VERBS = ["create", "delete", "get", "list", "patch", "update", "watch"];

/** The 409 text of a DELETE while the namespace controller has not finished. */
export const NAMESPACE_PURGE_PENDING =
  "The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.";

/** The namespace printer's columns after Name (`pkg/printers/internalversion`). */
const COLUMNS: PrinterColumn[] = [
  {
    name: "Status",
    type: "string",
    format: "",
    description: "The status of the namespace",
    priority: 0,
    jsonPath: ".status.phase",
    compute: (o: JsonObject): JsonValue => (isObject(o["status"]) && typeof o["status"]["phase"] === "string" ? o["status"]["phase"] : ""),
  },
  {
    name: "Age",
    type: "string",
    format: "",
    description: CREATION_TIMESTAMP_DESCRIPTION,
    priority: 0,
    jsonPath: ".metadata.creationTimestamp",
    compute: (o: JsonObject): JsonValue => {
      const t = metaOf(o)["creationTimestamp"];
      return typeof t === "string" ? humanAge(t) : "<unknown>";
    },
  },
];

/** `spec.finalizers` of a Namespace. */
export function specFinalizers(obj: JsonObject): string[] {
  const spec = isObject(obj["spec"]) ? obj["spec"] : {};
  return Array.isArray(spec["finalizers"]) ? spec["finalizers"].filter((f): f is string => typeof f === "string") : [];
}

/** The first DELETE of a namespace: deletionTimestamp set, phase Terminating (`REST.Delete`). */
export function markNamespaceDeleting(obj: JsonObject): void {
  const meta = metaOf(obj);
  if (typeof meta["deletionTimestamp"] !== "string") meta["deletionTimestamp"] = nowTimestamp();
  const status = isObject(obj["status"]) ? obj["status"] : (obj["status"] = {});
  status["phase"] = PHASE_TERMINATING;
}

/** The Namespace resource type. */
export function namespaceResourceType(): ResourceType {
  const admission = namespaceAdmission();
  let smd: TypeNode | undefined;
  return {
    group: "",
    version: "v1",
    plural: "namespaces",
    singular: "namespace",
    kind: "Namespace",
    listKind: "NamespaceList",
    namespaced: false,
    shortNames: ["ns"],
    categories: [],
    status: true,
    verbs: NAMESPACE_VERBS,
    table: new TableConvertor(COLUMNS),
    // `namespace.GetAttrs`: metadata.name and status.phase.
    selectableFields: new Map([["status.phase", compileJsonPath(".status.phase")!]]),
    extraSubresources: [{ name: "finalize", verbs: ["update"] }],
    storagePrefix: NAMESPACES_PREFIX,
    storageVersionHash: storageVersionHash("", "v1", "Namespace", (t) => createHash("sha256").update(t).digest()),
    terminating: false,
    returnDeletedObject: true,
    unconditionalUpdate: true,
    prepareCreate: addKubernetesFinalizer,
    markForDeletion: markNamespaceDeleting,
    deletionHeld: (obj) => (specFinalizers(obj).length > 0 ? NAMESPACE_PURGE_PENDING : undefined),
    admission: () => admission,
    strategicMergePatch,
    smdType: () => (smd ??= rootType(undefined)),
  };
}
