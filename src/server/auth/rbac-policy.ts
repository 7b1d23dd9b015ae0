/**
 * The RBAC objects the authorizer reads (Roles, ClusterRoles, RoleBindings, ClusterRoleBindings), kept in
 * step with the store by one informer per kind (list, watch, re-list after a broken watch) as the API
 * server's RBAC authorizer is, and `DefaultRuleResolver.VisitRulesFor`
 * over them: cluster role bindings first, then the role bindings of the request's namespace.
 */
import type { Store, StoreEvent } from "../../storage/types.js";
import { isObject, type JsonObject, type JsonValue } from "../../value/json-value.js";
import { goQuote } from "../../go/fmt.js";
import { PrefixInformer } from "../registry/prefix-informer.js";
import { parseStored } from "../endpoints/rest-common.js";
import type { PolicyRule } from "./rbac-rules.js";
import type { UserInfo } from "./user-info.js";

export const ROLES_PREFIX = "/registry/roles/";
export const CLUSTER_ROLES_PREFIX = "/registry/clusterroles/";
export const ROLE_BINDINGS_PREFIX = "/registry/rolebindings/";
export const CLUSTER_ROLE_BINDINGS_PREFIX = "/registry/clusterrolebindings/";

/** A rule as JSON (bootstrap policy). */
export interface PolicyRuleJson {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface Subject {
  kind: string;
  apiGroup: string;
  name: string;
  namespace: string;
}

export interface Binding {
  name: string;
  namespace: string;
  roleRef: { kind: string; name: string };
  subjects: Subject[];
}

function strings(v: JsonValue | undefined): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

function str(o: JsonObject, k: string): string {
  return typeof o[k] === "string" ? (o[k] as string) : "";
}

/** The rules of a Role or ClusterRole object. */
export function rulesOf(obj: JsonObject): PolicyRule[] {
  const rules = Array.isArray(obj["rules"]) ? obj["rules"] : [];
  return rules.filter(isObject).map((r) => ({
    verbs: strings(r["verbs"]),
    apiGroups: strings(r["apiGroups"]),
    resources: strings(r["resources"]),
    resourceNames: strings(r["resourceNames"]),
    nonResourceURLs: strings(r["nonResourceURLs"]),
  }));
}

/** A RoleBinding or ClusterRoleBinding object. */
export function bindingOf(obj: JsonObject): Binding {
  const meta = isObject(obj["metadata"]) ? obj["metadata"] : {};
  const ref = isObject(obj["roleRef"]) ? obj["roleRef"] : {};
  const subjects = (Array.isArray(obj["subjects"]) ? obj["subjects"] : []).filter(isObject).map((s) => ({
    kind: str(s, "kind"),
    apiGroup: str(s, "apiGroup"),
    name: str(s, "name"),
    namespace: str(s, "namespace"),
  }));
  return { name: str(meta, "name"), namespace: str(meta, "namespace"), roleRef: { kind: str(ref, "kind"), name: str(ref, "name") }, subjects };
}

/** `describeSubject`. */
function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === "ServiceAccount") return `${s.kind} ${goQuote(`${s.name}/${s.namespace !== "" ? s.namespace : bindingNamespace}`)}`;
  return `${s.kind} ${goQuote(s.name)}`;
}

/** The `fmt.Stringer` of the binding a rule came from (the `RBAC: allowed by …` reason). */
export function describeSource(b: Binding, s: Subject): string {
  if (b.namespace === "") {
    return `ClusterRoleBinding ${goQuote(b.name)} of ${b.roleRef.kind} ${goQuote(b.roleRef.name)} to ${describeSubject(s, "")}`;
  }
  return `RoleBinding ${goQuote(`${b.name}/${b.namespace}`)} of ${b.roleRef.kind} ${goQuote(b.roleRef.name)} to ${describeSubject(s, b.namespace)}`;
}

function appliesToUser(u: UserInfo, s: Subject, namespace: string): boolean {
  switch (s.kind) {
    case "User":
      return u.name === s.name;
    case "Group":
      return u.groups.includes(s.name);
    case "ServiceAccount": {
      const ns = s.namespace !== "" ? s.namespace : namespace;
      return ns !== "" && u.name === `system:serviceaccount:${ns}:${s.name}`;
    }
    default:
      return false;
  }
}

/** Visits a rule (with the binding it came from) or a resolution error; return false to stop. */
export type RuleVisitor = (source: string | undefined, rule: PolicyRule | undefined, err: string | undefined) => boolean;

export class RbacPolicy {
  private readonly roles = new Map<string, PolicyRule[]>();
  private readonly clusterRoles = new Map<string, PolicyRule[]>();
  /** namespace → name → binding. */
  private readonly roleBindings = new Map<string, Map<string, Binding>>();
  private readonly clusterRoleBindings = new Map<string, Binding>();
  /** Bindings in name order, per namespace ("" = cluster), rebuilt after a change. */
  private readonly sorted = new Map<string, Binding[]>();

  private readonly informers: { prefix: string; informer: PrefixInformer }[];

  /** The policy in `store`; {@link start} loads it and follows its changes (other replicas' writes too). */
  constructor(store: Store) {
    const keep = <T>(m: Map<string, T>, conv: (o: JsonObject) => T) => (key: string, obj: JsonObject | undefined) => {
      if (obj === undefined) m.delete(key);
      else m.set(key, conv(obj));
    };
    const putRoleBinding = (key: string, obj: JsonObject | undefined) => {
      const slash = key.indexOf("/");
      const ns = key.slice(0, slash);
      let m = this.roleBindings.get(ns);
      if (!m) this.roleBindings.set(ns, (m = new Map()));
      keep(m, bindingOf)(key.slice(slash + 1), obj);
      if (m.size === 0) this.roleBindings.delete(ns);
      this.sorted.delete(ns);
    };
    const putClusterRoleBinding = (key: string, obj: JsonObject | undefined) => {
      keep(this.clusterRoleBindings, bindingOf)(key, obj);
      this.sorted.delete("");
    };
    const follow = (prefix: string, clear: () => void, put: (key: string, obj: JsonObject | undefined) => void) => ({
      prefix,
      informer: new PrefixInformer(store, prefix, {
        replace: (items) => {
          clear();
          for (const it of items) put(it.key.slice(prefix.length), parseStored(it.value));
        },
        event: (e: StoreEvent) => put(e.key.slice(prefix.length), e.type === "DELETED" ? undefined : parseStored(e.value)),
      }),
    });
    this.informers = [
      follow(ROLES_PREFIX, () => this.roles.clear(), keep(this.roles, rulesOf)),
      follow(CLUSTER_ROLES_PREFIX, () => this.clusterRoles.clear(), keep(this.clusterRoles, rulesOf)),
      follow(
        ROLE_BINDINGS_PREFIX,
        () => {
          for (const ns of this.roleBindings.keys()) this.sorted.delete(ns);
          this.roleBindings.clear();
        },
        putRoleBinding,
      ),
      follow(
        CLUSTER_ROLE_BINDINGS_PREFIX,
        () => {
          this.clusterRoleBindings.clear();
          this.sorted.delete("");
        },
        putClusterRoleBinding,
      ),
    ];
  }

  /** Lists the four kinds and watches them; rejects when the store cannot be read. */
  async start(): Promise<void> {
    await Promise.all(this.informers.map((f) => f.informer.start()));
  }

  stop(): void {
    for (const f of this.informers) f.informer.stop();
  }

  /**
   * Resolves once the policy reflects the write of `key` at `revision` (false after `timeoutMs`, or when
   * `key` is no RBAC object): read-your-writes for the RBAC REST handlers.
   */
  caughtUp(revision: number, timeoutMs: number, key: string): Promise<boolean> {
    const f = this.informers.find((x) => key.startsWith(x.prefix));
    return f ? f.informer.waitFor(revision, timeoutMs) : Promise.resolve(false);
  }

  /**
   * `GetRoleReferenceRules(roleRef, namespace)`: the rules of the referenced role, or the NotFound text —
   * the authorizer's listers name the resource in the singular (`role.rbac…`), the registry (escalation
   * checks, `registry: true`) in the plural (`roles.rbac…`).
   */
  roleRefRules(ref: { kind: string; name: string }, namespace: string, registry = false): PolicyRule[] | string {
    const notFound = (singular: string) => `${singular}${registry ? "s" : ""}.rbac.authorization.k8s.io ${goQuote(ref.name)} not found`;
    if (ref.kind === "Role") return this.roles.get(`${namespace}/${ref.name}`) ?? notFound("role");
    if (ref.kind === "ClusterRole") return this.clusterRoles.get(ref.name) ?? notFound("clusterrole");
    return `unsupported role reference kind: ${goQuote(ref.kind)}`;
  }

  private roleRules(b: Binding, registry: boolean): PolicyRule[] | string {
    return this.roleRefRules(b.roleRef, b.namespace, registry);
  }

  /** `RulesFor(user, namespace)`: every rule that applies, and the resolution errors (registry texts). */
  rulesFor(u: UserInfo, namespace: string, registry = true): { rules: PolicyRule[]; errors: string[] } {
    const rules: PolicyRule[] = [];
    const errors: string[] = [];
    this.visitRulesFor(
      u,
      namespace,
      (_s, r, e) => {
        if (r) rules.push(r);
        if (e !== undefined) errors.push(e);
        return true;
      },
      registry,
    );
    return { rules, errors };
  }

  /** `VisitRulesFor(user, namespace, visitor)`. */
  visitRulesFor(u: UserInfo, namespace: string, visit: RuleVisitor, registry = false): void {
    const walk = (ns: string): boolean => {
      for (const b of this.bindingsOf(ns)) {
        const s = b.subjects.find((x) => appliesToUser(u, x, ns));
        if (!s) continue;
        const rules = this.roleRules(b, registry);
        if (typeof rules === "string") {
          if (!visit(undefined, undefined, rules)) return false;
          continue;
        }
        const source = describeSource(b, s);
        for (const r of rules) if (!visit(source, r, undefined)) return false;
      }
      return true;
    };
    if (!walk("")) return;
    if (namespace !== "") walk(namespace);
  }

  /** The cluster role bindings (`ns` = "") or the role bindings of `ns`, by name. */
  private bindingsOf(ns: string): Binding[] {
    let list = this.sorted.get(ns);
    if (!list) {
      const m = ns === "" ? this.clusterRoleBindings : this.roleBindings.get(ns);
      // Namespaces without bindings are not cached (requests may name any number of them).
      if (!m) return [];
      list = [...m.entries()].sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0)).map((e) => e[1]);
      this.sorted.set(ns, list);
    }
    return list;
  }
}
