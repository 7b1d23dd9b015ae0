/**
 * Go's http.ServeContent as crdkit's OpenAPI handlers use it (endpoints/serve-content.ts): what the recorded
 * server-diff sequence 43-openapi-serve-content cannot show — several ranges (a random multipart boundary), weak
 * and strong ETag comparisons, If-Range, HEAD — plus net/http's ParseTime layouts.
 */
import assert from "node:assert/strict";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { parseHttpTime } from "../../src/go/time.js";
import { serveContent } from "../../src/server/endpoints/serve-content.js";

const BODY = Buffer.from("0123456789abcdefghij");
const MODIFIED = new Date(Date.UTC(2026, 10, 28, 12, 0, 0, 500));

function call(port: number, method: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path: "/", headers }, (res) => {
      let body = "";
      res.setEncoding("latin1");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("serveContent", () => {
  let server: Server;
  let port = 0;
  before(async () => {
    server = createServer((req, res) => {
      res.setHeader("Etag", '"abc"');
      res.setHeader("Content-Type", "application/json");
      serveContent(req, res, MODIFIED, BODY);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  it("a whole answer: Last-Modified in whole seconds, Accept-Ranges, Content-Length", async () => {
    const r = await call(port, "GET", {});
    assert.equal(r.status, 200);
    assert.equal(r.body, BODY.toString());
    assert.equal(r.headers["last-modified"], "Sat, 28 Nov 2026 12:00:00 GMT");
    assert.equal(r.headers["accept-ranges"], "bytes");
    assert.equal(r.headers["content-length"], "20");
  });

  it("two ranges: multipart/byteranges with a 60-hex-digit boundary, parts with Content-Range and Content-Type", async () => {
    const r = await call(port, "GET", { Range: "bytes=0-1,5-6" });
    assert.equal(r.status, 206);
    const m = /^multipart\/byteranges; boundary=([0-9a-f]{60})$/.exec(String(r.headers["content-type"]));
    assert.ok(m, String(r.headers["content-type"]));
    const b = m![1];
    assert.equal(
      r.body,
      `--${b}\r\nContent-Range: bytes 0-1/20\r\nContent-Type: application/json\r\n\r\n01\r\n--${b}\r\nContent-Range: bytes 5-6/20\r\nContent-Type: application/json\r\n\r\n56\r\n--${b}--\r\n`,
    );
    assert.equal(Number(r.headers["content-length"]), r.body.length);
  });

  it("ranges adding up to more than the content are ignored (the whole answer)", async () => {
    const r = await call(port, "GET", { Range: "bytes=0-15,5-19" });
    assert.equal(r.status, 200);
    assert.equal(r.body, BODY.toString());
  });

  it("If-None-Match compares weakly (W/ matches), If-Match strongly (W/ does not)", async () => {
    assert.equal((await call(port, "GET", { "If-None-Match": 'W/"abc"' })).status, 304);
    const r = await call(port, "GET", { "If-Match": 'W/"abc"' });
    assert.equal(r.status, 412);
    assert.equal((await call(port, "GET", { "If-Match": '"zzz", "abc"' })).status, 200);
  });

  it("a 304 drops Content-Type, and Last-Modified when there is an ETag", async () => {
    const r = await call(port, "GET", { "If-None-Match": '"abc"' });
    assert.equal(r.status, 304);
    assert.equal(r.headers["content-type"], undefined);
    assert.equal(r.headers["last-modified"], undefined);
    assert.equal(r.headers["etag"], '"abc"');
  });

  it("If-Range: the strong ETag or the exact Last-Modified keeps the range; a weak ETag does not", async () => {
    assert.equal((await call(port, "GET", { Range: "bytes=0-1", "If-Range": '"abc"' })).status, 206);
    assert.equal((await call(port, "GET", { Range: "bytes=0-1", "If-Range": "Sat, 28 Nov 2026 12:00:00 GMT" })).status, 206);
    assert.equal((await call(port, "GET", { Range: "bytes=0-1", "If-Range": 'W/"abc"' })).status, 200);
  });

  it("HEAD: the headers of the answer, no body", async () => {
    const r = await call(port, "HEAD", { Range: "bytes=2-4" });
    assert.equal(r.status, 206);
    assert.equal(r.headers["content-range"], "bytes 2-4/20");
    assert.equal(r.headers["content-length"], "3");
    assert.equal(r.body, "");
  });

  it("416 drops ETag and Last-Modified and answers Go's text", async () => {
    const r = await call(port, "GET", { Range: "bytes=50-60" });
    assert.equal(r.status, 416);
    assert.equal(r.body, "invalid range: failed to overlap\n");
    assert.equal(r.headers["content-range"], "bytes */20");
    assert.equal(r.headers["etag"], undefined);
    assert.equal(r.headers["last-modified"], undefined);
  });
});

describe("parseHttpTime (net/http ParseTime)", () => {
  const t = Date.UTC(1994, 10, 6, 8, 49, 37) / 1000;
  for (const [s, want] of [
    ["Sun, 06 Nov 1994 08:49:37 GMT", t],
    ["Sunday, 06-Nov-94 08:49:37 GMT", t],
    ["Sun Nov  6 08:49:37 1994", t],
    ["Sun Nov 6 08:49:37 1994", t],
    ["Sun, 06 Nov 1994 08:49:37 UTC", undefined],
    ["Sun, 31 Nov 1994 08:49:37 GMT", undefined],
    ["Sun, 06 Nov 1994 24:00:00 GMT", undefined],
    ["06 Nov 1994 08:49:37 GMT", undefined],
    ["", undefined],
  ] as const) {
    it(JSON.stringify(s), () => assert.equal(parseHttpTime(s), want));
  }
});
