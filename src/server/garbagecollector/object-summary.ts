/**
 * What the garbage collector reads of a stored object (its metadata only, as kube-controller-manager's
 * metadata informers): identity, owner references, deletion state and the GC finalizers.
 */
import { isObject, type JsonObject } from "../../value/json-value.js";
import type { OwnerReference } from "../../objectmeta/types.js";
import { FINALIZER_FOREGROUND, FINALIZER_ORPHAN } from "../registry/deletion-finalizers.js";

/** One `metadata.ownerReferences` item (Go's `metav1.OwnerReference`). */
export type OwnerRef = OwnerReference;

export interface ObjectSummary {
  uid: string;
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  resourceVersion: string;
  owners: OwnerRef[];
  finalizers: string[];
  /** `deletionTimestamp` is set. */
  beingDeleted: boolean;
}

function str(o: JsonObject, k: string): string {
  const v = o[k];
  return typeof v === "string" ? v : "";
}

/** The owner references as Go decodes them (items that are not objects are skipped). */
export function ownerRefsOf(meta: JsonObject): OwnerRef[] {
  const list = meta["ownerReferences"];
  if (!Array.isArray(list)) return [];
  const out: OwnerRef[] = [];
  for (const x of list) {
    if (!isObject(x)) continue;
    const ref: OwnerRef = { apiVersion: str(x, "apiVersion"), kind: str(x, "kind"), name: str(x, "name"), uid: str(x, "uid") };
    if (typeof x["controller"] === "boolean") ref.controller = x["controller"];
    if (typeof x["blockOwnerDeletion"] === "boolean") ref.blockOwnerDeletion = x["blockOwnerDeletion"];
    out.push(ref);
  }
  return out;
}

/** The summary of a decoded object (`resourceVersion`: the store's modRevision). */
export function summarize(obj: JsonObject, modRevision: number): ObjectSummary {
  const meta = isObject(obj["metadata"]) ? obj["metadata"] : {};
  const fins = Array.isArray(meta["finalizers"]) ? meta["finalizers"].filter((f): f is string => typeof f === "string") : [];
  return {
    uid: str(meta, "uid"),
    apiVersion: str(obj, "apiVersion"),
    kind: str(obj, "kind"),
    namespace: str(meta, "namespace"),
    name: str(meta, "name"),
    resourceVersion: String(modRevision),
    owners: ownerRefsOf(meta),
    finalizers: fins,
    beingDeleted: typeof meta["deletionTimestamp"] === "string",
  };
}

/** Parses a stored value; undefined when it is not a JSON object. */
export function parseSummary(text: string, modRevision: number): ObjectSummary | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  return isObject(v as JsonObject) ? summarize(v as JsonObject, modRevision) : undefined;
}

/** Being deleted with its dependents first (`foregroundDeletion`). */
export function deletingDependents(s: ObjectSummary): boolean {
  return s.beingDeleted && s.finalizers.includes(FINALIZER_FOREGROUND);
}

/** Being deleted with its dependents orphaned (`orphan`). */
export function orphaning(s: ObjectSummary): boolean {
  return s.beingDeleted && s.finalizers.includes(FINALIZER_ORPHAN);
}

/** The quoted words of a value worth decoding (one scan of the text: three `includes` took 3x as long). */
const MAY_MATTER = new RegExp(`"(?:ownerReferences|${FINALIZER_FOREGROUND}|${FINALIZER_ORPHAN})"`);

/** A value worth decoding for the graph: it has owner references or might carry a GC finalizer. */
export function mayMatter(text: string): boolean {
  return MAY_MATTER.test(text);
}
