/**
 * Answers a request Node's HTTP parser refuses before crdkit sees it (a malformed request line or header, a head
 * over the size limit) as Go's HTTP server answers a request it cannot read: the status line, a plain-text
 * Content-Type, `Connection: close`, the status as the body, and the connection closed. Node's own answer
 * has no body. A read that timed out or a connection the client reset is closed without an answer, as Go does.
 */
import type { Duplex } from "node:stream";
import { constants } from "node:http2";

const { NGHTTP2_PROTOCOL_ERROR } = constants;

/** Go's `errorHeaders` (net/http server.go). */
const ERROR_HEADERS = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n";

/** The status Go answers for a head it cannot read: 431 for one over the size limit, else 400. */
function goStatusOf(code: string | undefined): string {
  return code === "HPE_HEADER_OVERFLOW" ? "431 Request Header Fields Too Large" : "400 Bad Request";
}

type HttpSocket = Duplex & { _httpMessage?: (NodeJS.EventEmitter & { writableFinished?: boolean }) | null };

/**
 * A `clientError` listener for node:http / node:https servers. A bad request pipelined behind one still being
 * answered is answered after it, as Go reads and answers a connection's requests in turn.
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (err.code === "ECONNRESET" || err.code === "ERR_HTTP_REQUEST_TIMEOUT") {
    socket.destroy();
    return;
  }
  answerWhenIdle(socket as HttpSocket, goStatusOf(err.code));
}

function answerWhenIdle(socket: HttpSocket, status: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const inFlight = socket._httpMessage;
  if (inFlight && !inFlight.writableFinished) {
    inFlight.once("finish", () => answerWhenIdle(socket, status));
    return;
  }
  socket.end(`HTTP/1.1 ${status}${ERROR_HEADERS}${status}`);
}

/**
 * Go's answer to an HTTP/1.1 request without a Host header (`badRequestError("missing required Host header")`);
 * Node's parser is told not to answer it itself (`requireHostHeader: false`), so that the server does here.
 * Answers and returns true when `req` lacks the header.
 */
export function refuseMissingHost(req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse): boolean {
  if (req.headers.host !== undefined || req.httpVersion !== "1.1" || req.method === "CONNECT") return false;
  sendGoRefusal(res, "400 Bad Request: missing required Host header");
  return true;
}

/**
 * Answers a request Go's server refuses while reading it (`status`: `400 Bad Request`, or with its reason after
 * a colon) as Go writes that answer: the status line, Go's `errorHeaders` (no Date, no Content-Length, no
 * chunking), `status` as the body, and the connection closed after it.
 */
export function sendGoRefusal(res: import("node:http").ServerResponse, status: string): void {
  if (res.req?.httpVersionMajor === 2) {
    // x/net/http2 refuses a request it cannot read (a bad :path) with RST_STREAM PROTOCOL_ERROR.
    (res as unknown as { stream: import("node:http2").Http2Stream }).stream.close(NGHTTP2_PROTOCOL_ERROR);
    return;
  }
  res.sendDate = false;
  res.shouldKeepAlive = false;
  // Node frames a body with Content-Length (or chunks) unless both are removed: then it writes the body as is
  res.removeHeader("Content-Length");
  res.removeHeader("Transfer-Encoding");
  res.writeHead(Number(status.slice(0, 3)), status.slice(4), { "Content-Type": "text/plain; charset=utf-8", Connection: "close" });
  res.end(status);
}

/**
 * Go's answer to an `Expect` header other than `100-continue`: 417 with `Connection: close` and an empty body
 * (Node's own answer is chunked); the request is not served.
 */
export function refuseExpectation(_req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse): void {
  res.shouldKeepAlive = false;
  res.writeHead(417, { Connection: "close", "Content-Length": "0" });
  res.end();
}
