import assert from "node:assert/strict";
import { it } from "node:test";
import { longRunning } from "./inflight.js";

it("counts as long-running (outside the limits) what RequestInfo calls a watch", () => {
  const cases: [string, string, boolean][] = [
    ["GET", "/apis/g.example.com/v1/namespaces/default/things?watch=true", true],
    ["GET", "/apis/g.example.com/v1/things?watch=1", true],
    ["GET", "/apis/g.example.com/v1/things?watch=yes", true],
    ["GET", "/apis/g.example.com/v1/things?watch=", true],
    ["GET", "/apis/g.example.com/v1/things?watch=FALSE", false],
    ["GET", "/apis/g.example.com/v1/things?watch=0", false],
    ["GET", "/apis/g.example.com/v1/things", false],
    ["GET", "/apis/g.example.com/v1/watch/namespaces/default/things/a", true],
    ["GET", "/api/v1/watch/namespaces", true],
    ["POST", "/apis/g.example.com/v1/things?watch=true", false],
  ];
  for (const [method, url, want] of cases) assert.equal(longRunning({ method, url }), want, `${method} ${url}`);
});
