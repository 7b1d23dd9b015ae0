/**
 * A watch client that stops reading (issue 13): the server does not buffer events for it without bound;
 * past 16 MiB unread its watch is ended, as the API server closes unresponsive watchers.
 */
import assert from "node:assert/strict";
import { connect } from "node:net";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../src/server/server.js";
import { api, widget, widgetCrd, WIDGETS } from "./client.js";

describe("unread watches", { timeout: 120_000 }, () => {
  let srv: RunningServer;
  before(async () => {
    srv = await startServer();
    assert.equal((await api(srv.url, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", widgetCrd())).status, 201);
    assert.equal((await api(srv.url, "POST", WIDGETS, widget("big", { color: "" }))).status, 201);
  });
  after(() => srv.close());

  it("ends the watch of a client that does not read, and keeps serving", async () => {
    const socket = connect(srv.port, "127.0.0.1");
    await new Promise<void>((r) => socket.once("connect", () => r()));
    let received = 0;
    let headersSeen = false;
    const ended = new Promise<void>((r) => socket.once("end", () => r()));
    const seenHeaders = new Promise<void>((r) => {
      socket.on("data", (d: Buffer) => {
        received += d.length;
        if (!headersSeen) {
          headersSeen = true;
          socket.pause();
          r();
        }
      });
    });
    socket.write(`GET ${WIDGETS}?watch=true&resourceVersion=0&timeoutSeconds=45 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    await seenHeaders;
    // 24 updates of ~1.4 MB: 34 MB of events for a client that reads nothing.
    const pad = "p".repeat(1_400_000);
    for (let i = 0; i < 24; i++) {
      const r = await api(srv.url, "PATCH", `${WIDGETS}/big`, { spec: { color: `${i}${pad}` } }, { "Content-Type": "application/merge-patch+json" });
      assert.equal(r.status, 200);
    }
    socket.resume();
    await ended;
    // The stream ended before all 34 MB were delivered.
    assert.ok(received < 30_000_000, `received ${received}`);
    assert.equal((await api(srv.url, "GET", `${WIDGETS}/big`)).status, 200);
  });
});
