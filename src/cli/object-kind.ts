/**
 * Is a document a Kubernetes object? kubectl (with its default `--validate`) refuses a document without
 * a string `apiVersion` and `kind` before sending it: `error validating data: [apiVersion not set, kind
 * not set]` (one problem is printed without brackets, as Go's `utilerrors.NewAggregate` does).
 */
import { type JsonObject, getKey } from "../value/json-value.js";

/** kubectl's text for a document that is not a Kubernetes object, or undefined when it is one. */
export function notAnObjectMessage(obj: JsonObject): string | undefined {
  const errs: string[] = [];
  const apiVersion = getKey(obj, "apiVersion");
  if (apiVersion === undefined || apiVersion === null) errs.push("apiVersion not set");
  else if (typeof apiVersion !== "string") errs.push("apiVersion isn't string type");
  else if (apiVersion.split("/").length > 2) errs.push(`unexpected GroupVersion string: ${apiVersion}`);
  const kind = getKey(obj, "kind");
  if (kind === undefined || kind === null) errs.push("kind not set");
  else if (typeof kind !== "string") errs.push("kind isn't string type");
  if (errs.length === 0) return undefined;
  return `error validating data: ${errs.length === 1 ? errs[0] : `[${errs.join(", ")}]`}`;
}
