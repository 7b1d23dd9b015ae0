/**
 * The namespace controller's deletion (`pkg/controller/namespace/deletion`): for every namespace marked for
 * deletion that still carries the `kubernetes` finalizer, delete every object of every namespaced resource
 * in it (custom resources of each namespaced CRD, Roles, RoleBindings) the way a DELETE does (objects with
 * finalizers are only marked and waited for), record the five deletion conditions on its status as the
 * controller does (`NamespaceContentRemaining` / `NamespaceFinalizersRemaining` with Kubernetes' texts),
 * and once nothing remains remove the `kubernetes` finalizer — the namespace is then deleted for good when no
 * other finalizer remains (`ShouldDeleteNamespaceDuringUpdate`). Passes are idempotent compare-and-swap
 * writes, so every replica may run the controller; they re-run while content remains.
 */
import { KeyNotFoundError, RevisionConflictError, type Store } from "../../storage/types.js";
import { isObject, type JsonObject, type JsonValue } from "../../value/json-value.js";
import { ApiError } from "../endpoints/errors.js";
import { decodeStored, encodeObject, parseStored } from "../endpoints/rest-common.js";
import { deleteOne } from "../endpoints/rest-write.js";
import { finalizersOf, metaOf, nowTimestamp } from "../registry/object-meta.js";
import { PrefixInformer } from "../registry/prefix-informer.js";
import { KeyedQueue } from "./keyed-queue.js";
import type { ResourceType } from "../registry/resource-type.js";
import { FINALIZER_KUBERNETES, PHASE_TERMINATING } from "../registry/namespace/namespace-admission.js";
import { NAMESPACES_PREFIX, specFinalizers } from "../registry/namespace/namespace-type.js";

/**
 * `namespaceDeletionGracePeriod`: the controller starts on a namespace marked for deletion only after 5 s
 * (time for every API server replica to refuse new content and for late writes to settle); so
 * `kubectl delete -f` of a file with a Namespace and its objects finds the objects still there, as on a cluster.
 */
export const NAMESPACE_DELETION_GRACE_MS = 5000;

/**
 * Re-checks of a namespace whose content remains (objects with finalizers): after 250 ms, doubling up to 5 s
 * (the namespace controller requeues with an estimate of at least 5 s); a change of the namespace restarts it.
 */
const RECHECK_MS = 250;
const RECHECK_MAX_MS = 5000;

/** The conditions the controller maintains, in its order, with their "ok" reason and message. */
const CONDITIONS: [type: string, reason: string, message: string][] = [
  ["NamespaceDeletionDiscoveryFailure", "ResourcesDiscovered", "All resources successfully discovered"],
  ["NamespaceDeletionGroupVersionParsingFailure", "ParsedGroupVersions", "All legacy kube types successfully parsed"],
  ["NamespaceDeletionContentFailure", "ContentDeleted", "All content successfully deleted, may be waiting on finalization"],
  ["NamespaceContentRemaining", "ContentRemoved", "All content successfully removed"],
  ["NamespaceFinalizersRemaining", "ContentHasNoFinalizers", "All content-preserving finalizers finished"],
];

interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
}

/** What remains in a namespace after a deletion pass. */
interface Remaining {
  /** `plural.group` → objects left. */
  byResource: Map<string, number>;
  /** finalizer → objects left carrying it. */
  byFinalizer: Map<string, number>;
  /** Deletion failures (other than conflicts, which the next pass retries). */
  errors: string[];
}

/** The conditions for `r`, as `namespaceConditionUpdater` builds them (failures first, else the ok variant). */
function conditionsFor(r: Remaining): Condition[] {
  const failing = new Map<string, Condition>();
  const resources = [...r.byResource].filter(([, n]) => n > 0).map(([gr, n]) => `${gr} has ${n} resource instances`).sort();
  if (r.byResource.size > 0) {
    failing.set("NamespaceContentRemaining", {
      type: "NamespaceContentRemaining",
      status: "True",
      reason: "SomeResourcesRemain",
      message: `Some resources are remaining: ${resources.join(", ")}`,
    });
  }
  const fins = [...r.byFinalizer].filter(([, n]) => n > 0).map(([f, n]) => `${f} in ${n} resource instances`).sort();
  if (r.byFinalizer.size > 0) {
    failing.set("NamespaceFinalizersRemaining", {
      type: "NamespaceFinalizersRemaining",
      status: "True",
      reason: "SomeFinalizersRemain",
      message: `Some content in the namespace has finalizers remaining: ${fins.join(", ")}`,
    });
  }
  if (r.errors.length > 0) {
    const msgs = [...r.errors].sort();
    failing.set("NamespaceDeletionContentFailure", {
      type: "NamespaceDeletionContentFailure",
      status: "True",
      reason: "ContentDeletionFailed",
      message: `Failed to delete all resource types, ${msgs.length} remaining: ${msgs.join(", ")}`,
    });
  }
  return CONDITIONS.map(([type, reason, message]) => failing.get(type) ?? { type, status: "False", reason, message });
}

/** `updateConditions`: sets each condition in place (new lastTransitionTime when its status changes); true when changed. */
function updateConditions(ns: JsonObject, conditions: Condition[]): boolean {
  const status: JsonObject = isObject(ns["status"]) ? ns["status"] : (ns["status"] = {});
  const list: JsonValue[] = Array.isArray(status["conditions"]) ? status["conditions"] : (status["conditions"] = []);
  let changed = false;
  for (const c of conditions) {
    const old = list.find((x): x is JsonObject => isObject(x) && x["type"] === c.type);
    if (!old) {
      list.push({ type: c.type, status: c.status, lastTransitionTime: nowTimestamp(), reason: c.reason, message: c.message });
      changed = true;
    } else if (old["status"] !== c.status || old["message"] !== c.message || old["reason"] !== c.reason) {
      if (old["status"] !== c.status) old["lastTransitionTime"] = nowTimestamp();
      old["status"] = c.status;
      old["reason"] = c.reason;
      old["message"] = c.message;
      changed = true;
    }
  }
  return changed;
}

/** The namespace deletion controller. */
export class NamespaceDeleter {
  /** The next re-check delay per namespace (backoff while content remains). */
  private readonly backoff = new Map<string, number>();
  /** Namespaces whose grace period has been waited (later changes are handled at once). */
  private readonly graced = new Set<string>();
  private readonly informer: PrefixInformer;
  private readonly queue = new KeyedQueue((name) =>
    this.sync(name).then(
      (done) => {
        if (!done) return this.nextRecheck(name);
        this.forget(name);
        return undefined;
      },
      (e: unknown) => {
        if (!(e instanceof RevisionConflictError || e instanceof KeyNotFoundError)) this.onError(e);
        if (!(e instanceof KeyNotFoundError)) return this.nextRecheck(name);
        this.forget(name);
        return undefined;
      },
    ),
  );

  constructor(
    private readonly store: Store,
    /** Every namespaced resource whose objects a namespace holds (one served version each). */
    private readonly contentTypes: () => ResourceType[],
    private readonly onError: (e: unknown) => void = () => {},
    private readonly graceMs = NAMESPACE_DELETION_GRACE_MS,
  ) {
    this.informer = new PrefixInformer(store, NAMESPACES_PREFIX, {
      replace: (items) => {
        for (const it of items) this.consider(it.key.slice(NAMESPACES_PREFIX.length), it.value);
      },
      event: (e) => {
        if (e.type !== "DELETED") this.consider(e.key.slice(NAMESPACES_PREFIX.length), e.value);
      },
    });
  }

  /** Resumes pending deletions and follows namespace changes (of every replica). */
  start(): Promise<void> {
    return this.informer.start();
  }

  stop(): void {
    this.informer.stop();
    this.queue.stop();
  }

  private consider(name: string, value: string): void {
    const ns = parseStored(value);
    if (typeof metaOf(ns)["deletionTimestamp"] !== "string" || !specFinalizers(ns).includes(FINALIZER_KUBERNETES)) return;
    this.backoff.delete(name);
    const first = !this.graced.has(name);
    this.graced.add(name);
    this.queue.add(name, first ? this.graceMs : 0);
  }

  /** The delay before the next re-check of `name`, doubling each time. */
  private nextRecheck(name: string): number {
    const d = this.backoff.get(name) ?? RECHECK_MS;
    this.backoff.set(name, Math.min(d * 2, RECHECK_MAX_MS));
    return d;
  }

  /** A namespace done with (gone, or no longer terminating): its backoff and grace state are dropped. */
  private forget(name: string): void {
    this.backoff.delete(name);
    this.graced.delete(name);
  }

  /** One pass over namespace `name`; false when it must run again (content remains). */
  private async sync(name: string): Promise<boolean> {
    const key = NAMESPACES_PREFIX + name;
    const sv = await this.store.get(key);
    if (!sv) return true;
    const ns = parseStored(sv.value);
    if (typeof metaOf(ns)["deletionTimestamp"] !== "string" || !specFinalizers(ns).includes(FINALIZER_KUBERNETES)) return true;
    let rev = sv.modRevision;
    const write = async () => {
      rev = (await this.store.update(key, encodeObject(ns), rev)).modRevision;
    };
    const status: JsonObject = isObject(ns["status"]) ? ns["status"] : (ns["status"] = {});
    const remaining = await this.deleteContent(name);
    let changed = status["phase"] !== PHASE_TERMINATING;
    status["phase"] = PHASE_TERMINATING;
    if (updateConditions(ns, conditionsFor(remaining))) changed = true;
    if (remaining.byResource.size > 0 || remaining.errors.length > 0) {
      if (changed) await write();
      return false;
    }
    // Everything is gone: the finalize step removes the kubernetes finalizer; with no finalizer left the
    // update deletes the namespace.
    const spec: JsonObject = isObject(ns["spec"]) ? ns["spec"] : (ns["spec"] = {});
    const rest = specFinalizers(ns).filter((f) => f !== FINALIZER_KUBERNETES);
    if (rest.length > 0) spec["finalizers"] = rest;
    else delete spec["finalizers"];
    if (rest.length === 0 && finalizersOf(ns).length === 0) await this.store.delete(key, rev);
    else await write();
    return true;
  }

  /** Deletes the namespace's content (finalizers honoured) and reports what remains. */
  private async deleteContent(namespace: string): Promise<Remaining> {
    const out: Remaining = { byResource: new Map(), byFinalizer: new Map(), errors: [] };
    for (const rt of this.contentTypes()) {
      const prefix = `${rt.storagePrefix}${namespace}/`;
      const gr = `${rt.plural}.${rt.group}`;
      for (const it of (await this.store.list(prefix)).items) {
        let obj: JsonObject;
        try {
          obj = await decodeStored(rt, it);
        } catch (e) {
          out.errors.push(`${gr}: ${e instanceof Error ? e.message : String(e)}`);
          continue;
        }
        let gone = false;
        try {
          const res = await deleteOne({ rt, namespace, store: this.store }, obj, it.modRevision, false);
          // A deleted object is answered as a Status (or the object without a pending deletion mark).
          gone = finalizersOf(obj).length === 0 && res.code === 200;
        } catch (e) {
          if (e instanceof ApiError && (e.status.code === 409 || e.status.code === 404)) {
            // Changed meanwhile (or deleted): the next pass looks again.
          } else throw e;
        }
        if (gone) continue;
        out.byResource.set(gr, (out.byResource.get(gr) ?? 0) + 1);
        for (const f of finalizersOf(obj)) out.byFinalizer.set(f, (out.byFinalizer.get(f) ?? 0) + 1);
      }
    }
    return out;
  }
}
