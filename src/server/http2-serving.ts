/**
 * HTTP/2 beside HTTP/1.1 on the TLS port, negotiated by ALPN as kube-apiserver's `SecureServingInfo.Serve`
 * (Go net/http with x/net/http2): `h2` is preferred when the client offers it, a client without ALPN (or
 * offering only `http/1.1`) is served HTTP/1.1. `--disable-http2-serving` offers `http/1.1` only.
 *
 * The HTTP/2 settings are Kubernetes': `MaxConcurrentStreams` 100 (`--http2-max-streams-per-connection`),
 * `MaxReadFrameSize` and `MaxUploadBufferPerStream` 256 KiB (the initial stream window), the connection's
 * window 256 KiB × streams, `MaxHeaderListSize` 1 MiB + 320 (`MaxHeaderBytes` as x/net/http2 pads it),
 * `IdleTimeout` 90 s (a connection without streams that long is sent GOAWAY and closed). As Go's server does
 * against rapid reset (CVE-2023-44487), a connection runs at most `MaxConcurrentStreams` handlers at once
 * whether or not their streams were reset; later requests wait, and more than 4 × that many waiting ends the
 * connection with GOAWAY `ENHANCE_YOUR_CALM`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { Server as HttpServer } from "node:http";
import { HandlerLimit } from "./http2-handler-limit.js";
import {
  constants,
  createSecureServer,
  type Http2SecureServer,
  type Http2ServerRequest,
  type Http2ServerResponse,
  type SecureServerOptions,
  type ServerHttp2Session,
} from "node:http2";

/** `--disable-http2-serving` and `--http2-max-streams-per-connection` (kube-apiserver's serving flags). */
export interface Http2ServingOptions {
  /** Offer `http/1.1` only (default false: `h2` and `http/1.1`). */
  disabled?: boolean;
  /** Streams a client may open at once on one connection; 0 or absent: 100 (the generic API server's). */
  maxStreamsPerConnection?: number;
  /** How long a connection without streams stays open (default 90 s, `IdleTimeout`; shorter in tests). */
  idleTimeoutMs?: number;
}

/** The generic API server's `MaxConcurrentStreams` when the flag is 0 (what clients assume before SETTINGS). */
export const DEFAULT_HTTP2_MAX_STREAMS = 100;
/** `resourceBody99Percentile`: the stream window and the largest frame read. */
export const HTTP2_STREAM_WINDOW = 256 * 1024;
/** `IdleTimeout` of the HTTP/2 server (and of the HTTP/1.1 one, `http.DefaultTransport`'s keep-alive). */
export const HTTP2_IDLE_TIMEOUT_MS = 90_000;
/** x/net/http2's `maxHeaderListSize` for `MaxHeaderBytes` 1 MiB: plus 10 fields of 32 bytes' overhead. */
export const HTTP2_MAX_HEADER_LIST_SIZE = (1 << 20) + 10 * 32;

export type AnyRequest = IncomingMessage | Http2ServerRequest;

/** Whether a request came over HTTP/2. */
export function isHttp2(req: Pick<IncomingMessage, "httpVersionMajor">): boolean {
  return req.httpVersionMajor === 2;
}

/**
 * What Go's HTTP/2 server does when a handler sets `Connection: close`: GOAWAY (NO_ERROR, the last stream
 * received) at once, streams in flight finish, the connection is closed after them. kube-apiserver does it to
 * anonymous and unauthenticated requests (`UnauthenticatedHTTP2DOSMitigation`, on by default since 1.29:
 * such clients get HTTP/1.1-without-keep-alive performance). Nothing on HTTP/1.1.
 */
export function closeHttp2Connection(req: Pick<IncomingMessage, "httpVersionMajor">): void {
  if (!isHttp2(req)) return;
  const session = (req as unknown as Http2ServerRequest).stream?.session;
  if (session && !session.closed && !session.destroyed) session.close();
}

/** The streams limit in effect for the options. */
export function maxStreams(opts: Http2ServingOptions): number {
  const n = opts.maxStreamsPerConnection ?? 0;
  return n > 0 ? n : DEFAULT_HTTP2_MAX_STREAMS;
}

/** What the server keeps per HTTP/2 connection. */
class SessionState {
  open = 0;
  /** Ended for too many waiting requests: later streams are refused. */
  calmDown = false;
  idleTimer: NodeJS.Timeout | undefined;
  constructor(readonly handlers: HandlerLimit) {}
}

/** The TLS server of both protocols and what its shutdown needs. */
export interface DualServer {
  readonly server: Http2SecureServer;
  /** Graceful shutdown: GOAWAY to every HTTP/2 connection (in-flight streams finish), idle HTTP/1.1 closed. */
  closeIdle(): void;
  /** Ends every connection (the shutdown grace is over). */
  closeAll(): void;
}

/**
 * A TLS server answering `h2` and `http/1.1`; `onRequest` gets node:http's request and response on HTTP/1.1
 * and the compatibility API's on HTTP/2 (the same surface for the handler's use). `run` starts a handler and
 * resolves when it is done (for HTTP/2 connections' handler limit).
 */
export function createDualServer(
  tls: SecureServerOptions,
  opts: Http2ServingOptions,
  run: (req: IncomingMessage, res: ServerResponse) => Promise<void> | void,
  http1: {
    maxHeaderSize: number;
    keepAliveTimeoutMs: number;
    /** Answers an HTTP/1.1 request whose `Expect` is not `100-continue` (x/net/http2 ignores such headers). */
    refuseExpectation: (req: IncomingMessage, res: ServerResponse) => void;
  },
): DualServer {
  const streams = maxStreams(opts);
  const idleMs = opts.idleTimeoutMs ?? HTTP2_IDLE_TIMEOUT_MS;
  const server = createSecureServer({
    ...tls,
    allowHTTP1: true,
    // node:http's server default (net.Server's is false: Nagle's algorithm held small answers back).
    noDelay: true,
    ALPNProtocols: ["h2", "http/1.1"],
    settings: {
      maxConcurrentStreams: streams,
      maxFrameSize: HTTP2_STREAM_WINDOW,
      initialWindowSize: HTTP2_STREAM_WINDOW,
      maxHeaderListSize: HTTP2_MAX_HEADER_LIST_SIZE,
      headerTableSize: 4096,
    },
    // No count of its own in Go 1.26's server (1.27's MaxHeaderValueCount, which Kubernetes sets to 16384):
    // the header list's size bounds it; Node's default of 128 would refuse requests Kubernetes serves.
    maxHeaderListPairs: 16384,
    // nghttp2's own bound on what a session may hold (in MB): the connection window plus the streams' buffers.
    maxSessionMemory: Math.max(10, Math.ceil((2 * streams * HTTP2_STREAM_WINDOW) / (1 << 20))),
  });
  // HTTP/1.1 connections are served by node:http's connection listener on this server object: it reads
  // these fields as an http.Server's options.
  const h1 = server as unknown as { maxHeaderSize: number; requireHostHeader: boolean; keepAliveTimeout: number };
  h1.maxHeaderSize = http1.maxHeaderSize;
  h1.requireHostHeader = false;
  h1.keepAliveTimeout = http1.keepAliveTimeoutMs;

  const sessions = new Map<ServerHttp2Session, SessionState>();
  const armIdle = (session: ServerHttp2Session, s: SessionState) => {
    clearTimeout(s.idleTimer);
    s.idleTimer = setTimeout(() => {
      if (!session.closed && !session.destroyed) session.close();
    }, idleMs);
    s.idleTimer.unref();
  };
  server.on("session", (session: ServerHttp2Session) => {
    const s = new SessionState(new HandlerLimit(streams));
    sessions.set(session, s);
    // x/net/http2 opens the connection window to MaxUploadBufferPerConnection at once.
    session.once("localSettings", () => {
      if (!session.destroyed) session.setLocalWindowSize(HTTP2_STREAM_WINDOW * streams);
    });
    session.on("stream", (stream) => {
      s.open++;
      clearTimeout(s.idleTimer);
      stream.once("close", () => {
        if (--s.open === 0 && !session.closed) armIdle(session, s);
      });
    });
    session.on("error", () => {});
    session.once("close", () => {
      clearTimeout(s.idleTimer);
      sessions.delete(session);
    });
    armIdle(session, s);
  });
  const serveH2 = (req: Http2ServerRequest, res: Http2ServerResponse) => {
    const session = req.stream.session as ServerHttp2Session | undefined;
    const s = session ? sessions.get(session) : undefined;
    if (!session || !s) return void run(req as unknown as IncomingMessage, res as unknown as ServerResponse);
    if (s.calmDown) return void req.stream.close(constants.NGHTTP2_REFUSED_STREAM);
    const run1 = () => run(req as unknown as IncomingMessage, res as unknown as ServerResponse);
    const alive = () => !req.stream.destroyed && !req.stream.closed;
    if (s.handlers.schedule(run1, alive) === "overflow") {
      // Too many requests wait while earlier handlers (of streams perhaps reset) still run: Go ends the connection.
      // As Go, the connection is closed a second after the GOAWAY (so that the peer reads it first).
      s.calmDown = true;
      req.stream.close(constants.NGHTTP2_REFUSED_STREAM);
      session.goaway(constants.NGHTTP2_ENHANCE_YOUR_CALM);
      setTimeout(() => session.destroy(), 1000).unref();
    }
  };

  server.on("request", (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse) => {
    if (isHttp2(req)) serveH2(req as Http2ServerRequest, res as Http2ServerResponse);
    else void run(req as IncomingMessage, res as ServerResponse);
  });
  server.on("checkExpectation", (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse) => {
    if (isHttp2(req)) serveH2(req as Http2ServerRequest, res as Http2ServerResponse);
    else http1.refuseExpectation(req as IncomingMessage, res as ServerResponse);
  });

  return {
    server,
    closeIdle() {
      for (const session of sessions.keys()) if (!session.closed) session.close();
      (server as unknown as HttpServer).closeIdleConnections();
    },
    closeAll() {
      for (const session of sessions.keys()) session.destroy();
      // HTTP/1.1 connections are tracked by node:http's connection list on this server.
      HttpServer.prototype.closeAllConnections.call(server as unknown as HttpServer);
    },
  };
}
