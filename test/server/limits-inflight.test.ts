/**
 * In-flight limits (issue 13): 200 mutating requests in flight (here: uploads that have not sent their body
 * yet) make the next write answer 429 at once, as the API server's max-inflight filter; reads and watches
 * have their own limits; finishing the uploads frees the slots.
 */
import assert from "node:assert/strict";
import { connect, type Socket } from "node:net";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../src/server/server.js";
import { api, widget, widgetCrd, WIDGETS } from "./client.js";

/** Sends a POST's headers with `Expect: 100-continue`; resolves once the server admitted it (100 Continue). */
function stalledPost(port: number, path: string, body: string): Promise<{ socket: Socket; finish: () => Promise<string> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let got = "";
    let onMore: (() => void) | undefined;
    socket.on("data", (d: Buffer) => {
      got += d.toString();
      if (got.includes("100 Continue") && onMore === undefined) {
        onMore = () => {};
        resolve({
          socket,
          finish: () =>
            new Promise((res) => {
              socket.on("end", () => res(got));
              socket.end(body);
            }),
        });
      }
    });
    socket.on("error", reject);
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
    );
  });
}

describe("in-flight limits", { timeout: 60_000 }, () => {
  let srv: RunningServer;
  before(async () => {
    srv = await startServer();
    assert.equal((await api(srv.url, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", widgetCrd())).status, 201);
  });
  after(() => srv.close());

  it("the 201st mutating request in flight gets 429 Too many requests; reads still work", async () => {
    const stalled = [];
    for (let i = 0; i < 200; i++) stalled.push(await stalledPost(srv.port, WIDGETS, JSON.stringify(widget(`s${i}`))));
    const r = await api(srv.url, "POST", WIDGETS, widget("late"));
    assert.equal(r.status, 429);
    assert.equal(r.text, "Too many requests, please try again later.\n");
    assert.equal(r.headers.get("retry-after"), "1");
    // WithAuditInit is outside the limit: a refused request has its audit ID too.
    assert.match(r.headers.get("audit-id") ?? "", /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal((await api(srv.url, "GET", WIDGETS)).status, 200);
    const answers = await Promise.all(stalled.map((s) => s.finish()));
    for (const a of answers) assert.match(a, /HTTP\/1\.1 201 Created/);
    assert.equal((await api(srv.url, "POST", WIDGETS, widget("later"))).status, 201);
    assert.equal((await api(srv.url, "GET", WIDGETS)).json.items.length, 201);
  });
});
