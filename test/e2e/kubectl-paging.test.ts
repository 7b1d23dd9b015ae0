/**
 * kubectl's chunked `get` (limit=500 + continue) against `crdkit serve` over more than 500 objects,
 * checking the requests kubectl sent and what it printed.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Cluster, findKubectl, startCluster } from "./harness.js";

const kubectl = findKubectl();
const COUNT = 620;

describe("kubectl chunked lists", { skip: kubectl ? false : "kubectl not on PATH", timeout: 180_000 }, () => {
  let c: Cluster;
  const requests: string[] = [];
  before(async () => {
    c = await startCluster({
      log: (r) => {
        if (r["msg"] === "request" && r["method"] === "GET" && String(r["path"]).endsWith("/crontabs")) requests.push(String(r["query"]));
      },
    });
    const r = await c.kubectl(["apply", "-f", "crd.yaml"]);
    assert.equal(r.code, 0, r.stderr);
    // One `kubectl create` of a List (over HTTP/2 with the default protocol: one connection, many streams).
    const items = Array.from({ length: COUNT }, (_, i) => ({
      apiVersion: "stable.example.com/v1",
      kind: "CronTab",
      metadata: { name: `cron-${String(i).padStart(4, "0")}` },
      spec: { cronSpec: "* * * * */5", image: `img-${i}`, replicas: 1 },
    }));
    const file = join(c.dir, "crontabs.json");
    writeFileSync(file, JSON.stringify({ apiVersion: "v1", kind: "List", items }));
    const created = await c.kubectl(["create", "-f", file, "-o", "name"]);
    assert.equal(created.code, 0, created.stderr);
    assert.equal(created.stdout.split("\n").filter((l) => l !== "").length, COUNT);
  });
  after(async () => {
    await c?.close();
  });

  it("get -o name follows the continue token past 500 objects", async () => {
    requests.length = 0;
    const r = await c.kubectl(["get", "crontabs", "-o", "name"]);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split("\n");
    assert.equal(lines.length, COUNT);
    assert.equal(lines[0], "crontab.stable.example.com/cron-0000");
    assert.equal(lines[COUNT - 1], `crontab.stable.example.com/cron-${String(COUNT - 1).padStart(4, "0")}`);
    assert.equal(new Set(lines).size, COUNT);
    assert.equal(requests.length, 2, requests.join("\n"));
    assert.equal(requests[0], "?limit=500");
    assert.match(requests[1]!, /^\?continue=[A-Za-z0-9_-]+&limit=500$/);
  });

  it("get (Table) and --chunk-size=100 print every row once", async () => {
    requests.length = 0;
    const table = await c.kubectl(["get", "crontabs", "--chunk-size=100"]);
    assert.equal(table.code, 0, table.stderr);
    const rows = table.stdout.trimEnd().split("\n");
    assert.match(rows[0]!, /^NAME\s+SPEC\s+REPLICAS\s+AGE$/);
    assert.equal(rows.length, COUNT + 1);
    assert.equal(requests.length, 7);
    assert.ok(requests.slice(1).every((q) => /continue=/.test(q)));
  });
});
