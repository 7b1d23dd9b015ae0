/**
 * The request log: one record per request by default (`crdkit serve`), none with `logRequests: false`
 * (`crdkit serve --quiet`), whose lifecycle records still go to the log. A record carries the request's audit ID
 * (the client's `Audit-ID` here), as kube-apiserver's httplog does.
 */
import assert from "node:assert/strict";
import { request } from "node:http";
import { describe, it } from "node:test";
import { type LogRecord, startServer } from "../../src/server/server.js";

function get(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { "User-Agent": "log-test", "Audit-ID": "log-audit-1" } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("request log", () => {
  for (const logRequests of [undefined, true, false]) {
    it(`logRequests ${logRequests}`, async () => {
      const records: LogRecord[] = [];
      const srv = await startServer({ ui: false, log: (r) => records.push(r), ...(logRequests !== undefined ? { logRequests } : {}) });
      try {
        assert.equal(await get(`${srv.url}/version?x=1`), 200);
      } finally {
        await srv.close();
      }
      const requests = records.filter((r) => r["msg"] === "request");
      assert.ok(records.some((r) => r["msg"] === "listening"));
      if (logRequests === false) {
        assert.deepEqual(requests, []);
        return;
      }
      assert.equal(requests.length, 1);
      const { durationMs, ...rest } = requests[0]!;
      assert.equal(typeof durationMs, "number");
      assert.deepEqual(rest, { level: "info", msg: "request", method: "GET", path: "/version", query: "?x=1", status: 200, userAgent: "log-test", auditId: "log-audit-1", user: "system:unsecured", protocol: "HTTP/1.1" });
    });
  }
});
