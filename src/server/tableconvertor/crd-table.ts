/**
 * The printer columns of CustomResourceDefinitions themselves (`kubectl get crd`): Name, Scope, Versions,
 * Created At, and with `-o wide` Group, Kind, ShortNames, Established — as the apiextensions-apiserver's
 * CRD table convertor prints them.
 */
import { isObject, type JsonObject, type JsonValue } from "../../value/json-value.js";
import { CREATION_TIMESTAMP_DESCRIPTION, type PrinterColumn } from "./table.js";

function spec(crd: JsonObject): JsonObject {
  return isObject(crd["spec"]) ? crd["spec"] : {};
}

/** Served versions, the storage version marked `(storage)`: `v1(storage),v1beta1`. */
function servedVersions(crd: JsonObject): string {
  const out: string[] = [];
  for (const v of Array.isArray(spec(crd)["versions"]) ? (spec(crd)["versions"] as JsonValue[]) : []) {
    if (!isObject(v) || v["served"] !== true || typeof v["name"] !== "string") continue;
    out.push(v["storage"] === true ? `${v["name"]}(storage)` : v["name"]);
  }
  return out.join(",");
}

function established(crd: JsonObject): boolean {
  const status = isObject(crd["status"]) ? crd["status"] : {};
  const conditions = Array.isArray(status["conditions"]) ? status["conditions"] : [];
  return conditions.some((c) => isObject(c) && c["type"] === "Established" && c["status"] === "True");
}

function names(crd: JsonObject): JsonObject {
  return isObject(spec(crd)["names"]) ? (spec(crd)["names"] as JsonObject) : {};
}

export const CRD_COLUMNS: PrinterColumn[] = [
  { name: "Scope", type: "string", format: "", description: "Cluster/Namespaced", priority: 0, jsonPath: ".spec.scope" },
  { name: "Versions", type: "string", format: "", description: "Served versions", priority: 0, jsonPath: "", compute: servedVersions },
  { name: "Created At", type: "date", format: "", description: CREATION_TIMESTAMP_DESCRIPTION, priority: 0, jsonPath: ".metadata.creationTimestamp", rawDate: true },
  { name: "Group", type: "string", format: "", description: "API group", priority: 1, jsonPath: ".spec.group" },
  { name: "Kind", type: "string", format: "", description: "CustomResource kind", priority: 1, jsonPath: ".spec.names.kind" },
  {
    name: "ShortNames",
    type: "string",
    format: "",
    description: "Short names",
    priority: 1,
    jsonPath: "",
    compute: (crd) => (Array.isArray(names(crd)["shortNames"]) ? (names(crd)["shortNames"] as JsonValue[]).filter((x) => typeof x === "string").join(",") : ""),
  },
  { name: "Established", type: "boolean", format: "", description: "Established status", priority: 1, jsonPath: "", compute: established },
];
