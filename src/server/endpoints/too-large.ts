/** Writes that etcd would refuse for their size (`isTooLargeError` in the API server's handlers). */
import { RequestTooLargeError } from "../../storage/request-size.js";
import type { JsonObject } from "../../value/json-value.js";
import { metaOf } from "../registry/object-meta.js";

/**
 * Runs a store write of `obj`; when the store refuses it for its size and `retry` holds (create, update
 * and non-apply patches), drops `metadata.managedFields` and writes once more, as the API server does
 * ("it is safe to remove managedFields (which can be large) and try again"). Works for synchronous and
 * promise-returning writes.
 */
export function writeDroppingManagedFieldsIfTooLarge<T>(retry: boolean, obj: JsonObject, write: () => T): T {
  const again = (e: unknown): T => {
    if (!(e instanceof RequestTooLargeError) || !retry) throw e;
    delete metaOf(obj)["managedFields"];
    return write();
  };
  try {
    const out = write();
    return (out instanceof Promise ? out.catch(again) : out) as T;
  } catch (e) {
    return again(e);
  }
}
