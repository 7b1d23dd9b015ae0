/**
 * DNS-rebinding and cross-site protection on loopback (issue 13, a crdkit addition): a server bound to
 * loopback answers only requests whose Host and Origin name loopback (or the listen address).
 */
import assert from "node:assert/strict";
import { request } from "node:http";
import { after, before, describe, it } from "node:test";
import { isLoopbackName, loopbackRequestGuard } from "../../src/server/filters/host-check.js";
import { startServer, type RunningServer } from "../../src/server/server.js";
import { widget, widgetCrd, WIDGETS } from "./client.js";

const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

// biome-ignore lint/suspicious/noExplicitAny: test helper returns parsed JSON of any shape
function send(base: string, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; json: any }> {
  const text = body === undefined ? "" : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(base + path, { method, headers: { ...(body !== undefined ? { "Content-Type": "application/json" } : {}), ...headers } }, (res) => {
      let out = "";
      res.on("data", (d: Buffer) => (out += d.toString()));
      // Plain text stays text; a JSON body that does not parse rejects (never a throw in this handler).
      res.on("end", () => {
        try {
          resolve({ status: res.statusCode ?? 0, json: out.startsWith("{") ? JSON.parse(out) : out });
        } catch {
          reject(new Error(`${res.statusCode} answer is not JSON: ${out}`));
        }
      });
    });
    req.on("error", reject);
    req.end(text);
  });
}

describe("isLoopbackName", () => {
  const cases: [string, boolean][] = [
    ["localhost", true],
    ["LOCALHOST.", true],
    ["app.localhost", true],
    ["127.0.0.1", true],
    ["127.12.0.9", true],
    ["[::1]", true],
    ["0:0:0:0:0:0:0:1", true],
    ["::ffff:127.0.0.1", true],
    ["128.0.0.1", false],
    ["0.0.0.0", false],
    ["::", false],
    ["localhost.evil.example", false],
    ["evil.example", false],
    ["10.0.0.1", false],
  ];
  for (const [h, want] of cases) it(h, () => assert.equal(isLoopbackName(h), want));

  it("no check when the server listens on a non-loopback address", () => {
    assert.equal(loopbackRequestGuard("0.0.0.0"), undefined);
    assert.equal(loopbackRequestGuard("192.168.1.10"), undefined);
    assert.notEqual(loopbackRequestGuard("::1"), undefined);
  });

  it("refuses a foreign Host after letting a loopback one through, and the other way round", () => {
    const guard = loopbackRequestGuard("127.0.0.1")!;
    for (const [host, refused] of [
      ["127.0.0.1:8080", false],
      ["127.0.0.1:8080", false],
      ["evil.example:8080", true],
      ["evil.example:8080", true],
      ["localhost", false],
      ["evil.example:8080", true],
    ] as const) {
      assert.equal(guard({ host })?.status.code, refused ? 403 : undefined, host);
    }
    // The Origin is still checked when the Host was let through before.
    assert.equal(guard({ host: "127.0.0.1:8080", origin: "https://evil.example" })?.status.code, 403);
  });
});

describe("a server bound to 127.0.0.1", () => {
  let srv: RunningServer;
  before(async () => {
    srv = await startServer();
  });
  after(() => srv.close());

  it("refuses a rebound DNS name in Host with 403 and stores nothing", async () => {
    const r = await send(srv.url, "POST", CRDS, { Host: `attacker.example:${srv.port}` }, widgetCrd());
    assert.equal(r.status, 403);
    assert.equal(r.json.reason, "Forbidden");
    assert.equal(
      r.json.message,
      `crdkit: Host "attacker.example:${srv.port}" is not a loopback address: a server listening on 127.0.0.1 only answers requests for localhost, 127.0.0.0/8 or [::1] (DNS rebinding protection)`,
    );
    const g = await send(srv.url, "GET", "/version", { Host: "attacker.example" });
    assert.equal(g.status, 403);
    const list = await send(srv.url, "GET", CRDS, {});
    assert.equal(list.json.items.length, 0);
  });

  it("answers loopback names and the listen address", async () => {
    for (const host of [`127.0.0.1:${srv.port}`, `localhost:${srv.port}`, "localhost", `[::1]:${srv.port}`, "127.1.2.3"]) {
      const r = await send(srv.url, "GET", "/version", { Host: host });
      assert.equal(r.status, 200, host);
    }
  });

  it("refuses requests a web page of another site sends (Origin), accepts local pages", async () => {
    const r = await send(srv.url, "POST", CRDS, { Origin: "https://attacker.example" }, widgetCrd());
    assert.equal(r.status, 403);
    assert.equal(
      r.json.message,
      'crdkit: Origin "https://attacker.example" is not a loopback origin: a server listening on 127.0.0.1 refuses requests from web pages of other sites',
    );
    assert.equal((await send(srv.url, "POST", CRDS, { Origin: "null" }, widgetCrd())).status, 403);
    const ok = await send(srv.url, "POST", CRDS, { Origin: "http://localhost:3000" }, widgetCrd());
    assert.equal(ok.status, 201);
    const w = await send(srv.url, "POST", WIDGETS, { Origin: `http://127.0.0.1:${srv.port}` }, widget("w"));
    assert.equal(w.status, 201);
  });
});
