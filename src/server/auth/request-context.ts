/**
 * The request context of a write (Kubernetes' `request.Context`: the user and request attributes) as seen by
 * admission code that needs it (RBAC escalation checks). Admission is synchronous, so the context is set
 * around the admission call only ({@link withRequestContext}); no AsyncLocalStorage, whose promise hooks
 * would slow down every request of the process.
 */
import type { Authorizer } from "./authorizer.js";
import type { RbacPolicy } from "./rbac-policy.js";
import type { RequestAttributes } from "./request-attributes.js";

/** What a write needs to know about the request it serves. */
export interface RequestContext {
  attrs: RequestAttributes;
  authorizer: Authorizer;
  policy: RbacPolicy | undefined;
}

let current: RequestContext | undefined;

/** Runs the synchronous `f` (an admission call) with `ctx` as the current request context. */
export function withRequestContext<T>(ctx: RequestContext | undefined, f: () => T): T {
  const outer = current;
  current = ctx;
  try {
    return f();
  } finally {
    current = outer;
  }
}

/** The context of the admission call running now (undefined outside a request). */
export function currentRequestContext(): RequestContext | undefined {
  return current;
}
