/**
 * The cluster role aggregation controller (kube-controller-manager's `clusterrole-aggregation`): a
 * ClusterRole with `aggregationRule.clusterRoleSelectors` gets, as its `rules`, the rules of every other
 * ClusterRole whose labels match one of the selectors (by name order, duplicates once), rewritten whenever
 * ClusterRoles change.
 */
import { KeyNotFoundError, RevisionConflictError, type Store, type StoreWatch } from "../../storage/types.js";
import { deepEqual, isObject, type JsonObject, type JsonValue } from "../../value/json-value.js";
import { labelsOf, metaString } from "../object-meta.js";
import { encodeObject, parseStored } from "../rest-common.js";
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

export class ClusterRoleAggregator {
  private readonly watch: StoreWatch;
  private scheduled = false;
  private stopped = false;

  constructor(private readonly store: Store) {
    const { revision } = store.list(CLUSTER_ROLES_PREFIX);
    this.sync();
    this.watch = store.watch(CLUSTER_ROLES_PREFIX, revision, () => this.schedule());
  }

  stop(): void {
    this.stopped = true;
    this.watch.cancel();
  }

  private schedule(): void {
    if (this.scheduled || this.stopped) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.stopped) return;
      try {
        this.sync();
      } catch {
        // The store is closed or failing: writes report that to clients; the controller stops.
        this.stop();
      }
    });
  }

  /** One pass over every aggregated ClusterRole. */
  sync(): void {
    const items = this.store.list(CLUSTER_ROLES_PREFIX).items.map((it) => ({ sv: it, obj: parseStored(it.value) }));
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
        this.store.update(sv.key, encodeObject(next), sv.modRevision);
      } catch (e) {
        // Changed or deleted meanwhile: the watch schedules another pass.
        if (!(e instanceof RevisionConflictError) && !(e instanceof KeyNotFoundError)) throw e;
      }
    }
  }
}
