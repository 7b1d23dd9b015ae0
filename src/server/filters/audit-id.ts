/**
 * The API server's `WithAuditInit`, its outermost filter: every request that reaches the handler chain gets an
 * audit ID — the `Audit-ID` header the client sent, as it is, or a new UUID — echoed in the answer's `Audit-Id`
 * header (also on 404s, 429s, 504s, watches and health checks). Requests Go's HTTP server refuses before any
 * handler (a missing Host, a request target it cannot parse) get none.
 *
 * The ID is kept on the response and each writer puts it in the header object it gives `writeHead` ({@link
 * auditHeader}): a header set beforehand with `setHeader` would send every answer through Node's slower
 * progressive-header path (measured: ~10,000 more instructions per GET).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { randomUuid } from "../random-uuid.js";

/** The answer's header (Go's canonical form of `Audit-ID`). */
export const AUDIT_ID_HEADER = "Audit-Id";

const AUDIT_ID = Symbol("auditId");
type Audited = ServerResponse & { [AUDIT_ID]?: string };

/** Gives the request its audit ID (kept on `res` for its answer) and returns it. */
export function initAuditId(req: IncomingMessage, res: ServerResponse): string {
  const sent = req.headers["audit-id"];
  const id = typeof sent === "string" && sent !== "" ? sent : randomUuid();
  (res as Audited)[AUDIT_ID] = id;
  return id;
}

/** The request's audit ID, if it has one. */
export function auditIdOf(res: ServerResponse): string | undefined {
  return (res as Audited)[AUDIT_ID];
}

const NONE: Readonly<Record<string, string>> = Object.freeze({});

/** `{ "Audit-Id": id }` to spread into an answer's headers, or nothing. */
export function auditHeader(res: ServerResponse): Readonly<Record<string, string>> {
  const id = (res as Audited)[AUDIT_ID];
  return id === undefined ? NONE : { [AUDIT_ID_HEADER]: id };
}

/** Sets the audit ID header on `res` for writers that build their headers with `setHeader`. */
export function setAuditHeader(res: ServerResponse): void {
  const id = (res as Audited)[AUDIT_ID];
  if (id !== undefined) res.setHeader(AUDIT_ID_HEADER, id);
}
