/**
 * The request deadline (src/server/filters/request-deadline.ts): a request whose body arrives too slowly gets
 * the timeout filter's 504 at its deadline (`?timeout=` or `--request-timeout`), over HTTP/1.1 and HTTP/2, and
 * the server goes on serving; what the handler does once the body is complete is dropped. (The 400s of a bad
 * `?timeout=` and watches ignoring it are pinned by the recorded sequence 32-request-timeout.)
 */
import assert from "node:assert/strict";
import { connect as h2connect } from "node:http2";
import { after, before, describe, it } from "node:test";
import { connect as tlsConnect } from "node:tls";
import { DEADLINE_EXCEEDED_BODY } from "../../src/server/filters/request-deadline.js";
import { startTlsServer } from "./proto-client.js";

const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

/**
 * Sends a request head and part of its body over `socket`, the rest after `restAfterMs`; resolves with all it
 * reads until `endAfterMs` (`closedBy` gets the time in ms at which the server ended the connection, if it did).
 */
function slowBody(open: () => import("node:net").Socket, path: string, restAfterMs: number, endAfterMs: number, closedBy?: { ms?: number }): Promise<string> {
  return new Promise((resolve, reject) => {
    const start = Date.now();
    const body = '{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"x"}}';
    const s = open();
    let got = "";
    s.on("data", (d: Buffer) => (got += d.toString()));
    s.on("error", (e: NodeJS.ErrnoException) => (closedBy && e.code === "ECONNRESET" ? (closedBy.ms ??= Date.now() - start) : reject(e)));
    s.once("end", () => {
      if (closedBy) closedBy.ms ??= Date.now() - start;
    });
    const head = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    s.write(head + body.slice(0, 10));
    setTimeout(() => {
      if (!s.destroyed && s.writable) s.write(body.slice(10));
    }, restAfterMs);
    setTimeout(() => {
      s.destroy();
      resolve(got);
    }, endAfterMs);
  });
}

describe("request deadline", () => {
  let t: Awaited<ReturnType<typeof startTlsServer>>;
  before(async () => {
    t = await startTlsServer({ logRequests: false, requestTimeoutMs: 400 });
  });
  after(async () => {
    await t?.close();
  });
  const port = () => Number(new URL(t.server.url).port);

  it("answers a body slower than ?timeout= with the timeout filter's 504 (HTTP/1.1), and drops the handler's late answer", async () => {
    const got = await slowBody(() => tlsConnect({ port: port(), host: "127.0.0.1", ca: t.ca, servername: "localhost" }), `${CRDS}?timeout=150ms`, 800, 1300);
    const [head, body] = got.split("\r\n\r\n");
    assert.match(head!, /^HTTP\/1\.1 504 Gateway Timeout\r\n/);
    assert.match(head!, /\r\nContent-Type: text\/plain; charset=utf-8\r\n/);
    assert.match(head!, /\r\nCache-Control: no-cache, private\r\n/);
    assert.match(head!, /\r\nAudit-Id: [0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\r\n/);
    assert.equal(body, DEADLINE_EXCEEDED_BODY);
    assert.equal(
      body,
      '{"metadata":{},"status":"Failure","message":"Timeout: request did not complete within the allotted timeout","reason":"Timeout","details":{},"code":504}\n',
    );
  });

  it("ends an HTTP/1.1 connection whose body is still arriving after its 504 (Connection: close)", async () => {
    const closedBy: { ms?: number } = {};
    const got = await slowBody(() => tlsConnect({ port: port(), host: "127.0.0.1", ca: t.ca, servername: "localhost" }), `${CRDS}?timeout=150ms`, 2000, 2500, closedBy);
    const [head] = got.split("\r\n\r\n");
    assert.match(head!, /^HTTP\/1\.1 504 Gateway Timeout\r\n/);
    assert.match(head!, /\r\nConnection: close\r\n/);
    assert.ok(closedBy.ms !== undefined && closedBy.ms < 2000, `the server ended the connection before the body's rest was sent (at ${closedBy.ms} ms)`);
  });

  it("applies --request-timeout without ?timeout= (and ?timeout= longer than it does not extend it)", async () => {
    for (const q of ["", "?timeout=1h"]) {
      const got = await slowBody(() => tlsConnect({ port: port(), host: "127.0.0.1", ca: t.ca, servername: "localhost" }), `${CRDS}${q}`, 1200, 1500);
      assert.match(got, /^HTTP\/1\.1 504 /, q);
    }
  });

  it("answers 504 over HTTP/2 and resets the stream whose body is still arriving; the connection serves on", async () => {
    const session = h2connect(t.server.url, { ca: t.ca });
    session.on("error", () => {});
    try {
      const st = session.request({ ":method": "POST", ":path": `${CRDS}?timeout=150ms`, "content-type": "application/json" });
      st.write('{"apiVersion":');
      const answer = await new Promise<{ status: number; body: string; rst: number }>((resolve, reject) => {
        let status = 0;
        let body = "";
        st.on("response", (h) => {
          status = Number(h[":status"]);
        });
        st.on("data", (d: Buffer) => (body += d.toString()));
        st.on("close", () => resolve({ status, body, rst: st.rstCode ?? -1 }));
        st.on("error", () => {});
        setTimeout(() => reject(new Error("no answer in 5 s")), 5000).unref();
      });
      assert.equal(answer.status, 504);
      assert.equal(answer.body, DEADLINE_EXCEEDED_BODY);
      assert.equal(answer.rst, 0); // NGHTTP2_NO_ERROR
      const next = await new Promise<number>((resolve, reject) => {
        const r = session.request({ ":path": "/version" });
        r.on("response", (h) => resolve(Number(h[":status"])));
        r.on("error", reject);
        r.resume();
        r.end();
      });
      assert.equal(next, 200);
    } finally {
      session.destroy();
    }
  });

  it("leaves a request that finishes in time alone", async () => {
    const got = await slowBody(() => tlsConnect({ port: port(), host: "127.0.0.1", ca: t.ca, servername: "localhost" }), `${CRDS}?timeout=30s`, 20, 3000);
    // the whole body came within the deadline: the CRD's own validation answers
    assert.match(got, /^HTTP\/1\.1 422 /);
  });
});
