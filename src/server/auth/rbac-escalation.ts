/**
 * RBAC privilege-escalation prevention (the `policybased` RBAC storages, `validation.ConfirmNoEscalation`,
 * `Covers`, `CompactRules`): a user may create or change a Role/ClusterRole only with every permission it
 * grants (or the `escalate` verb on it), and a binding only with every permission of the referenced role
 * (or the `bind` verb on it). `system:masters` is exempt. Violations are 403 with Kubernetes' text.
 */
import { failureStatus } from "../../errors/index.js";
import { goQuote } from "../../go/fmt.js";
import { deepEqual, isObject, type JsonObject } from "../../value/json-value.js";
import { ApiError } from "../endpoints/errors.js";
import { dedupe } from "./dedupe.js";
import { RBAC_GROUP, type RbacKind } from "./rbac-admission.js";
import { bindingOf, type RbacPolicy, rulesOf } from "./rbac-policy.js";
import type { PolicyRule } from "./rbac-rules.js";
import { SYSTEM_MASTERS } from "./user-info.js";
import { currentRequestContext, type RequestContext } from "./request-context.js";

export type { RequestContext };

/** `breakdownRule`: one rule per (group, resource, verb[, name]) and per (URL, verb), generated lazily. */
function* breakdown(r: PolicyRule): Generator<PolicyRule> {
  const mk = (p: Partial<PolicyRule>): PolicyRule => ({ verbs: [], apiGroups: [], resources: [], resourceNames: [], nonResourceURLs: [], ...p });
  for (const g of r.apiGroups) {
    for (const res of r.resources) {
      for (const v of r.verbs) {
        if (r.resourceNames.length > 0) for (const n of r.resourceNames) yield mk({ apiGroups: [g], resources: [res], verbs: [v], resourceNames: [n] });
        else yield mk({ apiGroups: [g], resources: [res], verbs: [v] });
      }
    }
  }
  for (const u of r.nonResourceURLs) for (const v of r.verbs) yield mk({ nonResourceURLs: [u], verbs: [v] });
}

/**
 * How many single-permission atoms an escalation check examines at most. The breakdown multiplies the
 * rule's lists, so a small request (100 groups × 100 resources × 100 verbs × 100 names) would otherwise
 * keep the server busy for minutes; such roles can only be written by users allowed to escalate.
 */
export const MAX_ESCALATION_ATOMS = 100_000;

/** Too many permission atoms to check (see {@link MAX_ESCALATION_ATOMS}). */
export class TooManyAtomsError extends Error {}

const hasAll = (set: string[], want: string[]) => want.every((x) => set.includes(x));

function urlCovers(owner: string, sub: string): boolean {
  return owner === sub || (owner.endsWith("*") && sub.startsWith(owner.replace(/\*+$/, "")));
}

function ruleCovers(o: PolicyRule, s: PolicyRule): boolean {
  return (
    (o.verbs.includes("*") || hasAll(o.verbs, s.verbs)) &&
    (o.apiGroups.includes("*") || hasAll(o.apiGroups, s.apiGroups)) &&
    (o.resources.includes("*") || hasAll(o.resources, s.resources)) &&
    s.nonResourceURLs.every((u) => o.nonResourceURLs.some((x) => urlCovers(x, u))) &&
    (s.resourceNames.length === 0 ? o.resourceNames.length === 0 : o.resourceNames.length === 0 || hasAll(o.resourceNames, s.resourceNames))
  );
}

/** `Covers`: the servant rules' atoms no owner rule covers. */
export function uncovered(owner: readonly PolicyRule[], servant: readonly PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  let n = 0;
  for (const rule of servant) {
    // Fast path: one owner rule covering the whole rule covers each of its atoms.
    if (owner.some((o) => ruleCovers(o, rule))) continue;
    for (const atom of breakdown(rule)) {
      if (++n > MAX_ESCALATION_ATOMS) throw new TooManyAtomsError();
      if (!owner.some((o) => ruleCovers(o, atom))) out.push(atom);
    }
  }
  return out;
}

/** `CompactRules`: single group/resource rules that differ only in verbs are merged. */
function compact(rules: PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const r of rules) {
    const isSimple = r.resourceNames.length === 0 && r.nonResourceURLs.length === 0 && r.apiGroups.length === 1 && r.resources.length === 1;
    if (!isSimple) {
      out.push(r);
      continue;
    }
    const k = `${r.apiGroups[0]}\u0000${r.resources[0]}`;
    const e = simple.get(k);
    if (e) e.verbs.push(...r.verbs);
    else simple.set(k, { ...r, verbs: [...r.verbs] });
  }
  return [...out, ...simple.values()];
}

const quoteList = (l: readonly string[]) => `[${l.map(goQuote).join(" ")}]`;

/** `rbacv1helpers.CompactString`. */
export function compactString(r: PolicyRule): string {
  const parts: string[] = [];
  if (r.apiGroups.length > 0) parts.push(`APIGroups:${quoteList(r.apiGroups)}`);
  if (r.resources.length > 0) parts.push(`Resources:${quoteList(r.resources)}`);
  if (r.nonResourceURLs.length > 0) parts.push(`NonResourceURLs:${quoteList(r.nonResourceURLs)}`);
  if (r.resourceNames.length > 0) parts.push(`ResourceNames:${quoteList(r.resourceNames)}`);
  if (r.verbs.length > 0) parts.push(`Verbs:${quoteList(r.verbs)}`);
  return `{${parts.join(", ")}}`;
}

/** `ConfirmNoEscalation`: undefined when the user holds every permission of `rules` in `namespace`. */
function confirmNoEscalation(ctx: RequestContext, policy: RbacPolicy, rules: PolicyRule[]): string | undefined {
  const u = ctx.attrs.user;
  const owned = policy.rulesFor(u, ctx.attrs.namespace);
  let missing: PolicyRule[];
  try {
    missing = uncovered(owned.rules, rules);
  } catch (e) {
    if (!(e instanceof TooManyAtomsError)) throw e;
    return `user ${goQuote(u.name)} (groups=${quoteList(u.groups)}) is attempting to grant RBAC permissions that crdkit cannot check: the rules expand to more than ${MAX_ESCALATION_ATOMS} permissions`;
  }
  if (missing.length === 0) return undefined;
  const descriptions = [...new Set(compact(missing).map(compactString))].sort();
  let msg = `user ${goQuote(u.name)} (groups=${quoteList(u.groups)}) is attempting to grant RBAC permissions not currently held:\n${descriptions.join("\n")}`;
  if (owned.errors.length > 0) {
    const e = dedupe(owned.errors);
    msg += `; resolution errors: [${e.length === 1 ? e[0] : `[${e.join(", ")}]`}]`;
  }
  return msg;
}

function forbidden(plural: string, name: string, detail: string): ApiError {
  return new ApiError(
    failureStatus(403, "Forbidden", `${plural}.${RBAC_GROUP} ${goQuote(name)} is forbidden: ${detail}`, { name, group: RBAC_GROUP, kind: plural }),
  );
}

/** `IsOnlyMutatingGCFields`: only ownerReferences / finalizers differ. */
function onlyGcFields(obj: JsonObject, old: JsonObject): boolean {
  const strip = (o: JsonObject, from: JsonObject) => {
    const m = { ...(isObject(o["metadata"]) ? o["metadata"] : {}) };
    const fm = isObject(from["metadata"]) ? from["metadata"] : {};
    for (const k of ["ownerReferences", "finalizers"]) {
      if (fm[k] === undefined) delete m[k];
      else m[k] = fm[k]!;
    }
    for (const k of ["resourceVersion", "managedFields", "generation"]) delete m[k];
    return { ...o, metadata: m };
  };
  return deepEqual(strip(old, obj), strip(obj, obj));
}

/**
 * Refuses a write of `obj` (the decoded object; `old` on update) that would grant permissions the
 * requesting user does not hold. No-op outside a request (no context) and for `system:masters`.
 */
export function checkEscalation(kind: RbacKind, plural: string, obj: JsonObject, old: JsonObject | undefined): void {
  const ctx = currentRequestContext();
  if (!ctx || ctx.attrs.user.groups.includes(SYSTEM_MASTERS)) return;
  if (old && onlyGcFields(obj, old)) return;
  const meta = isObject(obj["metadata"]) ? obj["metadata"] : {};
  const name = typeof meta["name"] === "string" ? meta["name"] : ctx.attrs.name;
  const a = ctx.attrs;
  const ask = (verb: string, resource: string, objName: string) =>
    ctx.authorizer.authorize({ ...a, verb, apiGroup: RBAC_GROUP, apiVersion: "*", resource, subresource: "", name: objName, resourceRequest: true }).allowed;
  if (kind === "Role" || kind === "ClusterRole") {
    if (ask("escalate", a.resource, a.name)) return;
    if (!ctx.policy) return;
    const err = confirmNoEscalation(ctx, ctx.policy, rulesOf(obj));
    if (err !== undefined) throw forbidden(plural, name, err);
    return;
  }
  const b = bindingOf(obj);
  const refResource = b.roleRef.kind === "ClusterRole" ? "clusterroles" : b.roleRef.kind === "Role" ? "roles" : "";
  if (refResource !== "" && ask("bind", refResource, b.roleRef.name)) return;
  if (!ctx.policy) return;
  const rules = ctx.policy.roleRefRules(b.roleRef, a.namespace, true);
  if (typeof rules === "string") throw forbidden(plural, name, rules);
  const err = confirmNoEscalation(ctx, ctx.policy, rules);
  if (err !== undefined) throw forbidden(plural, name, err);
}
