/**
 * kubectl speaks HTTP/2 to crdkit as to a cluster: over TLS it negotiates h2 (ALPN), with
 * `--disable-http2-serving` HTTP/1.1, over plain HTTP HTTP/1.1 — checked on the server's request log.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { findKubectl, type Protocol, startCluster } from "./harness.js";

const kubectl = findKubectl();

describe("the protocol kubectl speaks", { skip: kubectl ? false : "kubectl not on PATH" }, () => {
  const cases: Array<[Protocol, string]> = [
    ["h2", "HTTP/2.0"],
    ["http/1.1", "HTTP/1.1"],
    ["http", "HTTP/1.1"],
  ];
  for (const [protocol, want] of cases) {
    it(`${protocol}: every request of kubectl get is ${want}`, async () => {
      const seen: string[] = [];
      const c = await startCluster({
        protocol,
        log: (r) => {
          if (r["msg"] === "request" && String(r["userAgent"]).startsWith("kubectl")) seen.push(String(r["protocol"]));
        },
      });
      try {
        const r = await c.kubectl(["get", "ns", "default", "-o", "name"]);
        assert.deepEqual([r.code, r.stdout, r.stderr], [0, "namespace/default\n", ""]);
        assert.ok(seen.length > 0);
        assert.deepEqual([...new Set(seen)], [want]);
      } finally {
        await c.close();
      }
    });
  }
});
