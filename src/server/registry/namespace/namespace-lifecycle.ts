/**
 * The NamespaceLifecycle admission plugin (`plugin/pkg/admission/namespace/lifecycle`): a create or update of
 * a namespaced object in a namespace that does not exist is 404 `namespaces "x" not found`; a create in a Terminating
 * namespace 403 `… is forbidden: unable to create new content in namespace x because it is being
 * terminated` (cause `NamespaceTerminating`); the immortal namespaces (`default`, `kube-system`,
 * `kube-public`) cannot be deleted. As the plugin, a namespace its informer (here the store's cache, when
 * it has one: the etcd watch cache) holds as Active is admitted without a read; otherwise the namespace is
 * read from the store (the plugin's live lookup), so a namespace created through any replica is seen at once.
 */
import type { Store, StoredValue } from "../../../storage/types.js";
import { isObject, type JsonObject } from "../../../value/json-value.js";
import { apiErrors, type ApiError } from "../../endpoints/errors.js";
import { parseStored } from "../../endpoints/rest-common.js";
import type { ResourceType } from "../resource-type.js";
import { PHASE_TERMINATING } from "./namespace-admission.js";
import { NAMESPACES_PREFIX } from "./namespace-type.js";

/** kube-apiserver's immortal namespaces (`--admission-control` default set). */
export const IMMORTAL_NAMESPACES: ReadonlySet<string> = new Set(["default", "kube-system", "kube-public"]);

/** `admission.NewForbidden`'s name: the object's name, else its generateName, else `Unknown`. */
function admissionName(obj: JsonObject): string {
  const meta = isObject(obj["metadata"]) ? obj["metadata"] : {};
  if (typeof meta["name"] === "string" && meta["name"] !== "") return meta["name"];
  if (typeof meta["generateName"] === "string" && meta["generateName"] !== "") return meta["generateName"];
  return "Unknown";
}

/** The phase of a stored Namespace (remembered per stored text: most creates go to a few namespaces). */
function phaseOf(sv: StoredValue): unknown {
  const hit = phases.get(sv.key);
  if (hit && hit.text === sv.value) return hit.phase;
  const ns = parseStored(sv.value);
  const phase = isObject(ns["status"]) ? ns["status"]["phase"] : undefined;
  if (phases.size >= 1024) phases.clear();
  phases.set(sv.key, { text: sv.value, phase });
  return phase;
}
const phases = new Map<string, { text: string; phase: unknown }>();

/** Admits (or refuses with the plugin's ApiError) a create or update of `obj` of `rt` in `namespace`. */
export async function admitNamespaced(store: Store, rt: ResourceType, namespace: string, operation: "create" | "update", obj: JsonObject): Promise<void> {
  if (!rt.namespaced || namespace === "") return;
  const key = NAMESPACES_PREFIX + namespace;
  const cached = store.peek?.(key)?.value;
  if (cached && phaseOf(cached) !== PHASE_TERMINATING) return;
  const sv = await store.get(key);
  if (!sv) throw apiErrors.notFound("namespaces", "", namespace);
  if (operation !== "create" || phaseOf(sv) !== PHASE_TERMINATING) return;
  const err: ApiError = apiErrors.forbiddenResource(
    rt.plural,
    rt.group,
    admissionName(obj),
    `unable to create new content in namespace ${namespace} because it is being terminated`,
  );
  (err.status.details ??= {}).causes = [
    { reason: "NamespaceTerminating", message: `namespace ${namespace} is being terminated`, field: "metadata.namespace" },
  ];
  throw err;
}

/** The plugin's delete rule for Namespaces: 403 for an immortal one. */
export function admitNamespaceDelete(name: string): void {
  if (IMMORTAL_NAMESPACES.has(name)) throw apiErrors.forbiddenResource("namespaces", "", name, "this namespace may not be deleted");
}
