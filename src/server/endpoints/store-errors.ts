/**
 * How store failures reach clients, as kube-apiserver answers when etcd is unreachable: a request that
 * ran out of time is 504 `Timeout: request did not complete within requested timeout - context deadline
 * exceeded`; an etcd error that is not an API status (e.g. the connection dropped mid-call) is the
 * generic 500 of `ErrorToAPIStatus` with the gRPC error text and no reason (`StatusReasonUnknown`).
 */
import { failureStatus } from "../../errors/index.js";
import { StoreUnavailableError } from "../../storage/types.js";
import { ApiError, apiErrors } from "./errors.js";

export function storeFailure(e: unknown): ApiError | undefined {
  if (!(e instanceof StoreUnavailableError)) return undefined;
  if (e.timeout) return apiErrors.timeout(e.message);
  const status = failureStatus(500, "", e.message);
  delete (status as { reason?: string }).reason;
  return new ApiError(status);
}
