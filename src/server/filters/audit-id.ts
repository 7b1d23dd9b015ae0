/**
 * The API server's `WithAuditInit`, its outermost filter: every request that reaches the handler chain gets an
 * audit ID — the `Audit-ID` header the client sent, as it is, or a new UUID — echoed in the answer's `Audit-Id`
 * header (also on 404s, 429s, 504s, watches and health checks). Requests Go's HTTP server refuses before any
 * handler (a missing Host, a request target it cannot parse) get none (`sendGoRefusal` removes it).
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

/** The answer's header (Go's canonical form of `Audit-ID`). */
export const AUDIT_ID_HEADER = "Audit-Id";

/** Sets the request's audit ID on its answer and returns it. */
export function initAuditId(req: IncomingMessage, res: ServerResponse): string {
  const sent = req.headers["audit-id"];
  const id = typeof sent === "string" && sent !== "" ? sent : randomUUID();
  res.setHeader(AUDIT_ID_HEADER, id);
  return id;
}
