/** `crdkit validate` on built-in kinds: validated with the chosen release's schemas, `--kubernetes-version`. */
import * as assert from "node:assert/strict";
import { test } from "node:test";
import { runCli, tmpFiles } from "./helpers.js";

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: "3"
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx
`;

test("built-in kinds are validated: type errors located in the file, valid ConfigMaps pass", async () => {
  const dir = tmpFiles({ "d.yaml": DEPLOYMENT, "cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: b}\n" });
  const r = await runCli("validate", `${dir}/d.yaml`, `${dir}/cm.yaml`);
  assert.equal(r.code, 1, r.stderr);
  assert.equal(
    r.stdout.split(`${dir}/`).join(""),
    'd.yaml:6:13: spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"\nSummary: 2 resources: 1 valid, 1 invalid, 0 skipped\n',
  );
});

test("built-in kinds: unknown fields fail in Strict mode with the API server's text (json output)", async () => {
  const dir = tmpFiles({ "d.yaml": DEPLOYMENT.replace('replicas: "3"', "replica: 3") });
  const out = JSON.parse((await runCli("validate", "-o", "json", `${dir}/d.yaml`)).stdout);
  const r = out.results[0];
  assert.equal(r.decodeError, 'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replica"');
  assert.deepEqual(r.errors, [{ type: "UnknownField", field: "spec.replica", message: 'unknown field "spec.replica"', line: 6, column: 12 }]);
});

test("--kubernetes-version picks the release: ServiceCIDR is networking.k8s.io/v1 from 1.33", async () => {
  const dir = tmpFiles({ "s.yaml": "apiVersion: networking.k8s.io/v1\nkind: ServiceCIDR\nmetadata: {name: s}\nspec: {cidrs: [10.0.0.0/24]}\n" });
  // Before 1.33 the kind does not exist: no schema is an error (no silent passes).
  const old = await runCli("validate", "--kubernetes-version", "1.32", "-v", `${dir}/s.yaml`);
  assert.equal(old.code, 1);
  assert.match(old.stdout, /no matches for kind "ServiceCIDR" in version "networking.k8s.io\/v1"/);
  for (const v of ["1.33", "v1.33", "1.33.4"]) {
    const r = await runCli("validate", `--kubernetes-version=${v}`, `${dir}/s.yaml`);
    assert.equal(r.stdout, "Summary: 1 resource: 1 valid, 0 invalid, 0 skipped\n", v);
  }
});

test("--kubernetes-version outside 1.27 … 1.37 is a usage error", async () => {
  const dir = tmpFiles({ "d.yaml": DEPLOYMENT });
  const r = await runCli("validate", "--kubernetes-version", "1.26", `${dir}/d.yaml`);
  assert.equal(r.code, 2);
  assert.equal(r.stderr, 'crdkit validate: unsupported --kubernetes-version "1.26": built-in schemas are available for 1.27 … 1.37\n');
});

test("--help says what is not checked for built-in kinds", async () => {
  const r = await runCli("validate", "--help");
  assert.match(r.stdout, /--kubernetes-version V/);
  assert.match(r.stdout, /NOT checked for built-in kinds: the API server's hand-written Go validation/);
});
