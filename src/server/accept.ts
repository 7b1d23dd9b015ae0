/**
 * Response media-type negotiation of resource requests: the custom resource handler serves JSON and YAML
 * (and Table as JSON); an `Accept` header that allows none of them gets 406 with the API server's text.
 */
import { ApiError } from "./errors.js";
import { failureStatus } from "../errors/index.js";

const SERVED = ["application/json", "application/yaml"];

/** Whether `accept` (an HTTP Accept header) allows a media type crdkit can answer with. */
export function acceptable(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === "") return true;
  for (const part of accept.split(",")) {
    const type = (part.split(";")[0] ?? "").trim().toLowerCase();
    if (type === "" || type === "*/*" || type === "application/*" || SERVED.includes(type)) return true;
  }
  return false;
}

/** `NewNotAcceptableError` as the serializer negotiation reports it. */
export function notAcceptableError(): ApiError {
  return new ApiError(
    failureStatus(406, "NotAcceptable", "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf"),
  );
}
