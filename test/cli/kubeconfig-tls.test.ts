/**
 * `--kubeconfig` over HTTPS: the cluster's CA verifies the server, the client certificate authenticates
 * the user (an HTTPS front requiring client certificates, in front of `crdkit serve`). Certificates are
 * made with the openssl command for this test; without openssl the test is skipped.
 */
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import type { TLSSocket } from "node:tls";
import { test } from "node:test";
import { decodeDocuments } from "../../src/io/decode.js";
import { startServer } from "../../src/server/server.js";
import { goJsonMarshal } from "../../src/go/json.js";
import type { JsonValue } from "../../src/value/json-value.js";
import { api } from "../server/client.js";
import { runCli, tmpFiles } from "./helpers.js";

function hasOpenssl(): boolean {
  try {
    execFileSync("openssl", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

function makeCerts(dir: string): void {
  const ssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "ignore" });
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  ssl("req", "-x509", ...ec, "-keyout", "ca.key", "-out", "ca.crt", "-days", "2", "-subj", "/CN=crdkit-test-ca");
  writeFileSync(`${dir}/server.ext`, "subjectAltName=IP:127.0.0.1\n");
  for (const [name, cn, ext] of [["server", "127.0.0.1", "server.ext"], ["client", "crdkit-user", ""]] as const) {
    ssl("req", ...ec, "-keyout", `${name}.key`, "-out", `${name}.csr`, "-subj", `/CN=${cn}`);
    ssl("x509", "-req", "-in", `${name}.csr`, "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-out", `${name}.crt`, "-days", "2", ...(ext ? ["-extfile", ext] : []));
  }
}

test("--kubeconfig over HTTPS with the cluster CA and a client certificate", { skip: hasOpenssl() ? false : "no openssl" }, async () => {
  const dir = tmpFiles({});
  makeCerts(dir);
  const backend = await startServer({ port: 0 });
  const crd = decodeDocuments(readFileSync("examples/crontab-crd.yaml", "utf8").replace("maximum: 10", "maximum: 3"))[0]!.value as JsonValue;
  assert.equal((await api(backend.url, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", goJsonMarshal(crd))).status, 201);
  const users: string[] = [];
  const front = createServer(
    { key: readFileSync(`${dir}/server.key`), cert: readFileSync(`${dir}/server.crt`), ca: readFileSync(`${dir}/ca.crt`), requestCert: true, rejectUnauthorized: true },
    (req, res) => {
      users.push(String((req.socket as TLSSocket).getPeerCertificate().subject?.CN));
      const up = request(backend.url + (req.url ?? "/"), { method: req.method, headers: { accept: "application/json" } }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      });
      up.end();
    },
  );
  await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
  try {
    const url = `https://127.0.0.1:${(front.address() as AddressInfo).port}`;
    const b64 = (f: string) => readFileSync(`${dir}/${f}`).toString("base64");
    const config = (cluster: string) =>
      [
        "apiVersion: v1",
        "kind: Config",
        `clusters: [{name: c, cluster: {server: "${url}", ${cluster}}}]`,
        "contexts: [{name: x, context: {cluster: c, user: u}}]",
        "current-context: x",
        // the key as a file relative to the kubeconfig, the certificate inline
        `users: [{name: u, user: {client-certificate-data: ${b64("client.crt")}, client-key: client.key}}]`,
        "",
      ].join("\n");
    writeFileSync(`${dir}/kubeconfig`, config("certificate-authority: ca.crt"));
    writeFileSync(`${dir}/no-ca`, config("tls-server-name: 127.0.0.1"));
    writeFileSync(`${dir}/five.yaml`, "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: a\nspec:\n  image: x\n  replicas: 5\n");
    const r = await runCli("validate", "--kubeconfig", `${dir}/kubeconfig`, `${dir}/five.yaml`);
    assert.equal(r.stderr, "");
    assert.equal(r.code, 1);
    assert.match(r.stdout, /spec\.replicas: Invalid value: 5: spec\.replicas in body should be less than or equal to 3/);
    assert.deepEqual(users, ["crdkit-user"]);
    // without the cluster's CA the server is not trusted
    const untrusted = await runCli("validate", "--kubeconfig", `${dir}/no-ca`, `${dir}/five.yaml`);
    assert.equal(untrusted.code, 2);
    assert.match(untrusted.stderr, /^crdkit validate: cannot read the CRDs of cluster https:\/\/127\.0\.0\.1:\d+ \(context x\): .*certificate/);
  } finally {
    await new Promise((resolve) => front.close(resolve));
    await backend.close();
  }
});
