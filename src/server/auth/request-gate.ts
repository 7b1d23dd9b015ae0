/**
 * The authentication and authorization step in front of every request (kube-apiserver's
 * `WithAuthentication` and `WithAuthorization` filters): 401 `Unauthorized` without valid credentials,
 * 403 with Kubernetes' text when the authorizer does not allow the request. An open server (no security
 * flags, loopback) admits every request as `system:unsecured` in `system:masters`.
 */
import type { IncomingMessage } from "node:http";
import type { Store } from "../../storage/types.js";
import type { RestResponse } from "../endpoints/rest-common.js";
import { Authorizer } from "./authorizer.js";
import { forbiddenError, unauthorizedError } from "./forbidden.js";
import { impersonatedUser } from "./impersonation.js";
import { ClusterRoleAggregator } from "./rbac-aggregation.js";
import { ensureBootstrapPolicy } from "./rbac-bootstrap.js";
import type { RequestContext } from "./request-context.js";
import { RbacPolicy } from "./rbac-policy.js";
import { type RequestAttributes, requestAttributes } from "./request-attributes.js";
import type { RequestUrl } from "../endpoints/request-url.js";
import type { Security } from "./security.js";
import { AUTHENTICATION_GROUP, AUTHORIZATION_GROUP, serveSelfReview } from "./self-reviews.js";
import { closeHttp2Connection } from "../http2-serving.js";
import { ALL_AUTHENTICATED, ALL_UNAUTHENTICATED, ANONYMOUS_USER, SYSTEM_MASTERS, type UserInfo } from "./user-info.js";

/** The user of request attributes computed before authentication (the kind of request only). */
export const NO_USER: UserInfo = { name: "", uid: "", groups: [] };

/** The user of an open server (the old insecure port's identity). */
const UNSECURED: UserInfo = { name: "system:unsecured", uid: "", groups: [SYSTEM_MASTERS, ALL_AUTHENTICATED] };

export class RequestGate {
  readonly authorizer: Authorizer;
  private readonly policy: RbacPolicy | undefined;
  private readonly aggregator: ClusterRoleAggregator;

  constructor(
    private readonly security: Security | undefined,
    private readonly store: Store,
    onControllerError: (e: unknown) => void = () => {},
  ) {
    const mode = security?.authorizationMode ?? "AlwaysAllow";
    this.policy = mode === "RBAC" ? new RbacPolicy(store) : undefined;
    this.aggregator = new ClusterRoleAggregator(store, onControllerError);
    this.authorizer = new Authorizer(mode, this.policy);
  }

  /**
   * Writes the default RBAC policy (RBAC mode), loads the policy and starts the aggregation controller;
   * rejects when the store cannot be read or written.
   */
  async start(): Promise<void> {
    if (this.policy) {
      await ensureBootstrapPolicy(this.store);
      await this.policy.start();
    }
    await this.aggregator.start();
  }

  /** Resolves once the RBAC policy reflects the write of `key` at `revision` (false: timed out / not RBAC). */
  caughtUp(revision: number, timeoutMs: number, key: string): Promise<boolean> {
    return this.policy ? this.policy.caughtUp(revision, timeoutMs, key) : Promise.resolve(true);
  }

  /**
   * The request's context (user, attributes); throws the 401 or 403 ApiError. `pre`: the request's attributes
   * computed before authentication (with {@link NO_USER}), completed here with the user.
   */
  admit(req: IncomingMessage, url: RequestUrl, pre?: RequestAttributes): RequestContext {
    const authn = this.security?.authenticator;
    let user = UNSECURED;
    if (authn) {
      const r = authn.authenticate(req);
      // kube-apiserver's UnauthenticatedHTTP2DOSMitigation: an HTTP/2 connection of a client without
      // credentials serves this one request (answered 401 or as the anonymous user), then GOAWAY.
      if ("error" in r) {
        closeHttp2Connection(req);
        throw unauthorizedError();
      }
      user = r.user;
      if (user.name === ANONYMOUS_USER || user.groups.includes(ALL_UNAUTHENTICATED)) closeHttp2Connection(req);
    }
    user = impersonatedUser(req, user, this.authorizer);
    const attrs = pre ? { ...pre, user } : requestAttributes(req.method ?? "GET", url, user);
    const d = this.authorizer.authorize(attrs);
    if (!d.allowed) throw forbiddenError(attrs, d.reason);
    return { attrs, authorizer: this.authorizer, policy: this.policy };
  }

  /** Stops the policy informers and the aggregation controller (shutdown). */
  stop(): void {
    this.policy?.stop();
    this.aggregator.stop();
  }

  /** SelfSubjectAccessReview / SelfSubjectReview for `user`; undefined for other paths. */
  serveReview(group: string, version: string, plural: string, method: string, req: IncomingMessage, user: UserInfo): Promise<RestResponse | undefined> | undefined {
    // Other groups are answered without an asynchronous step.
    if (group !== AUTHORIZATION_GROUP && group !== AUTHENTICATION_GROUP) return undefined;
    return serveSelfReview(group, version, plural, method, req, user, this.authorizer);
  }
}
