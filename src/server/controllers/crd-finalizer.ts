/**
 * CRD deletion as Kubernetes does it (apiextensions `registry/customresourcedefinition/etcd.go` Delete
 * and `controller/finalizer/crd_finalizer.go`):
 * 1. The first DELETE of a CRD only marks it: `deletionTimestamp`, the `customresourcecleanup.apiextensions.k8s.io`
 *    finalizer and the condition `Terminating=True` (`InstanceDeletionPending`). The resource is then
 *    terminating: discovery lists only delete/deletecollection/get/list/watch, creates are refused (403).
 * 2. The finalizer controller sets `InstanceDeletionInProgress`, deletes every custom resource (objects with
 *    finalizers get a deletionTimestamp and are waited for), then `Terminating=False`
 *    (`InstanceDeletionCompleted` / "removed all instances", or `NeverEstablished`), removes its finalizer,
 *    and the CRD — its deletionTimestamp set and no finalizers left — is deleted for good.
 * The controller runs in-process after each CRD change and re-checks while instances remain; pending
 * deletions are resumed at startup.
 */
import { KeyNotFoundError, RevisionConflictError, type Store } from "../../storage/types.js";
import { isObject, type JsonObject } from "../../value/json-value.js";
import { conditionTrue, readNames, setCrdCondition } from "./crd-status.js";
import { finalizersOf, metaOf, metaString, nowTimestamp } from "../registry/object-meta.js";
import { KeyedQueue } from "./keyed-queue.js";
import { CRD_PREFIX, type Registry } from "../registry/registry.js";
import { encodeObject, parseStored } from "../endpoints/rest-common.js";

export const CRD_CLEANUP_FINALIZER = "customresourcecleanup.apiextensions.k8s.io";

/** How often a terminating CRD re-checks for remaining instances (objects with finalizers). */
const RECHECK_MS = 250;

/** Marks a CRD for deletion (step 1), in place. */
export function markCrdDeleting(crd: JsonObject): void {
  const meta = metaOf(crd);
  if (typeof meta["deletionTimestamp"] !== "string") meta["deletionTimestamp"] = nowTimestamp();
  const fins = finalizersOf(crd);
  if (!fins.includes(CRD_CLEANUP_FINALIZER)) meta["finalizers"] = [...fins, CRD_CLEANUP_FINALIZER];
  setCrdCondition(crd, "Terminating", "True", "InstanceDeletionPending", "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon");
}

/** The finalizer controller. */
export class CrdFinalizer {
  // Every replica runs this controller: writes are compare-and-swap, a conflict or an unreachable store
  // means another pass later (the work is idempotent).
  private readonly queue = new KeyedQueue((name) =>
    this.sync(name).then(
      (done) => (done ? undefined : RECHECK_MS),
      (e: unknown) => (e instanceof KeyNotFoundError ? undefined : RECHECK_MS),
    ),
  );

  /** `deleted`: called with a CRD's name, group and deletion revision once the controller has deleted it. */
  constructor(
    private readonly store: Store,
    /** The CRDs are followed through the registry's watch (of every replica's writes). */
    private readonly registry: Registry,
    private readonly deleted: (name: string, group: string, revision: number) => Promise<void> = async () => {},
  ) {}

  /** Resumes pending deletions and follows CRD changes (the registry must be started). */
  async start(): Promise<void> {
    this.registry.follow((name, crd) => this.consider(name, crd));
  }

  /** Stops the controller (server shutdown). */
  stop(): void {
    this.queue.stop();
  }

  private consider(name: string, crd: JsonObject): void {
    if (metaString(crd, "deletionTimestamp") === "" || !finalizersOf(crd).includes(CRD_CLEANUP_FINALIZER)) return;
    this.queue.add(name, 0);
  }

  /** One pass; returns false when it must run again (instances remain). */
  private async sync(name: string): Promise<boolean> {
    const sv = await this.store.get(CRD_PREFIX + name);
    if (!sv) return true;
    const crd = parseStored(sv.value);
    if (typeof metaOf(crd)["deletionTimestamp"] !== "string" || !finalizersOf(crd).includes(CRD_CLEANUP_FINALIZER)) return true;
    let rev = sv.modRevision;
    const write = async (o: JsonObject) => {
      rev = (await this.store.update(CRD_PREFIX + name, encodeObject(o), rev)).modRevision;
    };
    if (!isTerminatingReason(crd, "InstanceDeletionInProgress")) {
      setCrdCondition(crd, "Terminating", "True", "InstanceDeletionInProgress", "CustomResource deletion is in progress");
      await write(crd);
    }
    if (conditionTrue(crd, "Established")) {
      const spec = isObject(crd["spec"]) ? crd["spec"] : {};
      const plural = readNames(isObject(crd["status"]) ? crd["status"]["acceptedNames"] : undefined).plural;
      const group = typeof spec["group"] === "string" ? spec["group"] : "";
      if (plural !== "" && (await this.deleteInstances(`/registry/${group}/${plural}/`)) > 0) return false;
      setCrdCondition(crd, "Terminating", "False", "InstanceDeletionCompleted", "removed all instances");
    } else {
      setCrdCondition(crd, "Terminating", "False", "NeverEstablished", "resource was never established");
    }
    const meta = metaOf(crd);
    const rest = finalizersOf(crd).filter((f) => f !== CRD_CLEANUP_FINALIZER);
    if (rest.length > 0) {
      meta["finalizers"] = rest;
      await write(crd);
    } else {
      // Deletion timestamp set and no finalizers left: the store deletes the CRD.
      const { revision } = await this.store.delete(CRD_PREFIX + name, rev);
      const spec = crd["spec"];
      await this.deleted(name, isObject(spec) && typeof spec["group"] === "string" ? spec["group"] : "", revision);
    }
    return true;
  }

  /** Deletes the instances under `prefix` (finalizers honoured); returns how many remain. */
  private async deleteInstances(prefix: string): Promise<number> {
    let remaining = 0;
    for (const it of (await this.store.list(prefix)).items) {
      const obj = parseStored(it.value);
      try {
        if (finalizersOf(obj).length === 0) {
          await this.store.delete(it.key, it.modRevision);
          continue;
        }
        remaining++;
        const meta = metaOf(obj);
        if (typeof meta["deletionTimestamp"] !== "string") {
          meta["deletionTimestamp"] = nowTimestamp();
          meta["deletionGracePeriodSeconds"] = 0;
          await this.store.update(it.key, encodeObject(obj), it.modRevision);
        }
      } catch (e) {
        if (!(e instanceof RevisionConflictError || e instanceof KeyNotFoundError)) throw e;
        remaining++;
      }
    }
    return remaining;
  }
}

function isTerminatingReason(crd: JsonObject, reason: string): boolean {
  const st = crd["status"];
  if (!isObject(st) || !Array.isArray(st["conditions"])) return false;
  return st["conditions"].some((c) => isObject(c) && c["type"] === "Terminating" && c["reason"] === reason);
}
