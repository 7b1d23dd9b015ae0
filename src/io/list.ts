/**
 * `kind: List` expansion as kubectl's resource builder does it (FlattenListVisitor): a document whose kind
 * ends in `List` and that has an `items` array stands for its items. Kubernetes' own decoder treats any
 * document with `items` as a list; crdkit requires the `…List` kind so that custom resources with an
 * `items` field are not mistaken for lists, and lets the caller exclude kinds a CRD defines.
 */
import { type JsonValue, getKey, isObject } from "../value/json-value.js";

/** The items of a list document, or undefined when `value` is not a list. */
export function listItems(value: JsonValue | undefined, isDefinedKind?: (apiVersion: string, kind: string) => boolean): JsonValue[] | undefined {
  if (!isObject(value)) return undefined;
  const kind = getKey(value, "kind");
  const items = getKey(value, "items");
  if (typeof kind !== "string" || !kind.endsWith("List") || !Array.isArray(items)) return undefined;
  const av = getKey(value, "apiVersion");
  if (isDefinedKind?.(typeof av === "string" ? av : "", kind)) return undefined;
  return items;
}
