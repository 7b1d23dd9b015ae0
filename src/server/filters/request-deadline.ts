/**
 * kube-apiserver's request deadline (`WithRequestDeadline`) and timeout (`WithTimeoutForNonLongRunningRequests`)
 * filters. A request that is not long-running (not a watch or proxy, no attach/exec/log/portforward
 * subresource) gets a deadline: `--request-timeout` (default 1m0s), or less when its `?timeout=` (a Go duration)
 * asks for less; `timeout=0s`, a negative one or one over the maximum leave the default. A `?timeout=` Go cannot
 * parse is answered 400 before authentication. When the deadline passes before the answer started (a body that
 * arrives too slowly, a store that does not answer), the answer is the timeout filter's 504 and whatever the
 * handler does later is dropped; an answer already started is cut (Go: `http.ErrAbortHandler`).
 */
import { constants as h2 } from "node:http2";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { goParseDuration } from "../../go/time.js";
import type { RequestAttributes } from "../auth/request-attributes.js";
import { apiErrors } from "../endpoints/errors.js";
import type { QueryParams } from "../endpoints/request-url.js";
import { isHttp2 } from "../http2-serving.js";
import { auditHeader } from "./audit-id.js";

/** kube-apiserver's `--request-timeout` default (`RequestTimeout`, 1m0s). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** `BasicLongRunningRequestCheck` of the apiextensions-apiserver: verbs and subresources. */
const LONG_RUNNING_VERBS = new Set(["watch", "proxy"]);
const LONG_RUNNING_SUBRESOURCES = new Set(["attach", "exec", "proxy", "log", "portforward"]);

/** Whether the filters leave a request without a deadline. */
export function isLongRunning(attrs: Pick<RequestAttributes, "verb" | "resourceRequest" | "subresource">): boolean {
  return LONG_RUNNING_VERBS.has(attrs.verb) || (attrs.resourceRequest && LONG_RUNNING_SUBRESOURCES.has(attrs.subresource));
}

/**
 * The request's deadline in ms from now (`maxMs`, or the `?timeout=` asked for when it is positive and
 * shorter); throws the 400 of a `?timeout=` Go's `time.ParseDuration` refuses.
 */
export function requestDeadlineMs(query: QueryParams, maxMs: number): number {
  const value = query.get("timeout") ?? "";
  if (value === "") return maxMs;
  const d = goParseDuration(value);
  if (typeof d === "string") throw apiErrors.badRequest(`invalid timeout specified in the request URL - ${d}`);
  return d > 0n && d < BigInt(maxMs) * 1_000_000n ? Number(d) / 1e6 : maxMs;
}

/**
 * The timeout filter's answer: `metav1.Status` as Go's json.Encoder writes the struct (no kind or apiVersion,
 * empty `metadata` and `details`), its content type sniffed by Go's server as text.
 */
export const DEADLINE_EXCEEDED_BODY =
  '{"metadata":{},"status":"Failure","message":"Timeout: request did not complete within the allotted timeout","reason":"Timeout","details":{},"code":504}\n';

/**
 * Answers a request whose deadline passed: the 504 when nothing was sent yet (only the headers the filters
 * set before the handler: the handler's own are dropped, as the timeout writer keeps its copy), else the
 * answer is cut. True when the 504 was sent. On HTTP/2 a request whose body is still arriving then gets
 * RST_STREAM `NO_ERROR`, as x/net/http2 ends a stream whose handler returned before the client finished; on
 * HTTP/1.1 the 504 says `Connection: close` and the connection ends once it is sent, so that a body still
 * trickling in holds neither the socket nor the handler reading it. (Go's server closes so when 256 KiB or
 * more of the body are unread; for less it first reads and discards the rest, however slowly it comes: crdkit
 * closes in both cases.)
 */
export function answerDeadlineExceeded(req: IncomingMessage, res: ServerResponse): boolean {
  if (res.writableEnded) return false;
  if (res.headersSent) {
    res.destroy();
    return false;
  }
  for (const name of res.getHeaderNames()) res.removeHeader(name);
  res.writeHead(504, {
    "Cache-Control": "no-cache, private",
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Length": String(DEADLINE_EXCEEDED_BODY.length),
    // Node's server ends the connection after an answer that says so.
    ...(!isHttp2(req) && !req.complete ? { Connection: "close" } : {}),
    ...auditHeader(res),
  });
  res.end(DEADLINE_EXCEEDED_BODY);
  if (isHttp2(req) && !req.complete) {
    // Once the answer's frames are out (the stream's writable side finished).
    const stream = (req as unknown as { stream?: Duplex & { close(code: number): void; closed: boolean } }).stream;
    const reset = () => {
      if (stream && !stream.closed) stream.close(h2.NGHTTP2_NO_ERROR);
    };
    if (stream?.writableFinished) reset();
    else stream?.once("finish", reset);
  }
  return true;
}
