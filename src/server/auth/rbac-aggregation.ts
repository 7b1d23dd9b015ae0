/**
 * The cluster role aggregation controller (kube-controller-manager's `clusterrole-aggregation`): a
 * ClusterRole with `aggregationRule.clusterRoleSelectors` gets, as its `rules`, the rules of every other
 * ClusterRole whose labels match one of the selectors (by name order, duplicates once), rewritten whenever
 * ClusterRoles change (an informer on the ClusterRoles triggers the passes).
 */
import { KeyNotFoundError, RevisionConflictError, type Store, type StoredValue } from "../../storage/types.js";
import { deepEqual, isObject, type JsonObject, type JsonValue } from "../../value/json-value.js";
import { labelsOf, metaString } from "../registry/object-meta.js";
import { PrefixInformer } from "../registry/prefix-informer.js";
import { encodeObject, parseStored } from "../endpoints/rest-common.js";
import { CLUSTER_ROLES_PREFIX } from "./rbac-policy.js";

/** `metav1.LabelSelectorAsSelector(sel).Matches(labels)`; an empty selector matches everything. */
export function labelSelectorMatches(sel: JsonValue, labels: Record<string, string>): boolean {
  if (!isObject(sel)) return false;
  const ml = isObject(sel["matchLabels"]) ? sel["matchLabels"] : {};
  for (const [k, v] of Object.entries(ml)) if (labels[k] !== v) return false;
  for (const e of Array.isArray(sel["matchExpressions"]) ? sel["matchExpressions"] : []) {
    if (!isObject(e) || typeof e["key"] !== "string") return false;
    const has = Object.hasOwn(labels, e["key"]);
    const values = Array.isArray(e["values"]) ? e["values"] : [];
    const val = labels[e["key"]];
    switch (e["operator"]) {
      case "In":
        if (!has || !values.includes(val!)) return false;
        break;
      case "NotIn":
        if (has && values.includes(val!)) return false;
        break;
      case "Exists":
        if (!has) return false;
        break;
      case "DoesNotExist":
        if (has) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/** How long `synced` waits for the informer to see a revision. */
const SYNC_TIMEOUT_MS = 5000;

export class ClusterRoleAggregator {
  private readonly informer: PrefixInformer;
  /** The ClusterRoles as the informer last saw them, by key. */
  private readonly roles = new Map<string, StoredValue>();
  /** A pass is due (set by every change; a running pass is followed by another). */
  private dirty = false;
  private running: Promise<void> | undefined;
  private stopped = false;

  /**
   * The controller over the ClusterRoles in `store`; {@link start} lists and watches them. Several
   * replicas may each run one: rewrites are compare-and-swap on the role's revision, a lost race is
   * dropped and the winner's write triggers another (then idle) pass.
   */
  constructor(
    private readonly store: Store,
    private readonly onError: (e: unknown) => void = () => {},
  ) {
    this.informer = new PrefixInformer(store, CLUSTER_ROLES_PREFIX, {
      replace: (items) => {
        this.roles.clear();
        for (const it of items) this.roles.set(it.key, it);
        this.schedule();
      },
      event: (e) => {
        if (e.type === "DELETED") this.roles.delete(e.key);
        else this.roles.set(e.key, { key: e.key, value: e.value, createRevision: 0, modRevision: e.revision });
        this.schedule();
      },
    });
  }

  /** Lists and watches the ClusterRoles (the first pass follows); rejects when the store cannot be read. */
  start(): Promise<void> {
    return this.informer.start();
  }

  stop(): void {
    this.stopped = true;
    this.informer.stop();
  }

  /** Resolves once the controller has seen `revision` and has no pass left to run (tests, read-your-writes). */
  async synced(revision: number): Promise<void> {
    await this.informer.waitFor(revision, SYNC_TIMEOUT_MS);
    while (this.running) await this.running;
  }

  private schedule(): void {
    this.dirty = true;
    if (this.running || this.stopped) return;
    this.running = (async () => {
      // Let a burst of changes (a re-list, kubectl apply of several roles) settle into one pass.
      await new Promise((r) => setImmediate(r));
      while (this.dirty && !this.stopped) {
        this.dirty = false;
        try {
          await this.pass();
        } catch (e) {
          // The store failed: the broken watch re-lists, which schedules another pass. (After stop:
          // the store is closing; nothing to report.)
          if (!this.stopped) this.onError(e);
        }
      }
      this.running = undefined;
    })();
  }

  /** One pass over every aggregated ClusterRole. */
  private async pass(): Promise<void> {
    const items = [...this.roles.values()].map((sv) => ({ sv, obj: parseStored(sv.value) }));
    items.sort((a, b) => (a.sv.key < b.sv.key ? -1 : a.sv.key > b.sv.key ? 1 : 0));
    for (const { sv, obj } of items) {
      const rule = obj["aggregationRule"];
      if (!isObject(rule) || !Array.isArray(rule["clusterRoleSelectors"])) continue;
      const selectors = rule["clusterRoleSelectors"];
      const rules: JsonValue[] = [];
      for (const other of items) {
        if (metaString(other.obj, "name") === metaString(obj, "name")) continue;
        const labels = labelsOf(other.obj);
        if (!selectors.some((s) => labelSelectorMatches(s, labels))) continue;
        for (const r of Array.isArray(other.obj["rules"]) ? other.obj["rules"] : []) if (!rules.some((x) => deepEqual(x, r))) rules.push(r);
      }
      if (deepEqual(Array.isArray(obj["rules"]) ? obj["rules"] : [], rules)) continue;
      const next: JsonObject = { ...obj, rules };
      try {
        await this.store.update(sv.key, encodeObject(next), sv.modRevision);
      } catch (e) {
        // Changed or deleted meanwhile (another replica, a user): the watch schedules another pass.
        if (!(e instanceof RevisionConflictError) && !(e instanceof KeyNotFoundError)) throw e;
      }
    }
  }
}
