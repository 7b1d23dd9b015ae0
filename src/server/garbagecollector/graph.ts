/**
 * The dependency graph of the garbage collector (kube-controller-manager's `GraphBuilder.uidToNode`): one
 * node per uid — an object seen in storage ("observed": it has owner references or a GC finalizer), or an
 * owner known only from its dependents' references ("virtual") — with the dependents that name it.
 */
import type { ObjectSummary, OwnerRef } from "./object-summary.js";

export class GraphNode {
  /** The observed object (undefined for a virtual node). */
  object: ObjectSummary | undefined;
  /** Its storage key (observed nodes). */
  key: string | undefined;
  readonly dependents = new Set<GraphNode>();

  constructor(readonly uid: string) {}

  get owners(): OwnerRef[] {
    return this.object?.owners ?? [];
  }

  /** Dependents whose reference to this node blocks its deletion (`blockOwnerDeletion: true`). */
  blockingDependents(): GraphNode[] {
    return [...this.dependents].filter((d) => d.owners.some((o) => o.uid === this.uid && o.blockOwnerDeletion === true));
  }
}

export class Graph {
  private readonly byUid = new Map<string, GraphNode>();
  private readonly byKey = new Map<string, GraphNode>();

  get size(): number {
    return this.byUid.size;
  }

  get(uid: string): GraphNode | undefined {
    return this.byUid.get(uid);
  }

  atKey(key: string): GraphNode | undefined {
    return this.byKey.get(key);
  }

  nodes(): IterableIterator<GraphNode> {
    return this.byUid.values();
  }

  clear(): void {
    this.byUid.clear();
    this.byKey.clear();
  }

  private node(uid: string): GraphNode {
    let n = this.byUid.get(uid);
    if (!n) this.byUid.set(uid, (n = new GraphNode(uid)));
    return n;
  }

  /**
   * Records the object at `key` (added or changed); answers its node and the owners it no longer names
   * (their nodes), so the caller can re-check owners waiting for their dependents.
   */
  observe(key: string, s: ObjectSummary): { node: GraphNode; removedOwners: GraphNode[]; ownersChanged: boolean } {
    const atKey = this.byKey.get(key);
    // Another object at the same key (deleted and created again): the old one is gone.
    const replaced = atKey !== undefined && atKey.uid !== s.uid ? this.forget(atKey) : [];
    const n = this.node(s.uid);
    const before = n.owners;
    n.object = s;
    n.key = key;
    this.byKey.set(key, n);
    const now = new Set(s.owners.map((o) => o.uid));
    const removedOwners: GraphNode[] = [...replaced];
    for (const o of before) {
      if (now.has(o.uid)) continue;
      const owner = this.byUid.get(o.uid);
      if (!owner) continue;
      owner.dependents.delete(n);
      removedOwners.push(owner);
      this.dropIfUnused(owner);
    }
    for (const o of s.owners) if (o.uid !== "") this.node(o.uid).dependents.add(n);
    const ownersChanged = before.length !== s.owners.length || before.some((o, i) => JSON.stringify(o) !== JSON.stringify(s.owners[i]));
    return { node: n, removedOwners, ownersChanged };
  }

  /**
   * The object of `node` is gone from storage: it stays as a virtual node while dependents name it. Answers
   * the owners it named (their dependents changed).
   */
  forget(node: GraphNode): GraphNode[] {
    if (node.key !== undefined && this.byKey.get(node.key) === node) this.byKey.delete(node.key);
    const owners: GraphNode[] = [];
    for (const o of node.owners) {
      const owner = this.byUid.get(o.uid);
      if (!owner) continue;
      owner.dependents.delete(node);
      owners.push(owner);
      this.dropIfUnused(owner);
    }
    node.object = undefined;
    node.key = undefined;
    this.dropIfUnused(node);
    return owners;
  }

  /** Drops an observed node that neither names owners nor is named, nor carries a GC finalizer. */
  release(node: GraphNode): void {
    if (node.dependents.size > 0 || node.owners.length > 0) return;
    if (node.key !== undefined && this.byKey.get(node.key) === node) this.byKey.delete(node.key);
    node.object = undefined;
    node.key = undefined;
    this.byUid.delete(node.uid);
  }

  private dropIfUnused(n: GraphNode): void {
    if (n.object === undefined && n.dependents.size === 0) this.byUid.delete(n.uid);
  }
}
