/**
 * `--kubeconfig PATH [--context C]`: CRDs read from a live cluster (`crdkit serve` started here on a free
 * loopback port); local CRD files override cluster ones; credentials are sent; failures are exit 2.
 */
import * as assert from "node:assert/strict";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { type IncomingHttpHeaders, createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { fetchClusterCrds } from "../../src/cli/cluster-crds.js";
import { readKubeconfig } from "../../src/cli/kubeconfig.js";
import { decodeDocuments } from "../../src/io/decode.js";
import { type RunningServer, startServer } from "../../src/server/server.js";
import { goJsonMarshal } from "../../src/go/json.js";
import type { JsonValue } from "../../src/value/json-value.js";
import { api } from "../server/client.js";
import { runCli, tmpFiles } from "./helpers.js";

const CRD = readFileSync("examples/crontab-crd.yaml", "utf8");
const cron = (replicas: number) =>
  `apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: a\nspec:\n  image: x\n  replicas: ${replicas}\n`;

let server: RunningServer;
let dir: string;

function kubeconfig(serverUrl: string, user = "{}"): string {
  return [
    "apiVersion: v1",
    "kind: Config",
    "clusters:",
    `- cluster: {server: "${serverUrl}"}`,
    "  name: crdkit",
    "- cluster: {server: \"http://127.0.0.1:1\"}",
    "  name: nowhere",
    "contexts:",
    "- context: {cluster: crdkit, user: me}",
    "  name: live",
    "- context: {cluster: nowhere, user: me}",
    "  name: down",
    "current-context: live",
    "users:",
    "- name: me",
    `  user: ${user}`,
    "",
  ].join("\n");
}

before(async () => {
  server = await startServer({ port: 0 });
  // the cluster's CronTab allows at most 3 replicas
  const crd = decodeDocuments(CRD.replace("maximum: 10", "maximum: 3"))[0]!.value as JsonValue;
  const res = await api(server.url, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", goJsonMarshal(crd));
  assert.equal(res.status, 201, res.text);
  dir = tmpFiles({ kubeconfig: kubeconfig(server.url), "crd.yaml": CRD, "five.yaml": cron(5), "two.yaml": cron(2) });
});

after(async () => {
  await server.close();
});

test("--kubeconfig: custom resources are validated against the cluster's CRDs", async () => {
  const r = await runCli("validate", "--kubeconfig", `${dir}/kubeconfig`, `${dir}/five.yaml`, `${dir}/two.yaml`);
  assert.equal(r.code, 1, r.stderr);
  assert.equal(
    r.stdout.split(`${dir}/`).join(""),
    "five.yaml:7:13: spec.replicas: Invalid value: 5: spec.replicas in body should be less than or equal to 3\n" +
      "Summary: 2 resources: 1 valid, 1 invalid, 0 skipped\n",
  );
  assert.equal(r.stderr, "");
});

test("--kubeconfig: a local CRD file overrides the cluster's CRD of the same name (no warning)", async () => {
  const r = await runCli("validate", "--kubeconfig", `${dir}/kubeconfig`, "--crds", `${dir}/crd.yaml`, `${dir}/five.yaml`);
  assert.equal(r.code, 0, r.stdout);
  assert.equal(r.stderr, "");
});

test("--kubeconfig: the bearer token is sent; an error answer is exit 2 with the server's message", async () => {
  const seen: IncomingHttpHeaders[] = [];
  // a proxy in front of crdkit serve that records headers and refuses requests without the token
  const proxy = createServer((req, res) => {
    seen.push(req.headers);
    if (req.headers.authorization !== "Bearer s3cret") {
      res.writeHead(401, { "Content-Type": "application/json" });
      res.end('{"kind":"Status","apiVersion":"v1","status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}');
      return;
    }
    const up = request(server.url + (req.url ?? "/"), { method: req.method, headers: { accept: "application/json" } }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.end();
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  try {
    const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const good = tmpFiles({ kubeconfig: kubeconfig(url, "{token: s3cret}") });
    const r = await runCli("validate", "--kubeconfig", `${good}/kubeconfig`, `${dir}/five.yaml`);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /less than or equal to 3/);
    assert.equal(seen.at(-1)?.authorization, "Bearer s3cret");
    assert.match(seen.at(-1)?.["user-agent"] ?? "", /^crdkit/);
    writeFileSync(`${good}/token`, "s3cret\n");
    const fromFile = tmpFiles({ kubeconfig: kubeconfig(url, `{tokenFile: ${good}/token}`) });
    assert.equal((await runCli("validate", "--kubeconfig", `${fromFile}/kubeconfig`, `${dir}/five.yaml`)).code, 1);
    // an exec credential plugin (relative to the kubeconfig's folder) that prints the token
    const plugin = tmpFiles({
      "plugin.mjs": [
        "#!/usr/bin/env node",
        "const info = JSON.parse(process.env.KUBERNETES_EXEC_INFO);",
        "if (info.spec.interactive !== false || process.env.EXTRA !== 'x') process.exit(3);",
        "console.log(JSON.stringify({ kind: 'ExecCredential', apiVersion: info.apiVersion, status: { token: process.argv[2] } }));",
        "",
      ].join("\n"),
    });
    chmodSync(`${plugin}/plugin.mjs`, 0o755);
    writeFileSync(
      `${plugin}/kubeconfig`,
      kubeconfig(url, "{exec: {apiVersion: client.authentication.k8s.io/v1, command: ./plugin.mjs, args: [s3cret], env: [{name: EXTRA, value: x}]}}"),
    );
    const viaExec = await runCli("validate", "--kubeconfig", `${plugin}/kubeconfig`, `${dir}/five.yaml`);
    assert.equal(viaExec.code, 1, viaExec.stderr);
    assert.equal(seen.at(-1)?.authorization, "Bearer s3cret");
    const wrong = tmpFiles({ kubeconfig: kubeconfig(url, "{token: nope}") });
    const w = await runCli("validate", "--kubeconfig", `${wrong}/kubeconfig`, `${dir}/five.yaml`);
    assert.equal(w.code, 2);
    assert.equal(w.stderr, `crdkit validate: cannot read the CRDs of cluster ${url} (context live): Unauthorized\n`);
  } finally {
    await new Promise((resolve) => proxy.close(resolve));
  }
});

test("--kubeconfig problems are exit 2 with a clear message", async () => {
  const unknown = await runCli("validate", "--kubeconfig", `${dir}/kubeconfig`, "--context", "nope", `${dir}/five.yaml`);
  assert.equal(unknown.code, 2);
  assert.equal(unknown.stderr, `crdkit validate: kubeconfig ${dir}/kubeconfig: context "nope" not found\n`);
  const down = await runCli("validate", "--kubeconfig", `${dir}/kubeconfig`, "--context", "down", `${dir}/five.yaml`);
  assert.equal(down.code, 2);
  assert.match(down.stderr, /^crdkit validate: cannot read the CRDs of cluster http:\/\/127\.0\.0\.1:1 \(context down\): connect ECONNREFUSED/);
  const missing = await runCli("validate", "--kubeconfig", `${dir}/missing`, `${dir}/five.yaml`);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /^crdkit validate: cannot read kubeconfig .*missing: ENOENT/);
  const noConfig = await runCli("validate", "--context", "live", `${dir}/five.yaml`);
  assert.equal(noConfig.code, 2);
  assert.match(noConfig.stderr, /^crdkit validate: flag --context needs --kubeconfig\n/);
  const legacy = tmpFiles({ kubeconfig: kubeconfig(server.url, "{auth-provider: {name: gcp}}") });
  const l = await runCli("validate", "--kubeconfig", `${legacy}/kubeconfig`, `${dir}/five.yaml`);
  assert.equal(l.code, 2);
  assert.match(l.stderr, /uses an auth-provider plugin, which crdkit does not run/);
  const exec = tmpFiles({ kubeconfig: kubeconfig(server.url, "{exec: {apiVersion: client.authentication.k8s.io/v1, command: ./no-such-plugin}}") });
  const e = await runCli("validate", "--kubeconfig", `${exec}/kubeconfig`, `${dir}/five.yaml`);
  assert.equal(e.code, 2);
  assert.match(e.stderr, /^crdkit validate: kubeconfig .*: user "me": exec plugin \.\/no-such-plugin failed: .*ENOENT/);
});

test("readKubeconfig: client certificate, CA and basic credentials; relative paths from the kubeconfig's folder", () => {
  const d = tmpFiles({
    "ca.crt": "CA",
    "kc": [
      "clusters:",
      "- name: c",
      "  cluster: {server: \"https://k8s.example:6443/\", certificate-authority: ca.crt, tls-server-name: api}",
      "contexts: [{name: x, context: {cluster: c, user: u}}]",
      "current-context: x",
      "users:",
      `- name: u`,
      `  user: {client-certificate-data: ${Buffer.from("CERT").toString("base64")}, client-key-data: ${Buffer.from("KEY").toString("base64")}, username: bob, password: pw}`,
      "",
    ].join("\n"),
  });
  const a = readKubeconfig(`${d}/kc`);
  assert.equal(a.server, "https://k8s.example:6443");
  assert.equal(a.ca?.toString(), "CA");
  assert.equal(a.cert?.toString(), "CERT");
  assert.equal(a.key?.toString(), "KEY");
  assert.equal(a.tlsServerName, "api");
  assert.equal(a.username, "bob");
  assert.equal(a.password, "pw");
  assert.equal(a.insecureSkipTlsVerify, false);
});

test("fetchClusterCrds pages through the list with limit and continue", async () => {
  const second = decodeDocuments(
    CRD.replaceAll("crontabs", "crontwos").replace("kind: CronTab", "kind: CronTwo").replace("singular: crontab", "singular: crontwo").replace("- ct\n", "- c2\n"),
  )[0]!.value as JsonValue;
  const res = await api(server.url, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", goJsonMarshal(second));
  assert.equal(res.status, 201, res.text);
  const access = readKubeconfig(`${dir}/kubeconfig`);
  const names = (crds: { value: JsonValue }[]) => crds.map((c) => ((c.value as { metadata: { name: string } }).metadata.name)).sort();
  const want = ["crontabs.stable.example.com", "crontwos.stable.example.com"];
  assert.deepEqual(names(await fetchClusterCrds(access, 1)), want);
  assert.deepEqual(names(await fetchClusterCrds(access)), want);
});
