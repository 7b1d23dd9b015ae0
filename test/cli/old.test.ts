/**
 * `--old` matching as the API server stores objects (namespace defaulted), and `check --old` with a CRD
 * file from git (no status).
 */
import * as assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { runCli, tmpFiles } from "./helpers.js";

const CRD = readFileSync("examples/crontab-crd.yaml", "utf8");
const cron = (ns: string, replicas: number) =>
  `apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: a\n${ns === "" ? "" : `  namespace: ${ns}\n`}spec:\n  image: x\n  replicas: ${replicas}\n`;

async function validateUpdate(oldNs: string, newNs: string) {
  // replicas 20 > maximum 10 in both: ratcheting accepts it only on an update
  const dir = tmpFiles({ "crd.yaml": CRD, "old.yaml": cron(oldNs, 20), "new.yaml": cron(newNs, 20) });
  const r = await runCli("validate", "--crds", `${dir}/crd.yaml`, "--old", `${dir}/old.yaml`, "-o", "json", `${dir}/new.yaml`);
  return JSON.parse(r.stdout).results[0];
}

test("--old: an old object with namespace default matches a new one without namespace (and vice versa)", async () => {
  for (const [o, n] of [["default", ""], ["", "default"], ["default", "default"]]) {
    const res = await validateUpdate(o!, n!);
    assert.equal(res.operation, "update", `old ${o || "(none)"} / new ${n || "(none)"}`);
    assert.deepEqual(res.errors, []);
  }
});

test("--old: no namespace on either side is an update without a spurious 'field is immutable'", async () => {
  const res = await validateUpdate("", "");
  assert.equal(res.operation, "update");
  assert.deepEqual(res.errors, []);
});

test("--old: another namespace does not match (validated as a create)", async () => {
  const res = await validateUpdate("other", "");
  assert.equal(res.operation, "create");
  assert.equal(res.errors[0].message, "spec.replicas: Invalid value: 20: spec.replicas in body should be less than or equal to 10");
});

test("--old with a cluster-scoped kind: a namespace in the old manifest is ignored for matching", async () => {
  const crd = CRD.replace("scope: Namespaced", "scope: Cluster");
  const dir = tmpFiles({ "crd.yaml": crd, "old.yaml": cron("default", 20), "new.yaml": cron("", 20) });
  const r = await runCli("validate", "--crds", `${dir}/crd.yaml`, "--old", `${dir}/old.yaml`, "-o", "json", `${dir}/new.yaml`);
  const res = JSON.parse(r.stdout).results[0];
  assert.equal(res.operation, "update");
  assert.deepEqual(res.errors, []);
});

test("check --old with a plain CRD file (no status): scope and kind changes are reported", async () => {
  const dir = tmpFiles({
    "old.yaml": CRD,
    "scope.yaml": CRD.replace("scope: Namespaced", "scope: Cluster"),
    "kind.yaml": CRD.replace("kind: CronTab", "kind: CronJob2"),
  });
  const scope = await runCli("check", "--old", `${dir}/old.yaml`, `${dir}/scope.yaml`);
  assert.equal(scope.code, 1);
  assert.equal(
    scope.stdout.split(`${dir}/`).join(""),
    'scope.yaml:9:10: error: crontabs.stable.example.com: spec.scope: Invalid value: "Cluster": field is immutable\n' +
      "Summary: 1 CustomResourceDefinition: 0 valid, 1 invalid, 0 other documents skipped\n",
  );
  const kind = await runCli("check", "--old", `${dir}/old.yaml`, "-o", "json", `${dir}/kind.yaml`);
  assert.deepEqual(JSON.parse(kind.stdout).results[0].errors.map((e: { message: string }) => e.message), [
    'spec.names.kind: Invalid value: "CronJob2": field is immutable',
  ]);
  assert.equal((await runCli("check", "--old", `${dir}/old.yaml`, `${dir}/old.yaml`)).code, 0);
});

test("check --old: an old CRD that carries status conditions is used as is (not Established: scope may change)", async () => {
  const notEstablished = `${CRD}status:\n  conditions:\n  - type: Established\n    status: "False"\n  storedVersions: [v1]\n`;
  const dir = tmpFiles({ "old.yaml": notEstablished, "scope.yaml": CRD.replace("scope: Namespaced", "scope: Cluster") });
  const r = await runCli("check", "--old", `${dir}/old.yaml`, `${dir}/scope.yaml`);
  assert.equal(r.code, 0, r.stdout);
});

test("check --old: a plain old file records its storage version, which must stay in spec.versions", async () => {
  const v2 = CRD.replace("  - name: v1\n    served: true\n    storage: true", "  - name: v2\n    served: true\n    storage: true");
  assert.notEqual(v2, CRD);
  const dir = tmpFiles({ "old.yaml": CRD, "new.yaml": v2 });
  const r = await runCli("check", "--old", `${dir}/old.yaml`, "-o", "json", `${dir}/new.yaml`);
  assert.equal(r.code, 1);
  assert.deepEqual(JSON.parse(r.stdout).results[0].errors.map((e: { message: string }) => e.message), [
    'status.storedVersions[0]: Invalid value: "v1": missing from spec.versions; v1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1 and removes v1 from status.storedVersions',
  ]);
});

test("--old matches the full apiVersion: the same kind and name in another group is not the old object", async () => {
  const other = CRD.replaceAll("stable.example.com", "other.example.com");
  const dir = tmpFiles({
    "crd.yaml": CRD,
    "other-crd.yaml": other,
    "old.yaml": cron("", 20).replace("stable.example.com", "other.example.com"),
    "new.yaml": cron("", 20),
  });
  const r = await runCli("validate", "--crds", `${dir}/crd.yaml`, "--crds", `${dir}/other-crd.yaml`, "--old", `${dir}/old.yaml`, "-o", "json", `${dir}/new.yaml`);
  const res = JSON.parse(r.stdout).results[0];
  assert.equal(res.operation, "create");
  assert.equal(res.errors[0].message, "spec.replicas: Invalid value: 20: spec.replicas in body should be less than or equal to 10");
  // and with the old object in the same group it is an update (ratcheting keeps replicas 20)
  const same = await runCli("validate", "--crds", `${dir}/crd.yaml`, "--crds", `${dir}/other-crd.yaml`, "--old", `${dir}/new.yaml`, "-o", "json", `${dir}/new.yaml`);
  assert.equal(JSON.parse(same.stdout).results[0].operation, "update");
  assert.deepEqual(JSON.parse(same.stdout).results[0].errors, []);
});
