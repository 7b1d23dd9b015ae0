/**
 * `crdkit serve --write-kubeconfig FILE` with authentication on: kubectl uses the file as is; the CA
 * generated into DIR/pki is reused on restart (old kubeconfigs keep working); `--anonymous-auth=true`
 * lets unauthenticated clients read only what `system:public-info-viewer` allows; flag errors.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { runServe } from "../../src/cli/serve.js";
import { listeningUrl } from "../server/listening.js";
import { FIXTURES, findKubectl, type KubectlResult } from "./harness.js";

const kubectl = findKubectl();

function kc(dir: string, kubeconfig: string, args: string[]): Promise<KubectlResult> {
  return new Promise((resolve) => {
    execFile(
      kubectl ?? "kubectl",
      ["--cache-dir", join(dir, "cache"), ...args],
      { env: { PATH: process.env["PATH"] ?? "", HOME: dir, KUBECONFIG: kubeconfig }, cwd: FIXTURES, timeout: 60_000 },
      (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout: stdout.toString(), stderr: stderr.toString() }),
    );
  });
}

function get(url: string, ca: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ca }, (res) => {
      let body = "";
      res.on("data", (d: Buffer) => {
        body += d.toString();
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

async function serve(args: string[]): Promise<{ url: string; stop: () => Promise<number>; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const ac = new AbortController();
  const done = runServe(args, { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t) }, ac.signal);
  let url: string;
  try {
    url = await listeningUrl(out, done, err);
  } catch (e) {
    ac.abort();
    throw e;
  }
  return {
    url,
    err,
    stop: () => {
      ac.abort();
      return done;
    },
  };
}

describe("crdkit serve --write-kubeconfig", { skip: kubectl ? false : "kubectl not on PATH", timeout: 300_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), "crdkit-kubeconfig-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const data = join(dir, "data");
  const file = join(dir, "kubeconfig");

  it("writes a kubeconfig kubectl uses as is; the CA is reused on restart", async () => {
    const args = ["--listen", "127.0.0.1:0", "--data", data, "--authorization-mode=RBAC", "--anonymous-auth=true", "--write-kubeconfig", file];
    const s1 = await serve(args);
    assert.match(s1.url, /^https:/);
    const first = JSON.parse(s1.err[0]!.trim());
    assert.equal(first.summary, "TLS, client certificates, anonymous allowed, authorization RBAC");
    const crd = await kc(dir, file, ["apply", "-f", "crd.yaml"]);
    assert.equal(crd.stdout, "customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created\n", crd.stderr);
    const ca = readFileSync(join(data, "pki", "ca.crt"), "utf8");
    // Anonymous: public info yes, discovery no (system:public-info-viewer only).
    const v = await get(`${s1.url}/version`, ca);
    assert.equal(v.status, 200);
    const apis = await get(`${s1.url}/apis`, ca);
    assert.equal(apis.status, 403);
    assert.deepEqual(JSON.parse(apis.body), {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: 'forbidden: User "system:anonymous" cannot get path "/apis"',
      reason: "Forbidden",
      details: {},
      code: 403,
    });
    const oldConfig = readFileSync(file, "utf8");
    assert.equal(await s1.stop(), 0);

    const s2 = await serve(args.slice(0, -2));
    assert.equal(readFileSync(join(data, "pki", "ca.crt"), "utf8"), ca);
    // The first kubeconfig (server URL aside: the port is new) still authenticates and verifies.
    const { writeFileSync } = await import("node:fs");
    const moved = join(dir, "kubeconfig-old");
    writeFileSync(moved, oldConfig.replace(/server: https:\/\/127\.0\.0\.1:\d+/, `server: ${s2.url}`));
    const crds = await kc(dir, moved, ["get", "crds", "-o", "name"]);
    assert.equal(crds.stdout, "customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com\n", crds.stderr);
    assert.equal(await s2.stop(), 0);
  });

  it("an open loopback server's kubeconfig (plain HTTP, no credential) works too", async () => {
    const open = join(dir, "kubeconfig-open");
    const s = await serve(["--listen", "127.0.0.1:0", "--write-kubeconfig", open]);
    assert.match(s.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const text = readFileSync(open, "utf8");
    assert.doesNotMatch(text, /certificate-authority-data|client-key-data/);
    const r = await kc(dir, open, ["auth", "whoami"]);
    assert.match(r.stdout, /Username\s+system:unsecured\nGroups\s+\[system:masters system:authenticated\]/, r.stderr);
    assert.equal(await s.stop(), 0);
  });

  it("refuses bad security flags", async () => {
    const cases: [string[], number, string][] = [
      [["--authorization-mode=ABAC"], 2, 'crdkit serve: authorization-mode "ABAC" is not supported: want AlwaysAllow or RBAC'],
      [["--anonymous-auth=maybe"], 2, 'crdkit serve: invalid argument "maybe" for "--anonymous-auth" flag: want true or false'],
      [["--listen", "127.0.0.1:0", "--token-auth-file", join(dir, "missing.csv")], 1, `crdkit serve: token file '${join(dir, "missing.csv")}': ENOENT`],
      [["--listen", "127.0.0.1:0", "--tls-cert-file", join(dir, "x.crt")], 1, "crdkit serve: --tls-cert-file and --tls-private-key-file must be given together"],
    ];
    for (const [args, code, msg] of cases) {
      const err: string[] = [];
      assert.equal(await runServe(args, { stdout: () => {}, stderr: (t) => void err.push(t) }), code, args.join(" "));
      assert.ok(err.join("").startsWith(msg), `${args.join(" ")}: ${err.join("")}`);
    }
  });
});
