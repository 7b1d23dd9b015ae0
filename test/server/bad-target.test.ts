/**
 * A request target Go's `url.ParseRequestURI` refuses (`/%`, `/a%zz`: a bad escape; `http://[/x`: a bad host
 * after a scheme) is answered as Go's HTTP server answers a request it cannot read — 400 `400 Bad Request`,
 * connection closed — and the server stays up (it used to throw outside the handler and end the process).
 * Targets Go reads as paths (`//[`, `//a:b:c/x`: no scheme, so no host) get the index's 404.
 */
import assert from "node:assert/strict";
import { connect } from "node:net";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../src/server/server.js";

/** Sends `raw` on a new connection and resolves with everything read until the server closes it. */
function rawExchange(port: number, raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(port, "127.0.0.1", () => s.write(raw));
    let out = "";
    s.setTimeout(10_000, () => {
      s.destroy();
      reject(new Error(`no answer; read so far: ${JSON.stringify(out)}`));
    });
    s.on("data", (d: Buffer) => (out += d.toString("latin1")));
    s.on("error", reject);
    s.on("close", () => resolve(out));
  });
}

describe("a request target Go refuses", () => {
  let srv: RunningServer;
  before(async () => {
    srv = await startServer({ ui: false });
  });
  after(() => srv.close());

  // Go's answer to a request it cannot read, byte for byte: net/http's status line, errorHeaders (no Date, no
  // Content-Length) and the status as the body, then the connection closed.
  const goRefusal = (status: string) => `HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n${status}`;

  for (const target of ["/%", "/a%zz?watch=true", "/a%4", "http://[/x", "http://h:port/apis"]) {
    it(`GET ${target}: Go's 400 answer and the connection closed (a request pipelined behind it unanswered)`, async () => {
      const answer = await rawExchange(srv.port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /version HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      assert.equal(answer, goRefusal("400 Bad Request"));
    });
  }

  for (const target of ["//[", "//[?watch=true", "//a:b:c/x"]) {
    it(`GET ${target}: a path, 404 with the index`, async () => {
      const answer = await rawExchange(srv.port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      const [head, body] = answer.split("\r\n\r\n");
      const lines = head!.split("\r\n");
      assert.equal(lines[0], "HTTP/1.1 404 Not Found");
      assert.ok(lines.includes("Content-Type: application/json"), head);
      assert.match(body!, /^\{\n {2}"paths": \[\n {4}"\/api",\n/);
    });
  }

  it("a 100 KiB request target is read, as kube-apiserver reads heads up to 1 MiB + 4 KiB (404 with the index)", async () => {
    const target = `/${"a".repeat(100 * 1024)}`;
    const answer = await rawExchange(srv.port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    assert.match(answer, /^HTTP\/1\.1 404 Not Found\r\n/);
    assert.match(answer, /\r\n\r\n\{\n {2}"paths": \[/);
  });

  it("a request line Node's parser refuses: Go's 400 answer, with its text body", async () => {
    assert.equal(await rawExchange(srv.port, "GARBAGE\r\n\r\n"), goRefusal("400 Bad Request"));
    assert.equal(await rawExchange(srv.port, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n"), goRefusal("400 Bad Request"));
  });

  it("a head over 1 MiB + 4 KiB: Go's 431 answer, with its text body", async () => {
    const target = `/${"a".repeat(1_060_000)}`;
    assert.equal(await rawExchange(srv.port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`), goRefusal("431 Request Header Fields Too Large"));
  });

  it("a bad request after an answered one on the same connection still gets Go's 400", async () => {
    const answer = await rawExchange(srv.port, "GET /version HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGARBAGE\r\n\r\n");
    assert.match(answer, /^HTTP\/1\.1 200 OK\r\n/);
    assert.ok(answer.endsWith(goRefusal("400 Bad Request")), answer);
  });

  it("an HTTP/1.1 request without Host: Go's 400 with its reason", async () => {
    const answer = await rawExchange(srv.port, "GET /version HTTP/1.1\r\n\r\n");
    assert.equal(answer, goRefusal("400 Bad Request: missing required Host header"));
    // HTTP/1.0 needs no Host.
    assert.match(await rawExchange(srv.port, "GET /version HTTP/1.0\r\n\r\n"), /^HTTP\/1\.1 200 OK\r\n/);
  });

  it("still answers afterwards", async () => {
    const answer = await rawExchange(srv.port, "GET /version HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    assert.match(answer, /^HTTP\/1\.1 200 OK\r\n/);
  });
});
