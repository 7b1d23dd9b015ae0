/**
 * Namespaces with the real kubectl against `crdkit serve` (SQLite and etcd): create/get/delete ns, a file
 * mixing a Namespace and custom resources, NamespaceLifecycle answers, and the namespace controller
 * deleting a namespace's custom resources (waiting for finalizers). The servers run with the default 5 s
 * deletion grace period, so each waited `delete ns` takes about 5 s, as on a cluster.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type Backend, type Cluster, findKubectl, normalizeAges, squeeze, startCluster, versionedKubectl } from "./harness.js";

const kubectl = findKubectl();

for (const backend of ["sqlite", "etcd"] satisfies Backend[])
describe(`kubectl namespaces against crdkit serve (${backend})`, { skip: kubectl ? false : "kubectl not on PATH", timeout: 180_000 }, () => {
  let c: Cluster;
  before(async () => {
    c = await startCluster({ backend });
    const crd = await c.kubectl(["apply", "-f", "crd.yaml"]);
    assert.equal(crd.code, 0, crd.stderr);
    const est = await c.kubectl(["wait", "--for=condition=Established", "crd/crontabs.stable.example.com", "--timeout=30s"]);
    assert.equal(est.code, 0, est.stderr);
  });
  after(async () => {
    await c?.close();
  });

  async function expectRun(args: string[], want: { code?: number; stdout?: string | RegExp; stderr?: string | RegExp }): Promise<string> {
    const r = await c.kubectl(args);
    const ctx = `kubectl ${args.join(" ")}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`;
    assert.equal(r.code, want.code ?? 0, ctx);
    for (const [got, exp] of [
      [r.stdout, want.stdout],
      [r.stderr, want.stderr],
    ] as const) {
      if (exp === undefined) continue;
      if (typeof exp === "string") assert.equal(got, exp, ctx);
      else assert.match(got, exp, ctx);
    }
    return r.stdout;
  }

  it("get ns lists the system namespaces with NAME, STATUS, AGE", async () => {
    assert.equal(
      normalizeAges(squeeze(await expectRun(["get", "ns"], {}))),
      "NAME  STATUS  AGE\ndefault  Active  <age>\nkube-node-lease  Active  <age>\nkube-public  Active  <age>\nkube-system  Active  <age>\n",
    );
  });

  it("create ns, get ns NAME, -o jsonpath", async () => {
    await expectRun(["create", "ns", "team-a"], { stdout: "namespace/team-a created\n" });
    assert.equal(normalizeAges(squeeze(await expectRun(["get", "ns", "team-a"], {}))), "NAME  STATUS  AGE\nteam-a  Active  <age>\n");
    await expectRun(["get", "namespace", "team-a", "-o", "jsonpath={.spec.finalizers} {.status.phase} {.metadata.labels}"], {
      stdout: '["kubernetes"] Active {"kubernetes.io/metadata.name":"team-a"}',
    });
    // kubectl sends the Namespace as protobuf: its zero generation is Go's omitted zero value.
    await expectRun(["get", "ns", "team-a", "-o", "jsonpath={.metadata.generation}"], { stdout: "" });
    await expectRun(["create", "ns", "team-a"], { code: 1, stderr: 'Error from server (AlreadyExists): namespaces "team-a" already exists\n' });
    await expectRun(["create", "ns", "Team_A"], {
      code: 1,
      stderr: /^The Namespace "Team_A" is invalid: metadata\.name: Invalid value: "Team_A": a lowercase RFC 1123 label must consist of/,
    });
    await expectRun(["label", "ns", "team-a", "tier=gold"], { stdout: "namespace/team-a labeled\n" });
    await expectRun(["get", "ns", "-l", "tier=gold", "-o", "name"], { stdout: "namespace/team-a\n" });
  });

  it("apply -f of a file mixing a Namespace and custom resources: created, then unchanged", async () => {
    await expectRun(["apply", "-f", "ns-mixed.yaml"], {
      stdout: "namespace/shop created\ncrontab.stable.example.com/nightly created\ncrontab.stable.example.com/hourly created\n",
    });
    await expectRun(["apply", "-f", "ns-mixed.yaml"], {
      stdout: "namespace/shop unchanged\ncrontab.stable.example.com/nightly unchanged\ncrontab.stable.example.com/hourly unchanged\n",
    });
    await expectRun(["apply", "-f", "ns-mixed.yaml", "--server-side"], {
      stdout: "namespace/shop serverside-applied\ncrontab.stable.example.com/nightly serverside-applied\ncrontab.stable.example.com/hourly serverside-applied\n",
    });
    assert.equal(
      normalizeAges(squeeze(await expectRun(["get", "ct", "-A"], {}))),
      "NAMESPACE  NAME  SPEC  REPLICAS  AGE\nshop  hourly  0 * * * *  2  <age>\nshop  nightly  0 0 * * *  1  <age>\n",
    );
    assert.equal(
      normalizeAges(squeeze(await expectRun(["get", "all", "-n", "shop"], {}))),
      "NAME  SPEC  REPLICAS  AGE\nhourly  0 * * * *  2  <age>\nnightly  0 0 * * *  1  <age>\n",
    );
  });

  it("NamespaceLifecycle: no creates in a missing namespace, the immortal ones cannot be deleted", async () => {
    await expectRun(["create", "-f", "cr.yaml", "-n", "nowhere"], {
      code: 1,
      stderr: 'Error from server (NotFound): error when creating "cr.yaml": namespaces "nowhere" not found\n',
    });
    await expectRun(["delete", "ns", "default"], {
      code: 1,
      stderr: 'Error from server (Forbidden): namespaces "default" is forbidden: this namespace may not be deleted\n',
    });
  });

  it("delete ns removes its custom resources and waits until the namespace is gone", async () => {
    await expectRun(["delete", "ns", "shop"], { stdout: 'namespace "shop" deleted\n' });
    await expectRun(["get", "ns", "shop"], { code: 1, stderr: 'Error from server (NotFound): namespaces "shop" not found\n' });
    await expectRun(["get", "ct", "-A"], { stderr: "No resources found\n" });
  });

  it("a namespace whose content has finalizers stays Terminating until they are released", async () => {
    await expectRun(["create", "ns", "held"], { stdout: "namespace/held created\n" });
    await expectRun(["create", "-f", "cr-finalizer.yaml", "-n", "held"], { stdout: "crontab.stable.example.com/held-cron created\n" });
    await expectRun(["delete", "ns", "held", "--wait=false"], { stdout: 'namespace "held" deleted\n' });
    await expectRun(["create", "-f", "cr.yaml", "-n", "held"], {
      code: 1,
      stderr:
        'Error from server (Forbidden): error when creating "cr.yaml": crontabs.stable.example.com "my-cron" is forbidden: unable to create new content in namespace held because it is being terminated\n',
    });
    await expectRun(["delete", "ns", "held", "--wait=false"], {
      code: 1,
      stderr:
        'Error from server (Conflict): Operation cannot be fulfilled on namespaces "held": The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.\n',
    });
    await expectRun(
      ["wait", "ns/held", "--for=jsonpath={.status.conditions[?(@.type==\"NamespaceFinalizersRemaining\")].status}=True", "--timeout=30s"],
      { stdout: "namespace/held condition met\n" },
    );
    await expectRun(["get", "ns", "held", "-o", "jsonpath={.status.phase}: {.status.conditions[?(@.type==\"NamespaceContentRemaining\")].message}"], {
      stdout: "Terminating: Some resources are remaining: crontabs.stable.example.com has 1 resource instances",
    });
    assert.equal(normalizeAges(squeeze(await expectRun(["get", "ns", "held"], {}))), "NAME  STATUS  AGE\nheld  Terminating  <age>\n");
    await expectRun(["patch", "ct", "held-cron", "-n", "held", "--type=merge", "-p", '{"metadata":{"finalizers":null}}'], {
      stdout: "crontab.stable.example.com/held-cron patched\n",
    });
    await expectRun(["wait", "--for=delete", "ns/held", "--timeout=30s"], { stdout: /^(namespace\/held condition met\n)?$/ });
    await expectRun(["get", "ns", "held", "--ignore-not-found"], { stdout: "" });
  });

  it("replace --raw …/finalize with no finalizers purges a stuck namespace", async () => {
    await expectRun(["create", "ns", "stuck"], { stdout: "namespace/stuck created\n" });
    await expectRun(["create", "-f", "cr-finalizer.yaml", "-n", "stuck"], { stdout: "crontab.stable.example.com/held-cron created\n" });
    await expectRun(["delete", "ns", "stuck", "--wait=false"], { stdout: 'namespace "stuck" deleted\n' });
    const ns = JSON.parse(await expectRun(["get", "ns", "stuck", "-o", "json"], {}));
    assert.deepEqual(ns.spec, { finalizers: ["kubernetes"] });
    const file = join(c.dir, "stuck.json");
    writeFileSync(file, JSON.stringify({ ...ns, spec: { finalizers: [] } }));
    const out = JSON.parse(await expectRun(["replace", "--raw", "/api/v1/namespaces/stuck/finalize", "-f", file], {}));
    assert.equal(out.kind, "Namespace");
    assert.equal(out.status.phase, "Terminating");
    await expectRun(["get", "ns", "stuck"], { code: 1, stderr: 'Error from server (NotFound): namespaces "stuck" not found\n' });
  });
});

// Each versioned kubectl (1.27/1.28 use v2beta1 aggregated discovery and OpenAPI v2) with the namespace basics.
for (const minor of [27, 28, 29, 30, 31, 32, 33]) {
  const bin = versionedKubectl(minor);
  describe(`kubectl 1.${minor} namespaces`, { skip: bin ? false : `kubectl.1.${minor} not installed`, timeout: 120_000 }, () => {
    it("create ns, get ns, apply a mixed file, delete ns", async () => {
      const c = await startCluster({});
      try {
        const steps: [string[], string][] = [
          [["apply", "-f", "crd.yaml"], "customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created\n"],
          [["wait", "--for=condition=Established", "crd/crontabs.stable.example.com", "--timeout=30s"], "customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com condition met\n"],
          [["create", "ns", "x"], "namespace/x created\n"],
          [["get", "ns", "x", "--no-headers", "-o", "custom-columns=NAME:.metadata.name,PHASE:.status.phase"], "x  Active\n"],
          [["apply", "-f", "ns-mixed.yaml"], "namespace/shop created\ncrontab.stable.example.com/nightly created\ncrontab.stable.example.com/hourly created\n"],
          [["delete", "ns", "shop", "--wait=false"], 'namespace "shop" deleted\n'],
          [["get", "ns", "shop", "--no-headers", "-o", "custom-columns=NAME:.metadata.name,PHASE:.status.phase"], "shop  Terminating\n"],
        ];
        for (const [args, stdout] of steps) {
          const r = await c.kubectl(args, { bin: bin! });
          const ctx = `kubectl.1.${minor} ${args.join(" ")}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`;
          assert.equal(r.code, 0, ctx);
          assert.equal(squeeze(r.stdout), stdout, ctx);
        }
      } finally {
        await c.close();
      }
    });
  });
}
