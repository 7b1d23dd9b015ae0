/**
 * The namespaces every cluster has (`default` from the bootstrap controller; `kube-system`, `kube-public`,
 * `kube-node-lease` from the system namespaces controller), created at start when missing, with the shape
 * of an ordinary create (name label, `spec.finalizers: [kubernetes]`, phase Active) and field manager
 * `kube-apiserver`. Replicas starting together may race: a namespace that exists is left alone.
 */
import { KeyExistsError, type Store } from "../../../storage/types.js";
import type { JsonObject } from "../../../value/json-value.js";
import { encodeObject } from "../../endpoints/rest-common.js";
import { trackUpdate } from "../../ssa/field-manager.js";
import { newUid, nowTimestamp } from "../object-meta.js";
import type { ResourceType } from "../resource-type.js";
import { NAMESPACES_PREFIX } from "./namespace-type.js";

export const SYSTEM_NAMESPACES = ["default", "kube-system", "kube-public", "kube-node-lease"];

/** Creates the missing system namespaces. */
export async function ensureSystemNamespaces(store: Store, rt: ResourceType): Promise<void> {
  for (const name of SYSTEM_NAMESPACES) {
    if (await store.get(NAMESPACES_PREFIX + name)) continue;
    const input: JsonObject = { apiVersion: "v1", kind: "Namespace", metadata: { name, uid: newUid(), creationTimestamp: nowTimestamp() } };
    const res = rt.admission().create(input, { fieldValidation: "Ignore" });
    if (!res.object || res.errors.length > 0) throw new Error(`system namespace ${name} was not admitted`);
    // The field manager sees the object as decoded (the name label), before the strategy adds the finalizer.
    const obj = trackUpdate(undefined, res.object, rt.smdType(), "kube-apiserver", "v1", "", ["status"]);
    rt.prepareCreate?.(obj);
    try {
      await store.create(NAMESPACES_PREFIX + name, encodeObject(obj));
    } catch (e) {
      if (!(e instanceof KeyExistsError)) throw e;
    }
  }
}
