/**
 * The real kubectl against crdkit serve's limits (issue 13): a warning naming a non-ASCII field reaches
 * kubectl intact, a field name with CR/LF does not fail the committed create, the JSON patch copy limit
 * and the stored-size limit are reported as the API server reports them.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type Cluster, findKubectl, startCluster } from "./harness.js";

const kubectl = findKubectl();

describe("kubectl and crdkit serve's limits", { skip: kubectl ? false : "kubectl not on PATH", timeout: 120_000 }, () => {
  let c: Cluster;
  before(async () => {
    c = await startCluster();
    assert.equal((await c.kubectl(["apply", "-f", "crd.yaml"])).code, 0);
    assert.equal((await c.kubectl(["wait", "--for=condition=Established", "crd/crontabs.stable.example.com", "--timeout=30s"])).code, 0);
  });
  after(() => c.close());

  const file = (name: string, text: string) => {
    const p = join(c.dir, name);
    writeFileSync(p, text);
    return p;
  };

  it("shows a warning about a field named ключ; a field name with CR/LF does not fail the create", async () => {
    const cyr = file("cyr.yaml", 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: cyr\nspec:\n  cronSpec: "* * * * */5"\n  ключ: 1\n');
    const r = await c.kubectl(["create", "--validate=warn", "-f", cyr]);
    assert.deepEqual(r, { code: 0, stdout: "crontab.stable.example.com/cyr created\n", stderr: 'Warning: unknown field "spec.ключ"\n' });
    const crlf = file("crlf.yaml", 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: crlf\nspec:\n  cronSpec: "* * * * */5"\n  "a\\r\\nb": 1\n');
    const r2 = await c.kubectl(["create", "--validate=warn", "-f", crlf]);
    assert.deepEqual(r2, { code: 0, stdout: "crontab.stable.example.com/crlf created\n", stderr: "" });
  });

  it("reports the JSON patch copy limit and etcd's size limit", async () => {
    const big = file("big.yaml", `apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: big\nspec:\n  cronSpec: "* * * * */5"\n  image: ${"x".repeat(1_000_000)}\n`);
    assert.equal((await c.kubectl(["create", "-f", big])).code, 0);
    const copies = JSON.stringify(Array.from({ length: 4 }, (_, i) => ({ op: "copy", from: "/spec/image", path: `/metadata/annotations/a${i}` })));
    const r = await c.kubectl(["patch", "ct", "big", "--type=json", "-p", `[{"op":"add","path":"/metadata/annotations","value":{"k":"v"}}]`]);
    assert.equal(r.code, 0, r.stderr);
    const p = await c.kubectl(["patch", "ct", "big", "--type=json", "-p", copies]);
    assert.equal(p.code, 1);
    // Each copy adds the string's JSON (1,000,002 bytes): the fourth goes over 3 MiB. The API server answers
    // the generic 422 without the patch error.
    assert.equal(p.stderr, "The request is invalid: the server rejected our request due to an error in our request\n");
    const one = JSON.stringify([{ op: "add", path: "/status", value: {} }, { op: "copy", from: "/spec/image", path: "/status/labelSelector" }]);
    const s = await c.kubectl(["patch", "ct", "big", "--subresource=status", "--type=json", "-p", one]);
    assert.deepEqual([s.code, s.stderr], [1, "Error from server: etcdserver: request is too large\n"]);
  });
});
