/**
 * Kubernetes `metav1.Status` objects, as the API server returns them for failed requests.
 */
import { goQuote } from "../go/fmt.js";
import { aggregateMessage, errorBody, type FieldError } from "./field-error.js";

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface Status {
  kind: "Status";
  apiVersion: "v1";
  metadata: Record<string, never>;
  status: "Failure";
  message: string;
  reason: string;
  details?: { name?: string; group?: string; kind?: string; causes?: StatusCause[]; retryAfterSeconds?: number };
  code: number;
}

/** `schema.GroupKind.String()`: `Kind.group`, or `Kind` for the core group. */
export function qualifiedKind(kind: string, group: string): string {
  return group === "" ? kind : `${kind}.${group}`;
}

/** `apierrors.NewInvalid(qualifiedKind, name, errs)`: HTTP 422 with one cause per error (not de-duplicated). */
export function invalidStatus(kind: string, group: string, name: string, errors: readonly FieldError[]): Status {
  const agg = aggregateMessage(errors);
  const qk = qualifiedKind(kind, group);
  const message = agg === "" ? `${qk} ${goQuote(name)} is invalid` : `${qk} ${goQuote(name)} is invalid: ${agg}`;
  return {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message,
    reason: "Invalid",
    // StatusDetails' name is omitempty in Go: an options kind's error (ListOptions, DeleteOptions, ...) has none
    details: {
      ...(name === "" ? {} : { name }),
      group,
      kind,
      causes: errors.map((e) => ({ reason: e.type, message: errorBody(e), field: e.field })),
    },
    code: 422,
  };
}

/** A Status with a reason and code and no details. */
export function failureStatus(
  code: number,
  reason: string,
  message: string,
  details?: Status["details"],
): Status {
  const s: Status = { kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message, reason, code };
  if (details) s.details = details;
  return s;
}
