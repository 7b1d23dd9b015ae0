/**
 * kubectl apply --server-side against `crdkit serve`: conflicts with the client-side-apply manager and
 * with other appliers (Kubernetes' 409 text as kubectl prints it), --force-conflicts, and the
 * managedFields kubectl reads back.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Cluster, findKubectl, startCluster } from "./harness.js";

const kubectl = findKubectl();

const HELP =
  "Please review the fields above--they currently have other managers. Here\nare the ways you can resolve this warning:\n* If you intend to manage all of these fields, please re-run the apply\n  command with the `--force-conflicts` flag.\n";

describe("kubectl apply --server-side conflicts", { skip: kubectl ? false : "kubectl not on PATH", timeout: 120_000 }, () => {
  let c: Cluster;
  before(async () => {
    c = await startCluster();
    assert.equal((await c.kubectl(["apply", "-f", "crd.yaml"])).code, 0);
    assert.equal((await c.kubectl(["apply", "-f", "cr.yaml"])).code, 0);
  });
  after(async () => {
    await c?.close();
  });

  async function managers(): Promise<{ manager: string; operation: string; fieldsV1: unknown }[]> {
    const r = await c.kubectl(["get", "ct", "my-cron", "-o", "jsonpath={.metadata.managedFields}"]);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout);
  }

  it("client-side apply records a kubectl-client-side-apply Update entry", async () => {
    const m = await managers();
    assert.deepEqual(
      m.map((e) => [e.manager, e.operation, e.fieldsV1]),
      [
        [
          "kubectl-client-side-apply",
          "Update",
          {
            "f:metadata": { "f:annotations": { ".": {}, "f:kubectl.kubernetes.io/last-applied-configuration": {} }, "f:labels": { ".": {}, "f:app": {} } },
            "f:spec": { ".": {}, "f:cronSpec": {}, "f:image": {}, "f:replicas": {} },
          },
        ],
      ],
    );
  });

  it("another field manager conflicts on .spec.replicas, --force-conflicts takes it", async () => {
    const r = await c.kubectl(["apply", "--server-side", "--field-manager=other", "-f", "cr-replicas.yaml"]);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, "");
    assert.ok(
      r.stderr.startsWith(`error: Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using stable.example.com/v1: .spec.replicas\n${HELP}`),
      r.stderr,
    );
    const f = await c.kubectl(["apply", "--server-side", "--field-manager=other", "--force-conflicts", "-f", "cr-replicas.yaml"]);
    assert.equal(f.code, 0, f.stderr);
    assert.equal(f.stdout, "crontab.stable.example.com/my-cron serverside-applied\n");
    const got = await c.kubectl(["get", "ct", "my-cron", "-o", "jsonpath={.spec.replicas}"]);
    assert.equal(got.stdout, "3");
  });

  it("kubectl's own apply now conflicts with the forcing manager until it forces too", async () => {
    const r = await c.kubectl(["apply", "--server-side", "-f", "cr.yaml"]);
    assert.equal(r.code, 1);
    assert.ok(r.stderr.startsWith(`error: Apply failed with 1 conflict: conflict with "other": .spec.replicas\n${HELP}`), r.stderr);
    const f = await c.kubectl(["apply", "--server-side", "--force-conflicts", "-f", "cr.yaml"]);
    assert.equal(f.stdout, "crontab.stable.example.com/my-cron serverside-applied\n");
    // Entries are sorted by time, then manager: sort by manager so the same second does not matter.
    const m = (await managers()).sort((a, b) => (a.manager < b.manager ? -1 : 1));
    assert.deepEqual(
      m.map((e) => [e.manager, e.operation, e.fieldsV1]),
      [
        ["kubectl", "Apply", { "f:metadata": { "f:labels": { "f:app": {} } }, "f:spec": { "f:cronSpec": {}, "f:image": {}, "f:replicas": {} } }],
        ["other", "Apply", { "f:metadata": { "f:labels": { "f:app": {} } }, "f:spec": { "f:cronSpec": {}, "f:image": {} } }],
      ],
    );
    assert.equal((await c.kubectl(["get", "ct", "my-cron", "-o", "jsonpath={.spec.replicas}"])).stdout, "1");
  });
});
