/**
 * The generic registry's deletion finalizers for the garbage collector (`deletionFinalizersForGarbageCollection`,
 * `shouldOrphanDependents`, `shouldDeleteDependents` of k8s.io/apiserver's registry store): a DELETE's
 * propagation decides whether the object gets the `orphan` or the `foregroundDeletion` finalizer. In order of
 * priority: the legacy `orphanDependents` field, `propagationPolicy`, a GC finalizer the object already carries,
 * then the strategy's default (custom resources, CRDs and RBAC objects have none: neither finalizer).
 */

export const FINALIZER_ORPHAN = "orphan";
export const FINALIZER_FOREGROUND = "foregroundDeletion";

export interface PropagationOptions {
  orphanDependents?: boolean;
  propagationPolicy?: string;
}

function shouldOrphan(finalizers: string[], o: PropagationOptions): boolean {
  if (o.orphanDependents !== undefined) return o.orphanDependents;
  if (o.propagationPolicy === "Orphan") return true;
  if (o.propagationPolicy === "Background" || o.propagationPolicy === "Foreground") return false;
  for (const f of finalizers) {
    if (f === FINALIZER_ORPHAN) return true;
    if (f === FINALIZER_FOREGROUND) return false;
  }
  return false;
}

function shouldDeleteDependents(finalizers: string[], o: PropagationOptions): boolean {
  if (o.orphanDependents !== undefined) return false;
  if (o.propagationPolicy === "Foreground") return true;
  if (o.propagationPolicy === "Background" || o.propagationPolicy === "Orphan") return false;
  for (const f of finalizers) {
    if (f === FINALIZER_FOREGROUND) return true;
    if (f === FINALIZER_ORPHAN) return false;
  }
  return false;
}

/**
 * The finalizers a DELETE leaves on an object: both GC finalizers removed, then `orphan` and/or
 * `foregroundDeletion` appended as the options ask. `changed` is false when the set is the same as before
 * (the object's list is then kept as it is).
 */
export function deletionFinalizers(finalizers: string[], o: PropagationOptions): { changed: boolean; finalizers: string[] } {
  const next = finalizers.filter((f) => f !== FINALIZER_ORPHAN && f !== FINALIZER_FOREGROUND);
  if (shouldOrphan(finalizers, o)) next.push(FINALIZER_ORPHAN);
  if (shouldDeleteDependents(finalizers, o)) next.push(FINALIZER_FOREGROUND);
  const before = new Set(finalizers);
  const after = new Set(next);
  const same = before.size === after.size && [...before].every((f) => after.has(f));
  return same ? { changed: false, finalizers } : { changed: true, finalizers: next };
}
