/**
 * TLS, authentication and RBAC of `crdkit serve` driven by the real kubectl: tokens, client certificates
 * (a CA made here), TLS verification, anonymous requests refused, 403 texts, `kubectl auth can-i/whoami`,
 * `kubectl create role|rolebinding`, and the kubeconfig `--write-kubeconfig` writes used as is.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { stringify } from "yaml";
import { kubeconfigFor } from "../../src/server/auth/kubeconfig.js";
import { generateCa, generateClientCert, type KeyPair } from "../../src/server/auth/pki.js";
import { type RunningServer, startServer } from "../../src/server/server.js";
import { EtcdStore } from "../../src/storage/etcd/etcd-store.js";
import { EtcdProcess } from "../storage/etcd-process.js";
import { FIXTURES, findKubectl, type KubectlResult } from "./harness.js";

const kubectl = findKubectl();

function run(dir: string, kubeconfig: string, args: string[]): Promise<KubectlResult> {
  return new Promise((resolve) => {
    execFile(
      kubectl ?? "kubectl",
      ["--kubeconfig", kubeconfig, "--cache-dir", join(dir, "cache"), ...args],
      { env: { PATH: process.env["PATH"] ?? "", HOME: dir }, cwd: FIXTURES, timeout: 60_000 },
      (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout: stdout.toString(), stderr: stderr.toString() }),
    );
  });
}

/** A kubeconfig for `server` trusting `caPem`, with a token or a client certificate (or nothing). */
function kubeconfig(dir: string, name: string, server: string, caPem: string, user: { token?: string; cert?: KeyPair }): string {
  const u: Record<string, string> = {};
  if (user.token) u["token"] = user.token;
  if (user.cert) {
    u["client-certificate-data"] = Buffer.from(user.cert.cert).toString("base64");
    u["client-key-data"] = Buffer.from(user.cert.key).toString("base64");
  }
  const file = join(dir, `kubeconfig-${name}`);
  writeFileSync(
    file,
    stringify({
      apiVersion: "v1",
      kind: "Config",
      clusters: [{ name: "c", cluster: { server, "certificate-authority-data": Buffer.from(caPem).toString("base64") } }],
      contexts: [{ name: "c", context: { cluster: "c", user: name, namespace: "default" } }],
      "current-context": "c",
      users: [{ name, user: u }],
    }),
  );
  return file;
}

/** One HTTPS request without credentials: status and body. */
function rawGet(url: string, ca: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ca, method: "GET" }, (res) => {
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

describe("kubectl with TLS, authentication and RBAC", { skip: kubectl ? false : "kubectl not on PATH", timeout: 300_000 }, () => {
  let dir: string;
  let server: RunningServer;
  let ca: string;
  let admin: string;
  let alice: string;
  let userCa: KeyPair;
  let etcd: EtcdProcess | undefined;
  const k = (kc: string, args: string[]) => run(dir, kc, args);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "crdkit-auth-"));
    writeFileSync(join(dir, "tokens.csv"), 'alicetok,alice,1001,"dev,qa"\n');
    userCa = await generateCa("test-user-ca");
    writeFileSync(join(dir, "user-ca.crt"), userCa.cert);
    // CRDKIT_E2E_BACKEND=etcd: the same suite with the store (and so the RBAC policy) in etcd.
    if (process.env["CRDKIT_E2E_BACKEND"] === "etcd") etcd = await EtcdProcess.start();
    server = await startServer({
      dataDir: join(dir, "data"),
      ...(etcd ? { store: new EtcdStore({ servers: [etcd.url] }) } : {}),
      security: { tokenAuthFile: join(dir, "tokens.csv"), clientCaFile: join(dir, "user-ca.crt"), authorizationMode: "RBAC" },
    });
    ca = server.security.trustedCa!;
    admin = join(dir, "kubeconfig-admin");
    writeFileSync(admin, await kubeconfigFor(server.url, server.security));
    alice = kubeconfig(dir, "alice", server.url, ca, { token: "alicetok" });
  });
  after(async () => {
    await server?.close();
    await etcd?.cleanup();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("the generated kubeconfig is an administrator (system:masters) over verified TLS", async () => {
    assert.match(server.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    const who = await k(admin, ["auth", "whoami"]);
    assert.equal(who.code, 0, who.stderr);
    assert.match(who.stdout, /Username\s+crdkit-admin\nGroups\s+\[system:masters system:authenticated\]/);
    const crd = await k(admin, ["apply", "-f", "crd.yaml"]);
    assert.equal(crd.stdout, "customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created\n", crd.stderr);
  });

  it("requests without valid credentials get 401 Unauthorized", async () => {
    const r = await rawGet(`${server.url}/apis`, ca);
    assert.equal(r.status, 401);
    assert.deepEqual(JSON.parse(r.body), { kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message: "Unauthorized", reason: "Unauthorized", code: 401 });
    const bad = await k(kubeconfig(dir, "bad", server.url, ca, { token: "nope" }), ["get", "crontabs"]);
    assert.equal(bad.code, 1);
    // kubectl's text for a 401 Status.
    assert.equal(bad.stderr.trim().split("\n").pop(), "error: You must be logged in to the server (the server has asked for the client to provide credentials)");
  });

  it("TLS is verified: a kubeconfig trusting another CA fails", async () => {
    const r = await k(kubeconfig(dir, "wrongca", server.url, userCa.cert, { token: "alicetok" }), ["get", "crontabs"]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /x509: certificate signed by unknown authority/);
  });

  it("RBAC denies with Kubernetes' 403 texts", async () => {
    const cases: [string[], string][] = [
      [["get", "crontabs"], 'crontabs.stable.example.com is forbidden: User "alice" cannot list resource "crontabs" in API group "stable.example.com" in the namespace "default"'],
      [["get", "crds"], 'customresourcedefinitions.apiextensions.k8s.io is forbidden: User "alice" cannot list resource "customresourcedefinitions" in API group "apiextensions.k8s.io" at the cluster scope'],
      [["get", "crontab", "my-cron"], 'crontabs.stable.example.com "my-cron" is forbidden: User "alice" cannot get resource "crontabs" in API group "stable.example.com" in the namespace "default"'],
      [["get", "--raw", "/metrics"], 'forbidden: User "alice" cannot get path "/metrics"'],
    ];
    for (const [args, msg] of cases) {
      const r = await k(alice, args);
      assert.equal(r.code, 1, args.join(" "));
      assert.equal(r.stderr.trim().split("\n").pop(), `Error from server (Forbidden): ${msg}`, args.join(" "));
    }
    // Discovery and /version are readable by every authenticated user (system:discovery).
    const v = await k(alice, ["get", "--raw", "/version"]);
    assert.equal(v.code, 0, v.stderr);
  });

  it("kubectl create role/rolebinding grant access; auth can-i answers; subresources are separate", async () => {
    for (const args of [
      ["create", "role", "crontab-editor", "--verb=get,list,create", "--resource=crontabs.stable.example.com"],
      ["create", "rolebinding", "alice-edits", "--role=crontab-editor", "--user=alice"],
    ]) {
      const r = await k(admin, args);
      assert.equal(r.code, 0, r.stderr);
    }
    const roles = await k(admin, ["get", "rolebindings", "-o", "wide"]);
    assert.match(roles.stdout, /^alice-edits\s+Role\/crontab-editor\s+\S+\s+alice\s*$/m);
    const created = await k(alice, ["create", "-f", "cr.yaml"]);
    assert.equal(created.stdout, "crontab.stable.example.com/my-cron created\n", created.stderr);
    const yes = await k(alice, ["auth", "can-i", "create", "crontabs.stable.example.com"]);
    assert.deepEqual([yes.code, yes.stdout], [0, "yes\n"]);
    const no = await k(alice, ["auth", "can-i", "delete", "crontabs.stable.example.com"]);
    assert.deepEqual([no.code, no.stdout], [1, "no\n"]);
    const del = await k(alice, ["delete", "crontab", "my-cron"]);
    assert.equal(
      del.stderr.trim(),
      'Error from server (Forbidden): crontabs.stable.example.com "my-cron" is forbidden: User "alice" cannot delete resource "crontabs" in API group "stable.example.com" in the namespace "default"',
    );
    // kubectl patch reads the object through the subresource first.
    const status = await k(alice, ["patch", "crontab", "my-cron", "--subresource=status", "--type=merge", "-p", '{"status":{"replicas":2}}']);
    assert.equal(
      status.stderr.trim(),
      'Error from server (Forbidden): crontabs.stable.example.com "my-cron" is forbidden: User "alice" cannot get resource "crontabs/status" in API group "stable.example.com" in the namespace "default"',
    );
    const other = await k(alice, ["get", "crontabs", "-n", "other"]);
    assert.match(other.stderr, /cannot list resource "crontabs" in API group "stable.example.com" in the namespace "other"/);
  });

  it("RBAC escalation prevention: roles and bindings grant only what the user holds (or escalate/bind)", async () => {
    for (const args of [
      ["create", "role", "rbac-manager", "--verb=create", "--resource=roles.rbac.authorization.k8s.io,rolebindings.rbac.authorization.k8s.io"],
      ["create", "rolebinding", "alice-rbac", "--role=rbac-manager", "--user=alice"],
    ]) {
      const r = await k(admin, args);
      assert.equal(r.code, 0, r.stderr);
    }
    const groups = '(groups=["dev" "qa" "system:authenticated"])';
    const tooMuch = await k(alice, ["create", "role", "too-much", "--verb=get,delete", "--resource=crontabs.stable.example.com"]);
    assert.equal(
      tooMuch.stderr.trim(),
      `Error from server (Forbidden): roles.rbac.authorization.k8s.io "too-much" is forbidden: user "alice" ${groups} is attempting to grant RBAC permissions not currently held:\n{APIGroups:["stable.example.com"], Resources:["crontabs"], Verbs:["delete"]}`,
    );
    const held = await k(alice, ["create", "role", "reader", "--verb=get,list", "--resource=crontabs.stable.example.com"]);
    assert.equal(held.stdout, "role.rbac.authorization.k8s.io/reader created\n", held.stderr);
    const grab = await k(alice, ["create", "rolebinding", "grab", "--clusterrole=cluster-admin", "--user=alice"]);
    assert.equal(
      grab.stderr.trim(),
      `error: failed to create rolebinding: rolebindings.rbac.authorization.k8s.io "grab" is forbidden: user "alice" ${groups} is attempting to grant RBAC permissions not currently held:\n{APIGroups:["*"], Resources:["*"], Verbs:["*"]}\n{NonResourceURLs:["*"], Verbs:["*"]}`,
    );
    const missing = await k(alice, ["create", "rolebinding", "dangling", "--role=nope", "--user=alice"]);
    assert.match(missing.stderr, /rolebindings.rbac.authorization.k8s.io "dangling" is forbidden: roles.rbac.authorization.k8s.io "nope" not found/);
    // Binding what she holds is allowed; the admin (system:masters) may bind anything.
    const ok = await k(alice, ["create", "rolebinding", "share", "--role=reader", "--group=qa"]);
    assert.equal(ok.code, 0, ok.stderr);
  });

  it("kubectl apply (strategic merge patch), label and get of RBAC objects", async () => {
    const first = await k(admin, ["apply", "-f", "rbac.yaml"]);
    assert.equal(first.stdout, "role.rbac.authorization.k8s.io/crontab-reader created\nrolebinding.rbac.authorization.k8s.io/crontab-readers created\n", first.stderr);
    const again = await k(admin, ["apply", "-f", "rbac.yaml"]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /^role.rbac.authorization.k8s.io\/crontab-reader unchanged\n/);
    const label = await k(admin, ["label", "role", "crontab-reader", "team=qa"]);
    assert.equal(label.stdout, "role.rbac.authorization.k8s.io/crontab-reader labeled\n", label.stderr);
    const got = await k(admin, ["get", "role", "crontab-reader", "-o", "jsonpath={.metadata.labels.team} {.rules[0].verbs}"]);
    assert.equal(got.stdout, 'qa ["get","list","watch"]');
    const qa = kubeconfig(dir, "qa-user", server.url, ca, { cert: await generateClientCert(userCa, "quinn", ["qa"]) });
    const list = await k(qa, ["get", "crontabs", "-o", "name"]);
    assert.equal(list.code, 0, list.stderr);
  });

  it("impersonation (--as, --as-group) is authorized as the impersonate verb", async () => {
    const yes = await k(admin, ["auth", "can-i", "create", "crontabs.stable.example.com", "--as=alice"]);
    assert.deepEqual([yes.code, yes.stdout], [0, "yes\n"]);
    const no = await k(admin, ["auth", "can-i", "delete", "crontabs.stable.example.com", "--as=alice"]);
    assert.deepEqual([no.code, no.stdout], [1, "no\n"]);
    const list = await k(alice, ["auth", "can-i", "--list"]);
    // SelfSubjectRulesReview: alice's RBAC rules (two bindings on crontabs) and the default discovery rules.
    assert.match(list.stdout, /^crontabs\.stable\.example\.com\s+\[\]\s+\[\]\s+\[get list create watch\]$/m, list.stderr);
    assert.match(list.stdout, /^selfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]$/m);
    assert.match(list.stdout, /^\s+\[\/version\]\s+\[\]\s+\[get\]$/m);
    const who = await k(admin, ["auth", "whoami", "--as=carol", "--as-group=ops"]);
    assert.match(who.stdout, /Username\s+carol\nGroups\s+\[ops system:authenticated\]/, who.stderr);
    const denied = await k(alice, ["get", "crontabs", "--as=bob"]);
    assert.equal(
      denied.stderr.trim(),
      'Error from server (Forbidden): users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope',
    );
  });

  it("client certificates from --client-ca-file authenticate (CN user, O groups); others are refused", async () => {
    const bob = kubeconfig(dir, "bob", server.url, ca, { cert: await generateClientCert(userCa, "bob", ["ops"]) });
    const who = await k(bob, ["auth", "whoami"]);
    assert.match(who.stdout, /Username\s+bob\nGroups\s+\[ops system:authenticated\]/, who.stderr);
    const denied = await k(bob, ["get", "crontabs"]);
    assert.match(denied.stderr, /User "bob" cannot list resource "crontabs"/);
    const bind = await k(admin, ["create", "clusterrolebinding", "ops-view", "--clusterrole=crontab-viewer", "--group=ops"]);
    assert.equal(bind.code, 0, bind.stderr);
    const role = await k(admin, ["create", "clusterrole", "crontab-viewer", "--verb=list", "--resource=crontabs.stable.example.com"]);
    assert.equal(role.code, 0, role.stderr);
    const ok = await k(bob, ["get", "crontabs", "-o", "name"]);
    assert.equal(ok.stdout, "crontab.stable.example.com/my-cron\n", ok.stderr);
    // Aggregation: a ClusterRole selecting labelled ClusterRoles gets their rules.
    const agg = await k(admin, ["create", "clusterrole", "aggregated", "--aggregation-rule=team=qa"]);
    assert.equal(agg.code, 0, agg.stderr);
    assert.equal((await k(admin, ["label", "clusterrole", "crontab-viewer", "team=qa"])).code, 0);
    let rules = "";
    for (let i = 0; i < 50 && rules === ""; i++) {
      rules = (await k(admin, ["get", "clusterrole", "aggregated", "-o", "jsonpath={.rules[*].resources}"])).stdout;
    }
    assert.equal(rules, '["crontabs"]');
    // The bootstrap `edit` role aggregates CRD roles labelled aggregate-to-edit; `admin` includes `edit`.
    const label = await k(admin, ["label", "clusterrole", "crontab-viewer", "rbac.authorization.k8s.io/aggregate-to-edit=true"]);
    assert.equal(label.code, 0, label.stderr);
    let adminRules = "";
    for (let i = 0; i < 50 && !adminRules.startsWith('["crontabs"]'); i++) {
      adminRules = (await k(admin, ["get", "clusterrole", "admin", "-o", "jsonpath={.rules[*].resources}"])).stdout;
    }
    // By role name: edit's (crontabs), then system:aggregate-to-admin's.
    assert.equal(adminRules, '["crontabs"] ["localsubjectaccessreviews"] ["roles","rolebindings"]');
    const rogueCa = await generateCa("rogue");
    const eve = kubeconfig(dir, "eve", server.url, ca, { cert: await generateClientCert(rogueCa, "eve", ["system:masters"]) });
    const r = await k(eve, ["get", "crontabs"]);
    assert.equal(r.code, 1);
    assert.doesNotMatch(r.stdout, /my-cron/);
    assert.match(r.stderr, /You must be logged in to the server/);
  });
});
