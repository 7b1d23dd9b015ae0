/** Small helpers the serve benches share: a free loopback port, and a closed loop of requests. */
import type { Agent, ClientRequest, IncomingMessage, RequestOptions } from "node:http";
import { createServer } from "node:net";

/** A loopback port nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((r) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => r(p));
    });
  });
}

/** `n` requests, `concurrency` in flight; throws on a status other than `want`. */
export async function load(n: number, concurrency: number, one: (i: number) => Promise<number>, want: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++;
        const st = await one(i);
        if (st !== want) throw new Error(`request ${i}: HTTP ${st}, want ${want}`);
      }
    }),
  );
}

/** One request through `send` (node:http's or node:https's `request`) on `agent`: resolves to the status, body dropped. */
export function caller(
  send: (url: string, opts: RequestOptions, cb: (res: IncomingMessage) => void) => ClientRequest,
  agent: Agent,
): (url: string, method: string, body?: string) => Promise<number> {
  return (url, method, body) =>
    new Promise((done, fail) => {
      const headers = body ? { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) } : {};
      const req = send(url, { method, agent, headers }, (res) => {
        res.resume();
        res.on("end", () => done(res.statusCode ?? 0));
      });
      req.on("error", fail);
      req.end(body);
    });
}
