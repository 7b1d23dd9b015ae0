/**
 * Request authorization as kube-apiserver builds it: the privileged-group authorizer (`system:masters` may
 * do everything) followed by `--authorization-mode` — `AlwaysAllow`, or `RBAC` over {@link RbacPolicy}.
 */
import { dedupe } from "./dedupe.js";
import { type PolicyRule, ruleAllows } from "./rbac-rules.js";
import type { RbacPolicy } from "./rbac-policy.js";
import type { RequestAttributes } from "./request-attributes.js";
import { SYSTEM_MASTERS, type UserInfo } from "./user-info.js";

export type AuthorizationMode = "AlwaysAllow" | "RBAC";

export interface Decision {
  allowed: boolean;
  /** The authorizer's reason (`RBAC: allowed by …`, or resolution errors of a denial), may be "". */
  reason: string;
}

export class Authorizer {
  constructor(
    readonly mode: AuthorizationMode,
    private readonly rbac: RbacPolicy | undefined,
  ) {}

  /**
   * `RulesFor` of the union authorizer (SelfSubjectRulesReview): everything for `system:masters` and under
   * AlwaysAllow, then the user's RBAC rules in `namespace`, with RBAC resolution errors.
   */
  rulesFor(u: UserInfo, namespace: string): { rules: PolicyRule[]; errors: string[] } {
    const all: PolicyRule[] = [
      { verbs: ["*"], apiGroups: ["*"], resources: ["*"], resourceNames: [], nonResourceURLs: [] },
      { verbs: ["*"], apiGroups: [], resources: [], resourceNames: [], nonResourceURLs: ["*"] },
    ];
    const rules: PolicyRule[] = [];
    if (u.groups.includes(SYSTEM_MASTERS)) rules.push(...all);
    if (this.mode === "AlwaysAllow" || !this.rbac) return { rules: [...rules, ...all], errors: [] };
    const r = this.rbac.rulesFor(u, namespace, false);
    return { rules: [...rules, ...r.rules], errors: dedupe(r.errors) };
  }

  authorize(a: RequestAttributes): Decision {
    if (a.user.groups.includes(SYSTEM_MASTERS)) return { allowed: true, reason: "" };
    if (this.mode === "AlwaysAllow" || !this.rbac) return { allowed: true, reason: "" };
    let allowed = false;
    let reason = "";
    const errors: string[] = [];
    this.rbac.visitRulesFor(a.user, a.namespace, (source, rule, err) => {
      if (rule && ruleAllows(a, rule)) {
        allowed = true;
        reason = `RBAC: allowed by ${source ?? ""}`;
        return false;
      }
      if (err !== undefined) errors.push(err);
      return true;
    });
    if (allowed) return { allowed, reason };
    // utilerrors.NewAggregate(errs).Error(): one message alone, several as `[a, b]` (duplicates once).
    const msgs = dedupe(errors);
    return { allowed: false, reason: msgs.length === 0 ? "" : `RBAC: ${msgs.length === 1 ? msgs[0] : `[${msgs.join(", ")}]`}` };
  }
}
