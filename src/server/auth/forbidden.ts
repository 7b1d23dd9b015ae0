/**
 * The 401 and 403 answers of the API server's filters (`responsewriters.forbiddenMessage`, `Forbidden`,
 * `apierrors.NewForbidden`, `NewUnauthorized`).
 */
import { failureStatus } from "../../errors/index.js";
import { goQuote } from "../../go/fmt.js";
import { ApiError, groupResource } from "../endpoints/errors.js";
import type { RequestAttributes } from "./request-attributes.js";

/** `forbiddenMessage(attributes)`. */
export function forbiddenMessage(a: RequestAttributes): string {
  const user = goQuote(a.user.name);
  if (!a.resourceRequest) return `User ${user} cannot ${a.verb} path ${goQuote(a.path)}`;
  const resource = a.subresource === "" ? a.resource : `${a.resource}/${a.subresource}`;
  const what = `User ${user} cannot ${a.verb} resource ${goQuote(resource)} in API group ${goQuote(a.apiGroup)}`;
  return a.namespace !== "" ? `${what} in the namespace ${goQuote(a.namespace)}` : `${what} at the cluster scope`;
}

/** The 403 of a denied request; `reason` (the authorizer's) is appended after `: ` when not empty. */
export function forbiddenError(a: RequestAttributes, reason: string): ApiError {
  const msg = reason === "" ? forbiddenMessage(a) : `${forbiddenMessage(a)}: ${reason}`;
  const gr = a.resourceRequest ? groupResource(a.resource, a.apiGroup) : "";
  let message: string;
  if (gr === "") message = `forbidden: ${msg}`;
  else if (a.name === "") message = `${gr} is forbidden: ${msg}`;
  else message = `${gr} ${goQuote(a.name)} is forbidden: ${msg}`;
  const details: Record<string, string> = {};
  if (a.name !== "") details["name"] = a.name;
  if (a.resourceRequest && a.apiGroup !== "") details["group"] = a.apiGroup;
  if (a.resourceRequest && a.resource !== "") details["kind"] = a.resource;
  return new ApiError(failureStatus(403, "Forbidden", message, details));
}

/** `apierrors.NewUnauthorized("Unauthorized")`. */
export function unauthorizedError(): ApiError {
  return new ApiError(failureStatus(401, "Unauthorized", "Unauthorized"));
}
