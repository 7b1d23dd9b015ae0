/**
 * JSON and merge patches of a typed object (CRDs) as the API server's patch handler runs them: the current object
 * is encoded as Go encodes its struct (`goOrdered`), json-patch v4 applies the patch (the objects it walks or
 * merges print with sorted keys, everything else as it was) and the patched text is decoded into the Go type.
 * The text matters twice: it is the value of the 422 on field `patch` when it does not decode, and its key order
 * decides which decoding error Go reports first (the first in the document).
 */
import { isObject, setKey, type JsonObject, type JsonValue } from "../../value/json-value.js";
import { jsonPatch, mergePatch } from "./patch.js";
import { markJsonPatchPaths, marshalPatched, mergePatchSorted, type SortedObjects } from "./scale-patch.js";

/** The patched document of a typed object: its text and its value with the keys in the text's order. */
export interface TypedPatched {
  value: JsonValue;
  text: string;
}

/** `v` rebuilt with the keys of the objects in `sorted` in sorted order (as `marshalPatched` prints them). */
function inTextOrder(v: JsonValue, sorted: SortedObjects): JsonValue {
  if (Array.isArray(v)) return v.map((x) => inTextOrder(x, sorted));
  if (!isObject(v)) return v;
  const out: JsonObject = {};
  const keys = sorted.has(v) ? Object.keys(v).sort() : Object.keys(v);
  for (const k of keys) setKey(out, k, inTextOrder(v[k]!, sorted));
  return out;
}

/**
 * A merge (`application/merge-patch+json`) or JSON patch of `old` (a stored typed object) whose Go encoding
 * `goOrdered` gives; throws what `mergePatch`/`jsonPatch` throw (`decodeOps`: as `JsonPatchLimits` says).
 */
export function typedPatched(
  goOrdered: (obj: JsonObject, maps: SortedObjects) => JsonObject,
  type: string,
  old: JsonObject,
  patch: JsonValue,
  decodeOps = true,
): TypedPatched {
  const sorted: SortedObjects = new WeakSet();
  const base = goOrdered(old, sorted);
  let patched: JsonValue;
  if (type === "application/merge-patch+json") patched = isObject(patch) ? mergePatchSorted(base, patch, sorted) : mergePatch(base, patch);
  else {
    patched = jsonPatch(base, patch, { decodeOps });
    markJsonPatchPaths(patched, patch, sorted);
  }
  return { value: inTextOrder(patched, sorted), text: marshalPatched(patched, sorted) };
}
