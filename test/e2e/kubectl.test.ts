/**
 * The real kubectl (the PATH dispatcher, which runs kubectl 1.32 for our /version) against
 * `crdkit serve`, for the commands of kubectl-wire.md §4, asserting what kubectl prints.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Backend, type Cluster, findKubectl, LineCollector, normalizeAges, squeeze, startCluster } from "./harness.js";

const kubectl = findKubectl();

// The same suite on both store backends (etcd: a fresh etcd process on free loopback ports).
for (const backend of ["sqlite", "etcd"] satisfies Backend[])
describe(`kubectl against crdkit serve (${backend})`, { skip: kubectl ? false : "kubectl not on PATH", timeout: 180_000 }, () => {
  let c: Cluster;
  before(async () => {
    c = await startCluster({ backend });
  });
  after(async () => {
    await c?.close();
  });

  /** Runs kubectl and asserts exit code, stdout and stderr (exact strings or patterns). */
  async function expectRun(
    args: string[],
    want: { code?: number; stdout?: string | RegExp; stderr?: string | RegExp },
    opts: { env?: Record<string, string> } = {},
  ): Promise<string> {
    const r = await c.kubectl(args, opts);
    const ctx = `kubectl ${args.join(" ")}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`;
    assert.equal(r.code, want.code ?? 0, ctx);
    for (const [k, exp] of [
      ["stdout", want.stdout],
      ["stderr", want.stderr],
    ] as const) {
      if (exp === undefined) continue;
      const got = k === "stdout" ? r.stdout : r.stderr;
      if (typeof exp === "string") assert.equal(got, exp, ctx);
      else assert.match(got, exp, ctx);
    }
    return r.stdout;
  }

  it("apply -f crd.yaml creates the CRD, a second apply is unchanged", async () => {
    await expectRun(["apply", "-f", "crd.yaml"], {
      stdout: "customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created\n",
    });
    await expectRun(["apply", "-f", "crd.yaml"], {
      stdout: "customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com unchanged\n",
    });
  });

  it("wait --for=condition=Established", async () => {
    await expectRun(["wait", "--for=condition=Established", "crd/crontabs.stable.example.com", "--timeout=30s"], {
      stdout: "customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com condition met\n",
    });
  });

  it("get crd prints the CRD table's NAME, SCOPE, VERSIONS and CREATED AT", async () => {
    const out = await expectRun(["get", "crd"], {});
    assert.match(squeeze(out), /^NAME {2}SCOPE {2}VERSIONS {2}CREATED AT\ncrontabs\.stable\.example\.com {2}Namespaced {2}v1\(storage\) {2}\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n$/);
  });

  it("apply -f cr.yaml: created, unchanged, configured", async () => {
    await expectRun(["apply", "-f", "cr.yaml"], { stdout: "crontab.stable.example.com/my-cron created\n" });
    await expectRun(["apply", "-f", "cr.yaml"], { stdout: "crontab.stable.example.com/my-cron unchanged\n" });
    await expectRun(["apply", "-f", "cr-v2.yaml"], { stdout: "crontab.stable.example.com/my-cron configured\n" });
  });

  it("version, api-resources, api-versions, apply --dry-run=server", async () => {
    assert.match(await expectRun(["version"], {}), /^Server Version: v1\.32\.0-crdkit$/m);
    assert.equal(
      squeeze(await expectRun(["api-resources"], {})),
      [
        "NAME  SHORTNAMES  APIVERSION  NAMESPACED  KIND",
        "namespaces  ns  v1  false  Namespace",
        "customresourcedefinitions  crd,crds  apiextensions.k8s.io/v1  false  CustomResourceDefinition",
        "selfsubjectreviews  authentication.k8s.io/v1  false  SelfSubjectReview",
        "selfsubjectaccessreviews  authorization.k8s.io/v1  false  SelfSubjectAccessReview",
        "selfsubjectrulesreviews  authorization.k8s.io/v1  false  SelfSubjectRulesReview",
        "clusterrolebindings  rbac.authorization.k8s.io/v1  false  ClusterRoleBinding",
        "clusterroles  rbac.authorization.k8s.io/v1  false  ClusterRole",
        "rolebindings  rbac.authorization.k8s.io/v1  true  RoleBinding",
        "roles  rbac.authorization.k8s.io/v1  true  Role",
        "crontabs  ct  stable.example.com/v1  true  CronTab",
        "",
      ].join("\n"),
    );
    await expectRun(["api-versions"], {
      stdout: "apiextensions.k8s.io/v1\nauthentication.k8s.io/v1\nauthorization.k8s.io/v1\nrbac.authorization.k8s.io/v1\nstable.example.com/v1\nv1\n",
    });
    await expectRun(["apply", "-f", "cr.yaml", "--dry-run=server"], { stdout: "crontab.stable.example.com/my-cron configured (server dry run)\n" });
    await expectRun(["get", "ct", "my-cron", "-o", "jsonpath={.spec.image}"], { stdout: "my-cron-image:v2" });
  });

  it("create of an existing object is AlreadyExists", async () => {
    await expectRun(["create", "-f", "cr.yaml"], {
      code: 1,
      stderr: 'Error from server (AlreadyExists): error when creating "cr.yaml": crontabs.stable.example.com "my-cron" already exists\n',
    });
  });

  it("get crontabs / ct / -o wide print the printer columns", async () => {
    const table = "NAME  SPEC  REPLICAS  AGE\nmy-cron  * * * * */5  1  <age>\n";
    assert.equal(normalizeAges(squeeze(await expectRun(["get", "crontabs"], {}))), table);
    assert.equal(normalizeAges(squeeze(await expectRun(["get", "ct"], {}))), table);
    assert.equal(normalizeAges(squeeze(await expectRun(["get", "ct", "my-cron"], {}))), table);
    assert.equal(
      normalizeAges(squeeze(await expectRun(["get", "ct", "-o", "wide"], {}))),
      "NAME  SPEC  REPLICAS  IMAGE  AGE\nmy-cron  * * * * */5  1  my-cron-image:v2  <age>\n",
    );
  });

  it("get -o json / yaml / name / jsonpath", async () => {
    const obj = JSON.parse(await expectRun(["get", "ct", "my-cron", "-o", "json"], {}));
    assert.equal(obj.kind, "CronTab");
    assert.equal(obj.apiVersion, "stable.example.com/v1");
    assert.equal(obj.metadata.namespace, "default");
    assert.equal(obj.metadata.generation, 2);
    assert.match(obj.metadata.resourceVersion, /^\d+$/);
    assert.match(obj.metadata.uid, /^[0-9a-f-]{36}$/);
    assert.deepEqual(obj.spec, { cronSpec: "* * * * */5", image: "my-cron-image:v2", replicas: 1 });
    const list = JSON.parse(await expectRun(["get", "ct", "-o", "json"], {}));
    assert.equal(list.kind, "List");
    assert.deepEqual(
      list.items.map((i: { metadata: { name: string } }) => i.metadata.name),
      ["my-cron"],
    );
    assert.match(await expectRun(["get", "ct", "my-cron", "-o", "yaml"], {}), /^apiVersion: stable\.example\.com\/v1\nkind: CronTab\nmetadata:\n/);
    await expectRun(["get", "ct", "-o", "name"], { stdout: "crontab.stable.example.com/my-cron\n" });
    await expectRun(["get", "ct", "my-cron", "-o", "jsonpath={.spec.image}"], { stdout: "my-cron-image:v2" });
  });

  it("get -A, -l, --field-selector, --show-labels", async () => {
    assert.equal(
      normalizeAges(squeeze(await expectRun(["get", "ct", "-A"], {}))),
      "NAMESPACE  NAME  SPEC  REPLICAS  AGE\ndefault  my-cron  * * * * */5  1  <age>\n",
    );
    assert.equal(
      normalizeAges(squeeze(await expectRun(["get", "ct", "-l", "app=demo"], {}))),
      "NAME  SPEC  REPLICAS  AGE\nmy-cron  * * * * */5  1  <age>\n",
    );
    await expectRun(["get", "ct", "-l", "app=other"], { stderr: "No resources found in default namespace.\n" });
    await expectRun(["get", "ct", "--field-selector", "metadata.name=nope"], { stderr: "No resources found in default namespace.\n" });
    await expectRun(["get", "ct", "--field-selector", "spec.image=x"], {
      code: 1,
      stderr: 'Error from server (BadRequest): Unable to find "stable.example.com/v1, Resource=crontabs" that match label selector "", field selector "spec.image=x": field label not supported: spec.image\n',
    });
    assert.match(squeeze(await expectRun(["get", "ct", "--show-labels"], {})), /^NAME {2}SPEC {2}REPLICAS {2}AGE {2}LABELS\nmy-cron .* app=demo\n$/);
  });

  it("get --sort-by (includeObject=Object) and -o custom-columns", async () => {
    await expectRun(["apply", "-f", "cr-ssa.yaml", "--server-side"], { stdout: "crontab.stable.example.com/ssa-cron serverside-applied\n" });
    assert.equal(
      normalizeAges(squeeze(await expectRun(["get", "ct", "--sort-by=.spec.replicas"], {}))),
      "NAME  SPEC  REPLICAS  AGE\nmy-cron  * * * * */5  1  <age>\nssa-cron  */10 * * * *  2  <age>\n",
    );
    assert.equal(
      squeeze(await expectRun(["get", "ct", "-o", "custom-columns=NAME:.metadata.name,IMAGE:.spec.image"], {})),
      "NAME  IMAGE\nmy-cron  my-cron-image:v2\nssa-cron  ssa-image\n",
    );
    await expectRun(["delete", "ct", "ssa-cron"], { stdout: 'crontab.stable.example.com "ssa-cron" deleted\n' });
  });

  it("get all expands the category", async () => {
    assert.equal(
      normalizeAges(squeeze(await expectRun(["get", "all"], {}))),
      "NAME  SPEC  REPLICAS  AGE\nmy-cron  * * * * */5  1  <age>\n",
    );
  });

  it("describe prints the generic field dump", async () => {
    const out = await expectRun(["describe", "ct", "my-cron"], {});
    for (const line of [/^Name: +my-cron$/m, /^Namespace: +default$/m, /^Labels: +app=demo$/m, /^API Version: +stable\.example\.com\/v1$/m, /^Kind: +CronTab$/m, /^ +Image: +my-cron-image:v2$/m, /^Events: +<none>$/m]) {
      assert.match(out, line);
    }
  });

  it("explain reads the published OpenAPI v3 schema", async () => {
    const out = await expectRun(["explain", "crontabs.spec"], {});
    assert.match(out, /^GROUP: +stable\.example\.com\nKIND: +CronTab\nVERSION: +v1\n\nFIELD: +spec <Object>\n/);
    assert.match(out, /DESCRIPTION:\n +The desired CronTab\./);
    assert.match(out, /^ {2}cronSpec\t<string>\n +Cron schedule\./m);
    assert.match(out, /^ {2}replicas\t<integer>$/m);
    const meta = await expectRun(["explain", "crontabs.metadata.name"], {});
    assert.match(meta, /^FIELD: +name <string>$/m);
  });

  it("scale writes spec.replicas through /scale", async () => {
    await expectRun(["scale", "--replicas=5", "crontabs/my-cron"], { stdout: "crontab.stable.example.com/my-cron scaled\n" });
    await expectRun(["get", "ct", "my-cron", "-o", "jsonpath={.spec.replicas}"], { stdout: "5" });
    await expectRun(["scale", "--current-replicas=2", "--replicas=3", "crontabs/my-cron"], {
      code: 1,
      stderr: "error: Expected replicas to be 2, was 5\n",
    });
  });

  it("patch: merge, no-op, json, strategic (415), status subresource", async () => {
    await expectRun(["patch", "ct", "my-cron", "--type=merge", "-p", '{"spec":{"replicas":3}}'], {
      stdout: "crontab.stable.example.com/my-cron patched\n",
    });
    await expectRun(["patch", "ct", "my-cron", "--type=merge", "-p", '{"spec":{"replicas":3}}'], {
      stdout: "crontab.stable.example.com/my-cron patched (no change)\n",
    });
    await expectRun(["patch", "ct", "my-cron", "--type=json", "-p", '[{"op":"replace","path":"/spec/replicas","value":4}]'], {
      stdout: "crontab.stable.example.com/my-cron patched\n",
    });
    await expectRun(["patch", "ct", "my-cron", "-p", '{"spec":{"replicas":3}}'], {
      code: 1,
      stderr:
        "error: application/strategic-merge-patch+json is not supported by stable.example.com/v1, Kind=CronTab: the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml\n",
    });
    await expectRun(["patch", "ct", "my-cron", "--subresource=status", "--type=merge", "-p", '{"status":{"replicas":2},"spec":{"replicas":9}}'], {
      stdout: "crontab.stable.example.com/my-cron patched\n",
    });
    const obj = JSON.parse(await expectRun(["get", "ct", "my-cron", "-o", "json"], {}));
    assert.deepEqual([obj.spec.replicas, obj.status], [4, { replicas: 2 }]);
    await expectRun(["wait", "--for=jsonpath={.status.replicas}=2", "ct/my-cron", "--timeout=30s"], {
      stdout: "crontab.stable.example.com/my-cron condition met\n",
    });
  });

  it("label and annotate", async () => {
    await expectRun(["label", "ct", "my-cron", "tier=gold"], { stdout: "crontab.stable.example.com/my-cron labeled\n" });
    await expectRun(["annotate", "ct", "my-cron", "note=hi"], { stdout: "crontab.stable.example.com/my-cron annotated\n" });
    await expectRun(["get", "ct", "my-cron", "-o", "jsonpath={.metadata.labels.tier}/{.metadata.annotations.note}"], { stdout: "gold/hi" });
  });

  it("edit (non-interactive editor)", async () => {
    await expectRun(["edit", "ct", "my-cron"], { stdout: "crontab.stable.example.com/my-cron edited\n" }, { env: { EDITOR: "sed -i s/replicas:\\ 4/replicas:\\ 6/" } });
    await expectRun(["get", "ct", "my-cron", "-o", "jsonpath={.spec.replicas}"], { stdout: "6" });
  });

  it("replace -f", async () => {
    await expectRun(["replace", "-f", "cr.yaml"], { stdout: "crontab.stable.example.com/my-cron replaced\n" });
    await expectRun(["get", "ct", "my-cron", "-o", "jsonpath={.spec.image}/{.spec.replicas}/{.status.replicas}"], { stdout: "my-cron-image/1/2" });
  });

  it("apply --server-side creates and then updates", async () => {
    await expectRun(["apply", "--server-side", "-f", "cr-ssa.yaml"], { stdout: "crontab.stable.example.com/ssa-cron serverside-applied\n" });
    await expectRun(["apply", "--server-side", "-f", "cr-ssa.yaml"], { stdout: "crontab.stable.example.com/ssa-cron serverside-applied\n" });
    await expectRun(["get", "ct", "ssa-cron", "-o", "jsonpath={.spec.image}"], { stdout: "ssa-image" });
  });

  it("--validate=strict rejects unknown fields with the API server's 400 text", async () => {
    await expectRun(["apply", "-f", "cr-bad.yaml"], {
      code: 1,
      stderr:
        'Error from server (BadRequest): error when creating "cr-bad.yaml": CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: unknown field "spec.bogusField"\n',
    });
    await expectRun(["create", "--validate=strict", "-f", "cr-bad.yaml"], {
      code: 1,
      stderr:
        'Error from server (BadRequest): error when creating "cr-bad.yaml": CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: unknown field "spec.bogusField"\n',
    });
  });

  it("--validate=warn prints the Warning header and prunes", async () => {
    await expectRun(["create", "--validate=warn", "-f", "cr-bad.yaml"], {
      stdout: "crontab.stable.example.com/bad-cron created\n",
      stderr: 'Warning: unknown field "spec.bogusField"\n',
    });
    await expectRun(["get", "ct", "bad-cron", "-o", "jsonpath={.spec}"], { stdout: '{"cronSpec":"* * * * */5","image":"my-cron-image","replicas":1}' });
    await expectRun(["delete", "ct", "bad-cron"], { stdout: 'crontab.stable.example.com "bad-cron" deleted\n' });
  });

  it("--validate=false sends Ignore: created silently, pruned", async () => {
    await expectRun(["create", "--validate=false", "-f", "cr-bad.yaml"], { stdout: "crontab.stable.example.com/bad-cron created\n", stderr: "" });
    await expectRun(["get", "ct", "bad-cron", "-o", "jsonpath={.spec.bogusField}"], { stdout: "" });
  });

  it("an invalid object gets the API server's 422 message (seed CronTab)", async () => {
    await expectRun(["apply", "-f", "cr-invalid.yaml"], {
      code: 1,
      stderr:
        'The CronTab "my-new-cron-object" is invalid: \n* spec.cronSpec: Invalid value: "* * * *": spec.cronSpec in body should match \'^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$\'\n* spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10\n',
    });
  });

  it("get of a missing object is NotFound", async () => {
    await expectRun(["get", "ct", "nope"], { code: 1, stderr: 'Error from server (NotFound): crontabs.stable.example.com "nope" not found\n' });
    await expectRun(["delete", "ct", "nope"], { code: 1, stderr: 'Error from server (NotFound): crontabs.stable.example.com "nope" not found\n' });
    await expectRun(["delete", "ct", "nope", "--ignore-not-found"], { stdout: "" });
  });

  it("get --watch prints a row per change", async () => {
    const child = c.spawnKubectl(["get", "ct", "my-cron", "--watch", "--output-watch-events"]);
    const out = new LineCollector(child);
    try {
      const first = await out.waitFor(2);
      assert.match(squeeze(first[0]!), /^EVENT {2}NAME {2}SPEC {2}REPLICAS {2}AGE$/);
      // AGE is kubectl's human duration: seconds up to 2 minutes, then "2m5s" (a slow machine gets there).
      assert.match(squeeze(first[1]!), /^ADDED {2}my-cron {2}\* \* \* \* \*\/5 {2}1 {2}(\d+s|\d+m(\d+s)?)$/);
      const next = out.waitFor(3);
      await expectRun(["patch", "ct", "my-cron", "--type=merge", "-p", '{"spec":{"replicas":7}}'], {
        stdout: "crontab.stable.example.com/my-cron patched\n",
      });
      const lines = await next;
      assert.match(squeeze(lines[2]!), /^MODIFIED {2}my-cron {2}\* \* \* \* \*\/5 {2}7 {2}(\d+s|\d+m(\d+s)?)$/);
    } finally {
      child.kill("SIGTERM");
    }
  });

  it("delete waits for finalizers; removing the last one deletes the object", async () => {
    await expectRun(["apply", "-f", "cr-finalizer.yaml"], { stdout: "crontab.stable.example.com/held-cron created\n" });
    await expectRun(["delete", "ct", "held-cron", "--wait=false"], { stdout: 'crontab.stable.example.com "held-cron" deleted\n' });
    const obj = JSON.parse(await expectRun(["get", "ct", "held-cron", "-o", "json"], {}));
    assert.match(obj.metadata.deletionTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    await expectRun(["patch", "ct", "held-cron", "--type=json", "-p", '[{"op":"remove","path":"/metadata/finalizers"}]'], {
      stdout: "crontab.stable.example.com/held-cron patched\n",
    });
    await expectRun(["get", "ct", "held-cron"], { code: 1, stderr: 'Error from server (NotFound): crontabs.stable.example.com "held-cron" not found\n' });
  });

  it("delete --wait watches until the finalizer is removed", async () => {
    await expectRun(["apply", "-f", "cr-finalizer.yaml"], { stdout: "crontab.stable.example.com/held-cron created\n" });
    const child = c.spawnKubectl(["delete", "ct", "held-cron", "--timeout=60s"]);
    const out = new LineCollector(child);
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    try {
      assert.deepEqual(await out.waitFor(1), ['crontab.stable.example.com "held-cron" deleted']);
      const obj = JSON.parse(await expectRun(["get", "ct", "held-cron", "-o", "json"], {}));
      assert.ok(obj.metadata.deletionTimestamp);
      await expectRun(["patch", "ct", "held-cron", "--type=merge", "-p", '{"metadata":{"finalizers":null}}'], {
        stdout: "crontab.stable.example.com/held-cron patched\n",
      });
      assert.equal(await exited, 0);
    } finally {
      child.kill("SIGTERM");
    }
  });

  it("delete of objects and of the CRD", async () => {
    await expectRun(["delete", "ct", "my-cron"], { stdout: 'crontab.stable.example.com "my-cron" deleted\n' });
    await expectRun(["get", "ct", "my-cron"], { code: 1, stderr: 'Error from server (NotFound): crontabs.stable.example.com "my-cron" not found\n' });
    await expectRun(["delete", "-f", "crd.yaml"], { stdout: 'customresourcedefinition.apiextensions.k8s.io "crontabs.stable.example.com" deleted\n' });
    // kubectl still has the resource in its discovery cache, so it lists and gets a 404 for the path.
    await expectRun(["get", "crontabs"], {
      code: 1,
      stderr: 'Error from server (NotFound): Unable to list "stable.example.com/v1, Resource=crontabs": the server could not find the requested resource (get crontabs.stable.example.com)\n',
    });
  });
});
