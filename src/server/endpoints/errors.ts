/**
 * Kubernetes `Status` errors as the API server returns them (apimachinery `api/errors`), thrown by
 * handlers as {@link ApiError} and rendered by the HTTP layer.
 */
import { failureStatus, invalidStatus, type FieldError, type Status } from "../../errors/index.js";
import { goQuote } from "../../go/fmt.js";

/** A request failure carrying the Status to send. */
export class ApiError extends Error {
  /** The Status already encoded for the answer (another media type or layout than compact JSON). */
  encoded?: { contentType: string; body: string | Uint8Array };
  /** `Warning` headers sent with the error (a deprecated version warns on failed requests too). */
  warnings?: string[];
  constructor(
    readonly status: Status,
    /** Sent as `text/plain` instead of the Status (the Go mux's `404 page not found`). */
    readonly plainText?: string,
  ) {
    super(status.message);
  }
}

/** `plural.group` (or `plural` for the core group), as Kubernetes' `GroupResource.String()`. */
export function groupResource(plural: string, group: string): string {
  return group === "" ? plural : `${plural}.${group}`;
}

export const apiErrors = {
  notFound: (plural: string, group: string, name: string): ApiError =>
    new ApiError(
      failureStatus(404, "NotFound", `${groupResource(plural, group)} ${goQuote(name)} not found`, {
        name,
        group,
        kind: plural,
      }),
    ),
  /** The NotFound Status without details of a group handler. */
  notFoundStatus: (): ApiError =>
    new ApiError(failureStatus(404, "NotFound", "the server could not find the requested resource", {})),
  /** 404 for a path no handler serves: the API server's mux answers `404 page not found` as plain text. */
  pathNotFound: (): ApiError =>
    new ApiError(failureStatus(404, "NotFound", "the server could not find the requested resource", {}), "404 page not found\n"),
  alreadyExists: (plural: string, group: string, name: string): ApiError =>
    new ApiError(
      failureStatus(409, "AlreadyExists", `${groupResource(plural, group)} ${goQuote(name)} already exists`, {
        name,
        group,
        kind: plural,
      }),
    ),
  conflict: (plural: string, group: string, name: string, detail: string): ApiError =>
    new ApiError(
      failureStatus(409, "Conflict", `Operation cannot be fulfilled on ${groupResource(plural, group)} ${goQuote(name)}: ${detail}`, {
        name,
        group,
        kind: plural,
      }),
    ),
  /** The optimistic-concurrency conflict text of the registry store. */
  modified: (plural: string, group: string, name: string): ApiError =>
    apiErrors.conflict(
      plural,
      group,
      name,
      "the object has been modified; please apply your changes to the latest version and try again",
    ),
  badRequest: (message: string): ApiError => new ApiError(failureStatus(400, "BadRequest", message)),
  invalid: (kind: string, group: string, name: string, errors: readonly FieldError[]): ApiError =>
    new ApiError(invalidStatus(kind, group, name, errors)),
  /** `NewMethodNotSupported(groupResource, action)`: 405 `delete is not supported on resources of kind "pins.example.com"`. */
  methodNotSupported: (plural: string, group: string, action: string): ApiError =>
    new ApiError(failureStatus(405, "MethodNotAllowed", `${action} is not supported on resources of kind ${goQuote(groupResource(plural, group))}`, { group, kind: plural })),
  methodNotAllowed: (): ApiError =>
    new ApiError(failureStatus(405, "MethodNotAllowed", "the server does not allow this method on the requested resource", {})),
  /** `NewForbidden(groupResource, name, err)`. */
  forbiddenResource: (plural: string, group: string, name: string, detail: string): ApiError =>
    new ApiError(
      failureStatus(
        403,
        "Forbidden",
        name === "" ? `${groupResource(plural, group)} is forbidden: ${detail}` : `${groupResource(plural, group)} ${goQuote(name)} is forbidden: ${detail}`,
        { ...(name !== "" ? { name } : {}), group, kind: plural },
      ),
    ),
  unsupportedMediaType: (accepted: readonly string[]): ApiError =>
    new ApiError(
      failureStatus(
        415,
        "UnsupportedMediaType",
        `the body of the request was in an unknown format - accepted media types include: ${accepted.join(", ")}`,
      ),
    ),
  notAcceptable: (): ApiError =>
    new ApiError(failureStatus(406, "NotAcceptable", "the server was unable to respond with a content type that the client supports")),
  tooLarge: (limit: number): ApiError =>
    new ApiError(failureStatus(413, "RequestEntityTooLarge", `Request entity too large: limit is ${limit}`)),
  /** `NewRequestEntityTooLargeError(message)`. */
  tooLargeMessage: (message: string): ApiError =>
    new ApiError(failureStatus(413, "RequestEntityTooLarge", `Request entity too large: ${message}`)),
  /** `NewGenericServerResponse(422, …)`: how the API server reports a JSON patch that cannot be applied. */
  patchRejected: (_detail: string): ApiError =>
    new ApiError(
      // Kubernetes 1.37 answers the generic text with empty details; the patch error itself is not returned.
      failureStatus(422, "Invalid", "the server rejected our request due to an error in our request", {}),
    ),
  expired: (message: string): ApiError => new ApiError(failureStatus(410, "Expired", message)),
  /** `NewTimeoutError(message, 0)`: 504. */
  timeout: (message: string): ApiError => new ApiError(failureStatus(504, "Timeout", `Timeout: ${message}`, {})),
  forbidden: (message: string): ApiError => new ApiError(failureStatus(403, "Forbidden", message)),
  /** A 500 Status with no reason (`errors.NewInternalError` is not used: the message is the error itself). */
  internalPlain: (message: string): ApiError => new ApiError(failureStatus(500, "", message)),
  internal: (message: string): ApiError =>
    new ApiError(failureStatus(500, "InternalError", `Internal error occurred: ${message}`, { causes: [{ message }] })),
};
