/**
 * kubectl reading `/openapi/v2` in protobuf (`explain --output=plaintext-openapiv2` asks for
 * `application/com.github.proto-openapi.spec.v2@v1.0+protobuf` and parses gnostic's Document).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Cluster, findKubectl, startCluster } from "./harness.js";

describe("kubectl and the OpenAPI v2 protobuf document", { skip: findKubectl() ? false : "kubectl not installed", timeout: 120_000 }, () => {
  let c: Cluster;
  const v2: number[] = [];
  before(async () => {
    c = await startCluster({
      log: (r) => {
        if (r["path"] === "/openapi/v2") v2.push(Number(r["status"]));
      },
    });
    assert.equal((await c.kubectl(["apply", "-f", "crd.yaml"])).code, 0);
    assert.equal((await c.kubectl(["wait", "--for=condition=Established", "crd/crontabs.stable.example.com", "--timeout=30s"])).code, 0);
  });
  after(() => c.close());

  it("explain --output=plaintext-openapiv2 reads the CRD's schema from the protobuf document", async () => {
    const r = await c.kubectl(["explain", "--output=plaintext-openapiv2", "crontabs.spec"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^KIND:\s+CronTab\nVERSION:\s+stable\.example\.com\/v1\n/);
    assert.match(r.stdout, /cronSpec\s+<string>/);
    assert.match(r.stdout, /replicas\s+<integer>/);
    // kubectl's discovery client fetches the v2 document in protobuf only (OpenAPISchema).
    assert.deepEqual(v2, [200]);
  });
});
