/**
 * User impersonation (apiserver `filters.WithImpersonation`): `Impersonate-User`, `Impersonate-Group`,
 * `Impersonate-Uid`, `Impersonate-Extra-<key>` headers, each authorized as the `impersonate` verb on
 * users / serviceaccounts / groups / uids / userextras for the authenticated user; the request then runs
 * as the impersonated user (kubectl `--as`, `--as-group`).
 */
import type { IncomingMessage } from "node:http";
import { apiErrors } from "../endpoints/errors.js";
import type { Authorizer } from "./authorizer.js";
import { forbiddenError } from "./forbidden.js";
import type { RequestAttributes } from "./request-attributes.js";
import { ALL_AUTHENTICATED, ALL_UNAUTHENTICATED, ANONYMOUS_USER, type UserInfo } from "./user-info.js";

const SA_PREFIX = "system:serviceaccount:";

function headerValues(req: IncomingMessage, name: string): string[] {
  const out: string[] = [];
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) if (raw[i]!.toLowerCase() === name) out.push(raw[i + 1]!);
  return out;
}

/** The user a request acts as: `requestor` itself when no impersonation header is present. */
export function impersonatedUser(req: IncomingMessage, requestor: UserInfo, authorizer: Authorizer): UserInfo {
  const users = headerValues(req, "impersonate-user");
  const groupsAsked = headerValues(req, "impersonate-group");
  const uids = headerValues(req, "impersonate-uid");
  const extras: [string, string][] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const h = req.rawHeaders[i]!.toLowerCase();
    if (h.startsWith("impersonate-extra-")) {
      let key = h.slice("impersonate-extra-".length);
      try {
        key = decodeURIComponent(key);
      } catch {
        // kept as sent
      }
      extras.push([key, req.rawHeaders[i + 1]!]);
    }
  }
  if (users.length === 0) {
    if (groupsAsked.length > 0 || uids.length > 0 || extras.length > 0) {
      throw apiErrors.internal("requested impersonation of groups, extra or uid without impersonating a user");
    }
    return requestor;
  }
  const username = users[0]!;
  const base = (resource: string, name: string, apiGroup = "", namespace = "", subresource = ""): RequestAttributes => ({
    user: requestor,
    verb: "impersonate",
    resourceRequest: true,
    path: "",
    apiGroup,
    apiVersion: "v1",
    namespace,
    resource,
    subresource,
    name,
  });
  const checks: RequestAttributes[] = [];
  let groups: string[] = [];
  if (username.startsWith(SA_PREFIX) && username.slice(SA_PREFIX.length).split(":").length === 2) {
    const [ns, name] = username.slice(SA_PREFIX.length).split(":") as [string, string];
    checks.push(base("serviceaccounts", name, "", ns));
    if (groupsAsked.length === 0) groups = ["system:serviceaccounts", `system:serviceaccounts:${ns}`];
  } else checks.push(base("users", username));
  for (const g of groupsAsked) {
    checks.push(base("groups", g));
    groups.push(g);
  }
  const extra: Record<string, string[]> = {};
  for (const [k, v] of extras) {
    checks.push(base("userextras", v, "authentication.k8s.io", "", k));
    (extra[k] ??= []).push(v);
  }
  if (uids.length > 0) checks.push(base("uids", uids[0]!, "authentication.k8s.io"));
  for (const a of checks) {
    const d = authorizer.authorize(a);
    if (!d.allowed) throw forbiddenError(a, d.reason);
  }
  if (username !== ANONYMOUS_USER) {
    if (!groups.includes(ALL_AUTHENTICATED) && !groups.includes(ALL_UNAUTHENTICATED)) groups.push(ALL_AUTHENTICATED);
  } else if (!groups.includes(ALL_UNAUTHENTICATED)) groups.push(ALL_UNAUTHENTICATED);
  const u: UserInfo = { name: username, uid: uids[0] ?? "", groups };
  if (Object.keys(extra).length > 0) u.extra = extra;
  return u;
}
