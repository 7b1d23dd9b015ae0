/**
 * The API server's in-flight request limits (`--max-requests-inflight` 400, `--max-mutating-requests-inflight`
 * 200; apiserver `filters/maxinflight.go`): past them a request is answered at once with 429, `Retry-After: 1`
 * and the plain text `Too many requests, please try again later.`, so that many slow or large uploads cannot
 * hold unbounded memory. Watches (long-running) are not counted.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { requestUrl } from "../endpoints/request-url.js";
import { queryBool } from "../endpoints/query-params.js";
import { auditHeader } from "./audit-id.js";

export const MAX_REQUESTS_IN_FLIGHT = 400;
export const MAX_MUTATING_REQUESTS_IN_FLIGHT = 200;

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * A watch request, which the limits do not count: `watch=` as the parameter codec reads it (any value but
 * "0" and "false"), or a path of the deprecated `/watch/` form.
 */
export function longRunning(req: Pick<IncomingMessage, "method" | "url">): boolean {
  const url = req.url ?? "";
  // Only a target that names `watch` (possibly percent-encoded) can be one: most requests skip the parse.
  if (req.method !== "GET" || !(url.includes("watch") || url.includes("%"))) return false;
  // A target URL refuses is answered 400 by the handler.
  const u = requestUrl(url);
  if (!u) return false;
  if (/^\/apis?\/(?:[^/]+\/)?[^/]+\/watch\/./.test(u.pathname)) return true;
  return u.searchParams.has("watch") && queryBool(u.searchParams.get("watch"));
}

export class InFlightLimits {
  private readOnly = 0;
  private mutating = 0;

  constructor(
    private readonly maxReadOnly = MAX_REQUESTS_IN_FLIGHT,
    private readonly maxMutating = MAX_MUTATING_REQUESTS_IN_FLIGHT,
  ) {}

  /**
   * Counts `req` until `res` finishes or closes; answers 429 and returns false when its kind is at the limit.
   */
  admit(req: IncomingMessage, res: ServerResponse): boolean {
    if (longRunning(req)) return true;
    const mutating = MUTATING.has(req.method ?? "GET");
    if (mutating ? this.mutating >= this.maxMutating : this.readOnly >= this.maxReadOnly) {
      const text = "Too many requests, please try again later.\n";
      res.writeHead(429, {
        "Retry-After": "1",
        "Content-Type": "text/plain; charset=utf-8",
        "X-Content-Type-Options": "nosniff",
        "Content-Length": String(Buffer.byteLength(text)),
        // The body is not read: do not keep the connection for it (HTTP/2 resets the stream instead).
        ...(req.httpVersionMajor === 2 ? {} : { Connection: "close" }),
        ...auditHeader(res),
      });
      res.end(text);
      return false;
    }
    if (mutating) this.mutating++;
    else this.readOnly++;
    let done = false;
    const leave = () => {
      if (done) return;
      done = true;
      if (mutating) this.mutating--;
      else this.readOnly--;
    };
    res.once("finish", leave);
    res.once("close", leave);
    return true;
  }
}
