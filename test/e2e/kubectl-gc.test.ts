/**
 * `kubectl delete` with each `--cascade` against crdkit serve, as against a cluster: background (the
 * default) deletes the owned objects, foreground waits until they are gone before the owner goes, orphan
 * keeps them without the owner's reference.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { api, type ApiResponse, widget, widgetCrd, until, WIDGETS } from "../server/client.js";
import { type Cluster, findKubectl, startCluster } from "./harness.js";

const kubectl = findKubectl();

describe("kubectl delete --cascade on crdkit serve (garbage collector)", { skip: kubectl ? false : "kubectl not on PATH", timeout: 180_000 }, () => {
  let c: Cluster;
  let url: string;
  before(async () => {
    // Plain HTTP: the setup requests below use fetch (the --cascade behaviour does not depend on the protocol).
    c = await startCluster({ protocol: "http" });
    url = c.server.url;
    assert.equal((await api(url, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", widgetCrd())).status, 201);
    await until(() => api(url, "GET", WIDGETS), (r) => r.status === 200, "widgets served");
  });
  after(async () => {
    await c?.close();
  });

  /** An owner and two dependents (one blocking the owner's foreground deletion). */
  async function family(prefix: string): Promise<void> {
    const o = await api(url, "POST", WIDGETS, widget(`${prefix}-owner`));
    assert.equal(o.status, 201, o.text);
    const ref = { apiVersion: "test.example.com/v1", kind: "Widget", name: `${prefix}-owner`, uid: o.json.metadata.uid };
    for (const [n, block] of [["a", false], ["b", true]] as const) {
      const d = await api(url, "POST", WIDGETS, widget(`${prefix}-${n}`, {}, { ownerReferences: [{ ...ref, controller: block, blockOwnerDeletion: block }] }));
      assert.equal(d.status, 201, d.text);
    }
  }

  const names = async (prefix: string) => {
    const r = await c.kubectl(["get", "widgets", "-o", "jsonpath={range .items[*]}{.metadata.name}{\" \"}{end}"]);
    assert.equal(r.code, 0, r.stderr);
    return r.stdout.split(" ").filter((n) => n.startsWith(`${prefix}-`));
  };

  it("default (background): the owner goes at once, its dependents after", async () => {
    await family("bg");
    const d = await c.kubectl(["delete", "widget", "bg-owner"]);
    assert.equal(d.code, 0, d.stderr);
    assert.equal(d.stdout, 'widget.test.example.com "bg-owner" deleted\n');
    await until(async () => ({ status: (await names("bg")).length }) as ApiResponse, (r) => r.status === 0, "dependents deleted");
  });

  it("--cascade=foreground: kubectl returns once the owner is gone, after its blocking dependent", async () => {
    await family("fg");
    const d = await c.kubectl(["delete", "widget", "fg-owner", "--cascade=foreground"]);
    assert.equal(d.code, 0, d.stderr);
    assert.equal(d.stdout, 'widget.test.example.com "fg-owner" deleted\n');
    // kubectl waited for the owner, which went only after its blocking dependent.
    assert.equal((await api(url, "GET", `${WIDGETS}/fg-owner`)).status, 404);
    assert.equal((await api(url, "GET", `${WIDGETS}/fg-b`)).status, 404);
    await until(async () => ({ status: (await names("fg")).length }) as ApiResponse, (r) => r.status === 0, "dependents deleted");
  });

  it("--cascade=orphan: the dependents stay, without the owner's reference", async () => {
    await family("or");
    const d = await c.kubectl(["delete", "widget", "or-owner", "--cascade=orphan"]);
    assert.equal(d.code, 0, d.stderr);
    assert.equal(d.stdout, 'widget.test.example.com "or-owner" deleted\n');
    assert.equal((await api(url, "GET", `${WIDGETS}/or-owner`)).status, 404);
    assert.deepEqual(await names("or"), ["or-a", "or-b"]);
    const refs = await c.kubectl(["get", "widget", "or-a", "or-b", "-o", "jsonpath={.items[*].metadata.ownerReferences}"]);
    assert.equal(refs.code, 0, refs.stderr);
    assert.equal(refs.stdout, "");
  });
});
