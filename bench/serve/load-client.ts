/**
 * The HTTPS client of bench:etcd's load generator, the same for every server measured: undici (keep-alive
 * HTTP/1.1, one pool of 16 connections per server, no pipelining) by default, or node's own https client
 * with `--client=node` (what the bench used before; it costs the generator about twice the CPU per GET on
 * this machine, CPU that the servers measured share with it). Both count what was negotiated: HTTP versions
 * seen and TLS connections opened (`wire`).
 */
import { type ClientHttp2Session, connect as h2connect } from "node:http2";
import { Agent as HttpsAgent, request } from "node:https";
import { Pool } from "undici";

export interface LoadClient {
  /** One request; resolves to the status (the body is read and dropped). */
  call(url: string, method: string, body?: string): Promise<number>;
  /** A GET that resolves to the status and the body text. */
  getText(url: string): Promise<{ status: number; text: string }>;
  /** Forgets the HTTP versions and connections seen so far. */
  resetWire(): void;
  /** HTTP versions seen and connections opened since the last reset. */
  wire(): string;
  close(): Promise<void>;
}

const JSON_HEADERS = (body: string) => ({ "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) });

/** `https://host:port/path` → origin and path (no URL object per request). */
function split(url: string): [string, string] {
  const slash = url.indexOf("/", 8);
  return slash < 0 ? [url, "/"] : [url.slice(0, slash), url.slice(slash)];
}

export function undiciClient(connections: number): LoadClient {
  const pools = new Map<string, Pool>();
  let opened = 0;
  const pool = (origin: string) => {
    let p = pools.get(origin);
    if (!p) {
      p = new Pool(origin, { connections, pipelining: 1, connect: { rejectUnauthorized: false } });
      p.on("connect", () => opened++);
      pools.set(origin, p);
    }
    return p;
  };
  return {
    async call(url, method, body) {
      const [origin, path] = split(url);
      const res = await pool(origin).request({ path, method: method as "GET", ...(body === undefined ? {} : { body, headers: JSON_HEADERS(body) }) });
      await res.body.dump();
      return res.statusCode;
    },
    async getText(url) {
      const [origin, path] = split(url);
      const res = await pool(origin).request({ path, method: "GET" });
      return { status: res.statusCode, text: await res.body.text() };
    },
    resetWire: () => {
      opened = 0;
    },
    // undici's Pool speaks HTTP/1.1 only unless allowH2 is set.
    wire: () => `HTTP/1.1 (undici), ${opened} connections opened while measured`,
    close: async () => {
      await Promise.all([...pools.values()].map((p) => p.destroy()));
    },
  };
}

export function nodeHttpsClient(connections: number): LoadClient {
  const agent = new HttpsAgent({ keepAlive: true, maxSockets: connections, rejectUnauthorized: false });
  let versions = new Set<string>();
  const sockets = new WeakSet<object>();
  let opened = 0;
  const send = (url: string, method: string, body: string | undefined, keep: boolean) =>
    new Promise<{ status: number; text: string }>((done, fail) => {
      const req = request(url, { method, agent, headers: body ? JSON_HEADERS(body) : {} }, (res) => {
        versions.add(`HTTP/${res.httpVersion}`);
        if (!sockets.has(res.socket)) {
          sockets.add(res.socket);
          opened++;
        }
        const chunks: Buffer[] = [];
        if (keep) res.on("data", (c: Buffer) => chunks.push(c));
        else res.resume();
        res.on("end", () => done({ status: res.statusCode ?? 0, text: keep ? Buffer.concat(chunks).toString("utf8") : "" }));
      });
      req.on("error", fail);
      req.end(body);
    });
  return {
    call: async (url, method, body) => (await send(url, method, body, false)).status,
    getText: (url) => send(url, "GET", undefined, true),
    resetWire: () => {
      versions = new Set();
      opened = 0;
    },
    wire: () => `${[...versions].join("+")} (node https), ${opened} connections opened while measured`,
    close: async () => agent.destroy(),
  };
}

/**
 * node:http2's client (`--client=h2`): one HTTP/2 connection per server with every request a stream on it,
 * as kubectl and client-go talk to a cluster (ALPN h2; the wire line says what was negotiated).
 */
export function nodeH2Client(): LoadClient {
  const sessions = new Map<string, ClientHttp2Session>();
  let opened = 0;
  let refused = 0;
  let versions = new Set<string>();
  const session = (origin: string) => {
    let s = sessions.get(origin);
    if (!s || s.closed || s.destroyed) {
      const fresh = h2connect(origin, { rejectUnauthorized: false });
      s = fresh;
      fresh.on("error", () => {});
      // A server that stopped (or says GOAWAY) takes no more streams: the next request connects anew.
      const forget = () => {
        if (sessions.get(origin) === fresh) sessions.delete(origin);
      };
      fresh.on("goaway", forget);
      fresh.on("close", forget);
      s.on("connect", (sess) => {
        opened++;
        versions.add((sess.socket as { alpnProtocol?: string | false }).alpnProtocol === "h2" ? "HTTP/2" : "not h2");
      });
      sessions.set(origin, s);
    }
    return s;
  };
  // A stream refused (REFUSED_STREAM: past a GOAWAY's last stream, never processed) is sent again on a new
  // connection, as client-go's transport does; the real server ends connections with GOAWAY now and then.
  const send = async (url: string, method: string, body: string | undefined, keep: boolean): Promise<{ status: number; text: string }> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await send1(url, method, body, keep);
      } catch (e) {
        if (attempt >= 5 || !/REFUSED_STREAM|GOAWAY/.test(String((e as Error).message))) throw e;
        refused++;
      }
    }
  };
  const send1 = (url: string, method: string, body: string | undefined, keep: boolean) =>
    new Promise<{ status: number; text: string }>((done, fail) => {
      const [origin, path] = split(url);
      const st = session(origin).request({ ":method": method, ":path": path, ...(body ? JSON_HEADERS(body) : {}) });
      let status = 0;
      const chunks: Buffer[] = [];
      st.on("response", (h) => {
        status = Number(h[":status"]);
      });
      st.on("data", (c: Buffer) => {
        if (keep) chunks.push(c);
      });
      st.on("end", () => done({ status, text: keep ? Buffer.concat(chunks).toString("utf8") : "" }));
      st.on("error", fail);
      st.end(body);
    });
  return {
    call: async (url, method, body) => (await send(url, method, body, false)).status,
    getText: (url) => send(url, "GET", undefined, true),
    resetWire: () => {
      versions = new Set();
      opened = 0;
      refused = 0;
    },
    wire: () => `${[...versions].join("+")} (node http2, one connection, streams in flight), ${opened} connections opened, ${refused} refused streams sent again while measured`,
    close: async () => {
      for (const s of sessions.values()) s.destroy();
    },
  };
}
