/**
 * Deleting a CRD with kubectl while an instance holds a finalizer: the CRD turns Terminating, discovery
 * verbs shrink, creates are refused with the API server's 403, and the CRD goes once the instance does.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Cluster, findKubectl, squeeze, startCluster } from "./harness.js";

const kubectl = findKubectl();
const CRD = "crd/crontabs.stable.example.com";

describe("kubectl delete crd", { skip: kubectl ? false : "kubectl not on PATH", timeout: 120_000 }, () => {
  let c: Cluster;
  before(async () => {
    c = await startCluster();
    for (const f of ["crd.yaml", "cr.yaml", "cr-finalizer.yaml"]) assert.equal((await c.kubectl(["apply", "-f", f])).code, 0, f);
  });
  after(async () => {
    await c?.close();
  });

  it("marks the CRD Terminating and deletes the instances it can", async () => {
    const d = await c.kubectl(["delete", CRD, "--wait=false"]);
    assert.equal(d.stdout, 'customresourcedefinition.apiextensions.k8s.io "crontabs.stable.example.com" deleted\n');
    const w = await c.kubectl(["wait", "--for=delete", "ct/my-cron", "--timeout=30s"]);
    assert.equal(w.code, 0, w.stderr);
    const cond = await c.kubectl(["get", CRD, "-o", 'jsonpath={.metadata.finalizers} {.status.conditions[?(@.type=="Terminating")].reason}']);
    assert.equal(cond.stdout, '["customresourcecleanup.apiextensions.k8s.io"] InstanceDeletionInProgress');
    const held = await c.kubectl(["get", "ct", "held-cron", "-o", "jsonpath={.metadata.deletionTimestamp}"]);
    assert.match(held.stdout, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it("shows the shrunk verbs and refuses creates with 403", async () => {
    const r = await c.kubectl(["api-resources", "--api-group=stable.example.com", "-o", "wide"]);
    assert.match(squeeze(r.stdout), /^crontabs {2}ct {2}stable\.example\.com\/v1 {2}true {2}CronTab {2}delete,deletecollection,get,list,watch {2}all$/m);
    const a = await c.kubectl(["apply", "-f", "cr-v2.yaml"]);
    assert.equal(a.code, 1);
    assert.equal(
      a.stderr,
      'Error from server (Forbidden): error when creating "cr-v2.yaml": crontabs.stable.example.com "my-cron" is forbidden: create not allowed while custom resource definition is terminating\n',
    );
  });

  it("removes the CRD after the last finalizer is gone", async () => {
    const p = await c.kubectl(["patch", "ct", "held-cron", "--type=merge", "-p", '{"metadata":{"finalizers":null}}']);
    assert.equal(p.code, 0, p.stderr);
    const w = await c.kubectl(["wait", "--for=delete", CRD, "--timeout=30s"]);
    assert.equal(w.code, 0, w.stderr);
    const g = await c.kubectl(["get", "crd"]);
    assert.equal(g.stderr, "No resources found\n");
  });
});
