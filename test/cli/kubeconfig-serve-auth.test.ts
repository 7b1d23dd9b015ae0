/**
 * `--kubeconfig` against `crdkit serve` with TLS, client-certificate authentication and RBAC, using the
 * kubeconfig the server writes (`--write-kubeconfig`): the CA and the admin certificate are honoured.
 */
import * as assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { readKubeconfig } from "../../src/cli/kubeconfig.js";
import { spawnServerWith, stopChild } from "../server/client.js";
import { runCli } from "./helpers.js";

function post(kc: string, path: string, body: string): Promise<number> {
  const a = readKubeconfig(kc);
  return new Promise((resolve, reject) => {
    const req = request(
      a.server + path,
      { method: "POST", headers: { "Content-Type": "application/yaml" }, ...(a.ca ? { ca: a.ca } : {}), ...(a.cert ? { cert: a.cert } : {}), ...(a.key ? { key: a.key } : {}) },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

test("--kubeconfig with the kubeconfig written by a TLS + RBAC crdkit serve", async () => {
  const dir = mkdtempSync(join(tmpdir(), "crdkit-auth-"));
  const kc = join(dir, "kubeconfig");
  // Bounded start; the server is killed on exit even if the test process ends without this finally.
  const { child } = await spawnServerWith(["--data", dir, "--authorization-mode=RBAC", "--anonymous-auth=false", "--write-kubeconfig", kc]);
  try {
    const crd = readFileSync("examples/crontab-crd.yaml", "utf8").replace("maximum: 10", "maximum: 3");
    assert.equal(await post(kc, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd), 201);
    writeFileSync(join(dir, "five.yaml"), "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: a\nspec:\n  image: x\n  replicas: 5\n");
    const r = await runCli("validate", "--kubeconfig", kc, join(dir, "five.yaml"));
    assert.equal(r.stderr, "");
    assert.equal(r.code, 1);
    assert.match(r.stdout, /spec\.replicas: Invalid value: 5: spec\.replicas in body should be less than or equal to 3/);
    // without credentials the server refuses the list: a clear exit 2
    const cfg = readFileSync(kc, "utf8").replace(/\n\s*client-(certificate|key)-data: .*/g, "");
    writeFileSync(join(dir, "anonymous"), cfg);
    const anon = await runCli("validate", "--kubeconfig", join(dir, "anonymous"), join(dir, "five.yaml"));
    assert.equal(anon.code, 2);
    assert.match(anon.stderr, /^crdkit validate: cannot read the CRDs of cluster https:\/\/127\.0\.0\.1:\d+ \(context [^)]*\): Unauthorized\n$/);
  } finally {
    await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
  }
});
