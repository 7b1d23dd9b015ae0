/** How storage failures are answered. */
import { failureStatus } from "../../errors/index.js";
import { RequestTooLargeError } from "../../storage/request-size.js";
import { StoreFaultError } from "../../storage/store-faults.js";
import { ApiError, apiErrors } from "./errors.js";

/**
 * The answer to a storage error, or undefined for errors that are not storage's: etcd's size refusals
 * are 500 with etcd's text (the API server passes them through); a damaged database is 503.
 */
export function storageApiError(e: unknown): ApiError | undefined {
  if (e instanceof RequestTooLargeError) return apiErrors.internalPlain(e.message);
  if (e instanceof StoreFaultError) return new ApiError(failureStatus(503, "ServiceUnavailable", `crdkit: ${e.message}`));
  return undefined;
}
