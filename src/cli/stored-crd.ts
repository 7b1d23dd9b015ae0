/**
 * `check --old` with a CRD file from git: such a file has no `status`, but the CRD it stands for is stored
 * in a cluster, where the API server has accepted its names and marked it Established (at once, for a
 * CRD whose names do not conflict) and recorded its storage version. Kubernetes' update validation reads
 * that status (`Established` makes `spec.scope` and `spec.names.kind` immutable and forbids a newly invalid
 * caBundle; `storedVersions` must stay served), so a status-less old file is completed as the cluster would
 * have it. An old file that carries `status.conditions` (e.g. from `kubectl get -o yaml`) is used as is.
 */
import { type JsonObject, type JsonValue, getKey, isObject } from "../value/json-value.js";

function storageVersion(spec: JsonObject): string | undefined {
  const versions = getKey(spec, "versions");
  if (Array.isArray(versions)) {
    for (const v of versions) if (isObject(v) && getKey(v, "storage") === true && typeof getKey(v, "name") === "string") return getKey(v, "name") as string;
    const first = versions[0];
    if (versions.length === 1 && isObject(first) && typeof getKey(first, "name") === "string") return getKey(first, "name") as string;
  }
  const single = getKey(spec, "version");
  return typeof single === "string" ? single : undefined;
}

/** The old CRD as stored in a cluster (see the module comment); unchanged when it has status conditions. */
export function asStoredCrd(value: JsonValue): JsonValue {
  if (!isObject(value)) return value;
  const status = getKey(value, "status");
  if (isObject(status) && Array.isArray(getKey(status, "conditions")) && (getKey(status, "conditions") as JsonValue[]).length > 0) return value;
  const spec = getKey(value, "spec");
  if (!isObject(spec)) return value;
  const names = getKey(spec, "names");
  const storage = storageVersion(spec);
  const completed: JsonObject = {
    ...(isObject(status) ? status : {}),
    conditions: [
      { type: "NamesAccepted", status: "True", reason: "NoConflicts", message: "no conflicts found" },
      { type: "Established", status: "True", reason: "InitialNamesAccepted", message: "the initial names have been accepted" },
    ],
  };
  if (isObject(names)) completed["acceptedNames"] = names;
  const prior = isObject(status) ? getKey(status, "storedVersions") : undefined;
  if (!(Array.isArray(prior) && prior.length > 0) && storage !== undefined) completed["storedVersions"] = [storage];
  return { ...value, status: completed };
}
