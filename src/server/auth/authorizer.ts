/**
 * Request authorization as kube-apiserver builds it: the privileged-group authorizer (`system:masters` may
 * do everything) followed by `--authorization-mode` — `AlwaysAllow`, or `RBAC` over {@link RbacPolicy}.
 */
import { dedupe } from "./dedupe.js";
import { ruleAllows } from "./rbac-rules.js";
import type { RbacPolicy } from "./rbac-policy.js";
import type { RequestAttributes } from "./request-attributes.js";
import { SYSTEM_MASTERS } from "./user-info.js";

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
