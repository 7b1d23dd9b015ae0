/**
 * The garbage collector of kube-controller-manager (`pkg/controller/garbagecollector`) beside the API server:
 * a graph of owners and dependents fed by a watch of the whole store (so it works on SQLite and etcd, and every
 * replica's writes reach it), rebuilt from the stored objects at start and after every re-list (so a restart
 * finishes pending work), and three kinds of work, each an idempotent pass that reads the live objects:
 * - attempt to delete a dependent (`attemptToDeleteItem`): its owner references are classified by reading each
 *   owner (absent, or present with another uid: dangling; being deleted in the foreground: waiting; else
 *   solid). With a solid owner left, only the dangling and waiting references are removed; with none, the
 *   dependent is deleted — in the foreground when it waits for an owner and has dependents of its own (its
 *   references unblocked first when one of them is deleting its dependents too: a cycle), else with the
 *   policy of its own GC finalizer (Orphan, Foreground) or Background;
 * - an owner deleting its dependents (`foregroundDeletion`): once no dependent that blocks it
 *   (`blockOwnerDeletion`) is left, the finalizer is removed; until then the blocking dependents are attempted;
 * - an owner orphaning its dependents (`orphan`): its reference is removed from every dependent, then the
 *   finalizer.
 * An owner whose kind no served resource has is retried with a backoff (the real GC's restmapping error); a
 * cluster-scoped dependent naming a namespaced owner is left alone (`namespacedOwnerOfClusterScopedObjectErr`).
 * Writes go through the API server's own update and delete paths (resourceVersion preconditions, watch events,
 * managed fields of the `kube-controller-manager` user agent), as the real GC's requests do.
 */
import type { Store, StoreEvent, StoredValue } from "../../storage/types.js";
import type { JsonObject } from "../../value/json-value.js";
import { ApiError } from "../endpoints/errors.js";
import { FINALIZER_FOREGROUND, FINALIZER_ORPHAN } from "../registry/deletion-finalizers.js";
import { PrefixInformer } from "../registry/prefix-informer.js";
import type { ResourceType } from "../registry/resource-type.js";
import { KeyedQueue } from "../controllers/keyed-queue.js";
import { Graph, type GraphNode } from "./graph.js";
import { deletingDependents, mayMatter, type ObjectSummary, orphaning, type OwnerRef, parseSummary } from "./object-summary.js";

/** How the collector reaches the API server (in process, past authentication: the GC's own rights). */
export interface GcClient {
  /** The RESTMapper: the served resource of `apiVersion`/`kind` (any served version when `anyVersion`). */
  resolve(apiVersion: string, kind: string, anyVersion?: boolean): ResourceType | undefined;
  /** A JSON merge patch of the object (throws the request's ApiError). */
  patch(rt: ResourceType, namespace: string, name: string, patch: JsonObject): Promise<void>;
  /** A DELETE with these DeleteOptions (throws the request's ApiError). */
  delete(rt: ResourceType, namespace: string, name: string, options: JsonObject): Promise<void>;
}

/** Retry delays: a conflict soon, other failures (unresolvable kinds) with a doubling backoff. */
const CONFLICT_RETRY_MS = 50;
const BACKOFF_START_MS = 500;
const BACKOFF_MAX_MS = 30_000;

/** Keys per page of the list at start and after a broken watch (client-go's reflector pages by 500). */
const LIST_PAGE = 500;

/** A write refused with 409 (changed meanwhile, or a uid precondition): the pass runs again soon. */
class Conflict extends Error {}

/** A cluster-scoped dependent names a namespaced owner: the reference is invalid, retrying cannot help. */
class InvalidReference extends Error {}

type Owner = { ref: OwnerRef; obj: ObjectSummary | undefined };

export class GarbageCollector {
  private readonly graph = new Graph();
  private readonly informer: PrefixInformer;
  private readonly backoff = new Map<string, number>();
  private readonly queue = new KeyedQueue((key) => this.run(key));

  constructor(
    private readonly store: Store,
    private readonly client: GcClient,
    private readonly log: (msg: string, fields: Record<string, string>) => void = () => {},
  ) {
    // The whole store, read in pages at one revision of which only the values that can matter are kept.
    this.informer = new PrefixInformer(
      store,
      "/registry/",
      { replace: (items) => this.replace(items), event: (e) => this.event(e) },
      { pageSize: LIST_PAGE, keep: (it) => mayMatter(it.value) },
    );
  }

  start(): Promise<void> {
    return this.informer.start();
  }

  stop(): void {
    this.informer.stop();
    this.queue.stop();
  }

  // ---- graph building (GraphBuilder.processGraphChanges) ----

  private replace(items: StoredValue[]): void {
    this.graph.clear();
    for (const it of items) {
      if (!mayMatter(it.value)) continue;
      const s = parseSummary(it.value, it.modRevision);
      if (s && s.uid !== "") this.graph.observe(it.key, s);
    }
    for (const n of [...this.graph.nodes()]) {
      const o = n.object;
      if (!o) continue;
      if (o.owners.length > 0 || deletingDependents(o)) this.attemptToDelete(n);
      if (orphaning(o)) this.attemptToOrphan(n);
      if (o.owners.length === 0 && !deletingDependents(o) && !orphaning(o)) this.graph.release(n);
    }
    // Owners gone while no collector ran: their dependents find them absent.
    for (const n of this.graph.nodes()) if (!n.object) for (const d of n.dependents) this.attemptToDelete(d);
  }

  private event(e: StoreEvent): void {
    if (e.type === "DELETED") {
      if (this.graph.size === 0) return;
      let node = this.graph.atKey(e.key);
      if (!node) {
        const s = parseSummary(e.value, e.revision);
        node = s ? this.graph.get(s.uid) : undefined;
      }
      if (node) this.gone(node);
      return;
    }
    const known = this.graph.atKey(e.key);
    if (!known && !mayMatter(e.value)) return;
    const s = parseSummary(e.value, e.revision);
    if (!s || s.uid === "") return;
    const before = this.graph.get(s.uid)?.object;
    const relevant = s.owners.length > 0 || deletingDependents(s) || orphaning(s) || known !== undefined || this.graph.get(s.uid) !== undefined;
    if (!relevant) return;
    const { node, removedOwners, ownersChanged } = this.graph.observe(e.key, s);
    for (const o of removedOwners) if (o.object && deletingDependents(o.object)) this.attemptToDelete(o);
    if (s.owners.length > 0 && (before === undefined || ownersChanged)) this.attemptToDelete(node);
    if (deletingDependents(s) && !(before && deletingDependents(before))) {
      this.attemptToDelete(node);
      for (const d of node.dependents) this.attemptToDelete(d);
    }
    if (orphaning(s)) this.attemptToOrphan(node);
    // An owner waiting for its dependents re-checks when one of them changes (starts being deleted, unblocks).
    for (const o of s.owners) {
      const owner = this.graph.get(o.uid);
      if (owner?.object && deletingDependents(owner.object)) this.attemptToDelete(owner);
    }
    if (s.owners.length === 0 && !deletingDependents(s) && !orphaning(s)) this.graph.release(node);
  }

  /** The object of `node` was deleted: its dependents look at their owners again, as do owners waiting for it. */
  private gone(node: GraphNode): void {
    const dependents = [...node.dependents];
    const owners = this.graph.forget(node);
    for (const d of dependents) this.attemptToDelete(d);
    for (const o of owners) if (o.object && deletingDependents(o.object)) this.attemptToDelete(o);
  }

  private attemptToDelete(n: GraphNode): void {
    if (n.object) this.queue.add(`delete\u0000${n.uid}`, 0);
  }

  private attemptToOrphan(n: GraphNode): void {
    if (n.object) this.queue.add(`orphan\u0000${n.uid}`, 0);
  }

  // ---- workers ----

  private async run(key: string): Promise<number | undefined> {
    const [kind, uid] = key.split("\u0000") as [string, string];
    try {
      if (kind === "delete") await this.deleteItem(uid);
      else await this.orphanDependents(uid);
      this.backoff.delete(key);
      return undefined;
    } catch (e) {
      if (e instanceof InvalidReference) {
        this.log("garbage collector: invalid owner reference", { uid, error: e.message });
        return undefined;
      }
      if (e instanceof Conflict) return CONFLICT_RETRY_MS;
      const delay = this.backoff.get(key);
      this.backoff.set(key, Math.min((delay ?? BACKOFF_START_MS) * 2, BACKOFF_MAX_MS));
      // Logged once per item until it succeeds (an owner of a kind never served would log every 30 s).
      if (delay === undefined) this.log("garbage collector: will retry", { uid, error: e instanceof Error ? e.message : String(e) });
      return delay ?? BACKOFF_START_MS;
    }
  }

  /** The live object of an observed node; undefined (and the node forgotten) when it is gone. */
  private async latest(n: GraphNode): Promise<ObjectSummary | undefined> {
    if (!n.key) return undefined;
    const sv = await this.store.get(n.key);
    const s = sv ? parseSummary(sv.value, sv.modRevision) : undefined;
    if (!s || s.uid !== n.uid) {
      // The watch has not told yet (or never will, for a virtual delete): the node goes now.
      if (n.object) this.gone(n);
      return undefined;
    }
    return s;
  }

  /** The served resource of an object of the graph (its stored apiVersion, or any served version of its kind). */
  private resourceOf(s: ObjectSummary): ResourceType {
    const rt = this.client.resolve(s.apiVersion, s.kind, true);
    if (!rt) throw new Error(`unable to get REST mapping for ${s.apiVersion}, Kind=${s.kind}`);
    return rt;
  }

  /** `attemptToDeleteItem`. */
  private async deleteItem(uid: string): Promise<void> {
    const n = this.graph.get(uid);
    if (!n?.object) return;
    const item = await this.latest(n);
    if (!item) return;
    if (item.beingDeleted && !deletingDependents(item)) return;
    if (deletingDependents(item)) {
      // `processDeletingDependentsItem`.
      const blocking = n.blockingDependents();
      if (blocking.length === 0) {
        await this.removeFinalizer(item, FINALIZER_FOREGROUND);
        return;
      }
      for (const d of blocking) if (!(d.object && deletingDependents(d.object))) this.attemptToDelete(d);
      return;
    }
    if (item.owners.length === 0) return;
    const owners = await this.classify(item);
    const solid = owners.filter((o) => o.obj !== undefined && !deletingDependents(o.obj));
    const dangling = owners.filter((o) => o.obj === undefined);
    const waiting = owners.filter((o) => o.obj !== undefined && deletingDependents(o.obj));
    const rt = this.resourceOf(item);
    if (solid.length > 0) {
      if (dangling.length === 0 && waiting.length === 0) return;
      const drop = new Set([...dangling, ...waiting].map((o) => o.ref.uid));
      await this.write(() => this.client.patch(rt, item.namespace, item.name, ownerRefsPatch(item, item.owners.filter((r) => !drop.has(r.uid)))));
      return;
    }
    if (waiting.length > 0 && n.dependents.size > 0) {
      for (const d of n.dependents) {
        if (d.object && deletingDependents(d.object)) {
          // A cycle (this item's dependent deletes its dependents too): unblock this item's references.
          const unblocked = item.owners.map((r) => ({ ...r, blockOwnerDeletion: false }));
          await this.write(() => this.client.patch(rt, item.namespace, item.name, ownerRefsPatch(item, unblocked)));
          break;
        }
      }
      await this.deleteObject(rt, item, "Foreground");
      return;
    }
    const policy = item.finalizers.includes(FINALIZER_ORPHAN) ? "Orphan" : item.finalizers.includes(FINALIZER_FOREGROUND) ? "Foreground" : "Background";
    await this.deleteObject(rt, item, policy);
  }

  /** `classifyReferences` / `isDangling`: each owner read live (undefined: absent, or another object by that name). */
  private async classify(item: ObjectSummary): Promise<Owner[]> {
    const out: Owner[] = [];
    for (const ref of item.owners) {
      const rt = this.client.resolve(ref.apiVersion, ref.kind);
      if (!rt) throw new Error(`unable to get REST mapping for ${ref.apiVersion}, Kind=${ref.kind}`);
      if (rt.namespaced && item.namespace === "") {
        throw new InvalidReference(`cluster-scoped object ${item.name} refers to a namespaced owner ${ref.kind} ${ref.name}`);
      }
      const key = rt.storagePrefix + (rt.namespaced ? `${item.namespace}/` : "") + ref.name;
      const sv = await this.store.get(key);
      const owner = sv ? parseSummary(sv.value, sv.modRevision) : undefined;
      out.push({ ref, obj: owner && owner.uid === ref.uid ? owner : undefined });
    }
    return out;
  }

  /** `orphanDependents` then the `orphan` finalizer's removal. */
  private async orphanDependents(uid: string): Promise<void> {
    const n = this.graph.get(uid);
    if (!n?.object) return;
    const owner = await this.latest(n);
    if (!owner || !orphaning(owner)) return;
    for (const d of [...n.dependents]) {
      if (!d.object) continue;
      const dep = await this.latest(d);
      if (!dep) continue;
      const left = dep.owners.filter((r) => r.uid !== uid);
      if (left.length === dep.owners.length) continue;
      const rt = this.resourceOf(dep);
      await this.write(() => this.client.patch(rt, dep.namespace, dep.name, ownerRefsPatch(dep, left)));
    }
    await this.removeFinalizer(owner, FINALIZER_ORPHAN);
  }

  /** `removeFinalizer`: a merge patch of the finalizers with the resourceVersion read (a conflict retries). */
  private async removeFinalizer(obj: ObjectSummary, finalizer: string): Promise<void> {
    if (!obj.finalizers.includes(finalizer)) return;
    const rest = obj.finalizers.filter((f) => f !== finalizer);
    const rt = this.resourceOf(obj);
    await this.write(() =>
      this.client.patch(rt, obj.namespace, obj.name, { metadata: { resourceVersion: obj.resourceVersion, finalizers: rest.length > 0 ? rest : null } }),
    );
  }

  /** `deleteObject`: a DELETE with a uid precondition and the propagation policy. */
  private deleteObject(rt: ResourceType, item: ObjectSummary, policy: string): Promise<void> {
    return this.write(() =>
      this.client.delete(rt, item.namespace, item.name, { kind: "DeleteOptions", apiVersion: "v1", preconditions: { uid: item.uid }, propagationPolicy: policy }),
    );
  }

  /** A write: gone (404) is done; a conflict (409) retries soon; other failures back off. */
  private async write(f: () => Promise<void>): Promise<void> {
    try {
      await f();
    } catch (e) {
      if (e instanceof ApiError && e.status.code === 404) return;
      if (e instanceof ApiError && e.status.code === 409) throw new Conflict(e.message);
      throw e;
    }
  }
}

/** The real GC's `objectForMetadataPatch`: the resourceVersion read and the owner references to keep (null: none). */
function ownerRefsPatch(item: ObjectSummary, refs: OwnerRef[]): JsonObject {
  const list = refs.map((r) => {
    const o: JsonObject = { apiVersion: r.apiVersion, kind: r.kind, name: r.name, uid: r.uid };
    if (r.controller !== undefined) o["controller"] = r.controller;
    if (r.blockOwnerDeletion !== undefined) o["blockOwnerDeletion"] = r.blockOwnerDeletion;
    return o;
  });
  return { metadata: { resourceVersion: item.resourceVersion, ownerReferences: list.length > 0 ? list : null } };
}
