/**
 * Server tests over both protocols of the TLS port: one client interface over HTTP/2 (node:http2, one
 * session) and HTTP/1.1 (node:https, keep-alive, no ALPN), and a TLS server without authentication.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { type ClientHttp2Session, type ClientHttp2Stream, connect, type IncomingHttpHeaders as H2Headers } from "node:http2";
import { Agent, request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateCa, generateServingCert } from "../../src/server/auth/pki.js";
import { type RunningServer, type ServerOptions, startServer } from "../../src/server/server.js";

export type Proto = "h2" | "http/1.1";
export const PROTOCOLS: readonly Proto[] = ["h2", "http/1.1"];

export interface ProtoResponse {
  status: number;
  /** Lower-case names; without `date` and HTTP/1.1's connection-specific headers. */
  headers: Record<string, string | string[]>;
  body: Buffer;
  text: string;
}

export interface RequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/** Headers HTTP/2 has no counterpart for (or that differ per response). */
const SKIPPED = new Set(["date", "connection", "keep-alive", "transfer-encoding"]);

function keep(headers: Record<string, unknown>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (k.startsWith(":") || SKIPPED.has(k) || v === undefined) continue;
    out[k] = Array.isArray(v) ? v.map(String) : String(v);
  }
  return out;
}

/** A client of one protocol; `close` ends its connections. */
export interface ProtoClient {
  readonly proto: Proto;
  request(path: string, init?: RequestInit): Promise<ProtoResponse>;
  close(): void;
}

/** An HTTP/2 client on one session. */
export function h2Client(base: string, ca: string): ProtoClient & { session: ClientHttp2Session } {
  const session = connect(base, { ca });
  session.on("error", () => {});
  return {
    proto: "h2",
    session,
    request(path, init = {}) {
      return new Promise((resolve, reject) => {
        let stream: ClientHttp2Stream;
        try {
          stream = session.request({ ":method": init.method ?? "GET", ":path": path, ...init.headers });
        } catch (e) {
          reject(e);
          return;
        }
        let head: H2Headers | undefined;
        const chunks: Buffer[] = [];
        stream.on("response", (h) => {
          head = h;
        });
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          if (!head) return reject(new Error("stream ended without a response"));
          const body = Buffer.concat(chunks);
          resolve({ status: Number(head[":status"]), headers: keep(head), body, text: body.toString("utf8") });
        });
        stream.on("error", reject);
        stream.on("close", () => {
          if (!head) reject(new Error(`stream closed with code ${stream.rstCode}`));
        });
        stream.end(init.body);
      });
    },
    close() {
      session.close();
    },
  };
}

/** An HTTP/1.1 client over TLS (no ALPN offered, as curl --http1.1 or an old client). */
export function h1Client(base: string, ca: string): ProtoClient {
  const agent = new Agent({ keepAlive: true, ca, maxSockets: 4 });
  return {
    proto: "http/1.1",
    request(path, init = {}) {
      return new Promise((resolve, reject) => {
        const req = request(`${base}${path}`, { method: init.method ?? "GET", headers: init.headers ?? {}, agent }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            const body = Buffer.concat(chunks);
            resolve({ status: res.statusCode ?? 0, headers: keep(res.headers), body, text: body.toString("utf8") });
          });
          res.on("error", reject);
        });
        req.on("error", reject);
        req.end(init.body);
      });
    },
    close() {
      agent.destroy();
    },
  };
}

export function protoClient(proto: Proto, base: string, ca: string): ProtoClient {
  return proto === "h2" ? h2Client(base, ca) : h1Client(base, ca);
}

/** A serving certificate for 127.0.0.1 and its CA, made once per test file. */
let cert: Promise<{ ca: string; cert: string; key: string }> | undefined;
export function servingCert(): Promise<{ ca: string; cert: string; key: string }> {
  cert ??= (async () => {
    const ca = await generateCa("crdkit-test-ca");
    const kp = await generateServingCert(ca, ["127.0.0.1", "localhost"]);
    return { ca: ca.cert, cert: kp.cert, key: kp.key };
  })();
  return cert;
}

/** A server on TLS without authentication (loopback: everything allowed); `close` also removes its files. */
export async function startTlsServer(opts: ServerOptions = {}): Promise<{ server: RunningServer; ca: string; close(): Promise<void> }> {
  const tls = await servingCert();
  const dir = mkdtempSync(join(tmpdir(), "crdkit-tls-"));
  writeFileSync(join(dir, "tls.crt"), tls.cert);
  writeFileSync(join(dir, "tls.key"), tls.key);
  try {
    const server = await startServer({ ui: false, ...opts, security: { tlsCertFile: join(dir, "tls.crt"), tlsPrivateKeyFile: join(dir, "tls.key"), ...opts.security } });
    return {
      server,
      ca: tls.ca,
      async close() {
        try {
          await server.close();
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}
