/**
 * `--old`: matching previous versions of objects to the inputs. Both sides are keyed as the API server
 * would store them: a namespaced object without a namespace is in `default` (kubectl's default), a
 * cluster-scoped object has no namespace.
 */
import { type JsonObject, getKey, isObject } from "../value/json-value.js";

function str(o: JsonObject, k: string): string {
  const v = getKey(o, k);
  return typeof v === "string" ? v : "";
}

/** The namespace the object would be stored in. */
export function effectiveNamespace(obj: JsonObject, namespaced: boolean): string {
  if (!namespaced) return "";
  const md = getKey(obj, "metadata");
  const ns = isObject(md) ? str(md, "namespace") : "";
  return ns === "" ? "default" : ns;
}

/** The key that matches an old object to a new one: apiVersion, kind, stored namespace, name. */
export function oldObjectKey(obj: JsonObject, namespaced: boolean): string {
  const md = getKey(obj, "metadata");
  const name = isObject(md) ? str(md, "name") : "";
  return [str(obj, "apiVersion"), str(obj, "kind"), effectiveNamespace(obj, namespaced), name].join("\u0000");
}

/**
 * The old object as it is stored: a namespaced object carries its (defaulted) namespace, a cluster-scoped
 * one none, so that an update without a namespace in either manifest does not look like a namespace change.
 */
export function asStored(old: JsonObject, namespaced: boolean): JsonObject {
  const md = getKey(old, "metadata");
  if (!isObject(md)) return old;
  const ns = str(md, "namespace");
  if (namespaced && ns === "") return { ...old, metadata: { ...md, namespace: "default" } };
  if (!namespaced && ns !== "") {
    const { namespace: _dropped, ...rest } = md;
    return { ...old, metadata: rest };
  }
  return old;
}
