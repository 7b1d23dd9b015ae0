#!/usr/bin/env node
/**
 * `npm run golden:server`: builds tools/k8s-server-oracle (Go: the real k8s.io/apiextensions-apiserver,
 * standalone), starts it on a fresh etcd on free loopback ports, runs every sequence of
 * test/server-diff/sequences against it and writes the normalised answers to test/golden/server/<name>.json.
 * `npm test` replays them against `crdkit serve` (test/server-diff/server-diff.test.ts).
 * Needs Go and etcd (`apt-get install -y etcd-server`); `K8S_SERVER_ORACLE_BIN=.cache/go-tools/kube-apiserver` uses
 * that build of the oracle instead of building it; `K8S_SERVER_ORACLE_ETCD=.cache/go-tools/etcd-3.6` runs it on that etcd
 * (default: `etcd` on the PATH; a sequence records the etcd it ran on). Arguments: sequence names to record (default all).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadSequences, REPO_ROOT, runSequence } from "../test/server-diff/runner.js";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}

async function waitFor(url: string, what: string, proc: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (proc.exitCode !== null) throw new Error(`${what} exited with ${proc.exitCode}`);
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not become ready at ${url}`);
}

async function main(): Promise<void> {
  const only = new Set(process.argv.slice(2));
  const outDir = join(REPO_ROOT, "node_modules", ".cache", "k8s-server-oracle");
  mkdirSync(outDir, { recursive: true });
  // Named as in a cluster: the CRD controllers write status with the binary's name as field manager.
  // K8S_SERVER_ORACLE_BIN: a build of tools/k8s-server-oracle to use as it is (such as .cache/go-tools/kube-apiserver).
  const prebuilt = process.env["K8S_SERVER_ORACLE_BIN"];
  const bin = prebuilt ?? join(outDir, "kube-apiserver");
  if (!prebuilt) execFileSync("go", ["build", "-o", bin, "."], { cwd: join(REPO_ROOT, "tools", "k8s-server-oracle"), stdio: "inherit" });

  const etcdBin = process.env["K8S_SERVER_ORACLE_ETCD"] ?? "etcd";
  const etcdVersion = /etcd Version: (\d+\.\d+)/.exec(execFileSync(etcdBin, ["--version"], { encoding: "utf8" }))?.[1] ?? "?";
  const tmp = mkdtempSync(join(tmpdir(), "crdkit-golden-server-"));
  const [client, peer, https] = [await freePort(), await freePort(), await freePort()];
  const etcd = spawn(
    etcdBin,
    ["--data-dir", join(tmp, "etcd"), "--listen-client-urls", `http://127.0.0.1:${client}`, "--advertise-client-urls", `http://127.0.0.1:${client}`,
      "--listen-peer-urls", `http://127.0.0.1:${peer}`, "--initial-advertise-peer-urls", `http://127.0.0.1:${peer}`,
      "--initial-cluster", `default=http://127.0.0.1:${peer}`],
    { stdio: ["ignore", "ignore", "ignore"] },
  );
  let oracle: ChildProcess | undefined;
  try {
    await waitFor(`http://127.0.0.1:${client}/health`, "etcd", etcd);
    process.env["NODE_TLS_REJECT_UNAUTHORIZED"] = "0";
    mkdirSync(join(REPO_ROOT, "test", "golden", "server"), { recursive: true });
    for (const [name, seq] of loadSequences()) {
      if (only.size > 0 && !only.has(name)) continue;
      // A fresh server on its own etcd prefix per sequence: sequences cannot see each other's objects.
      oracle = spawn(bin, ["--etcd-servers", `http://127.0.0.1:${client}`, "--etcd-prefix", `/registry-${name}`, "--secure-port", String(https), "--cert-dir", join(tmp, "certs")], {
        stdio: ["ignore", "ignore", process.env["ORACLE_LOG"] ? "inherit" : "ignore"],
      });
      await waitFor(`https://127.0.0.1:${https}/readyz`, "k8s-server-oracle", oracle);
      const target = { url: `https://127.0.0.1:${https}`, kubectlFlags: ["--insecure-skip-tls-verify", "--token", "oracle"] };
      const results = await runSequence(target, seq);
      const out = { recordedWith: `k8s.io/apiextensions-apiserver v0.37.2 on etcd ${etcdVersion} (tools/k8s-server-oracle)`, sequence: name, results };
      writeFileSync(join(REPO_ROOT, "test", "golden", "server", `${name}.json`), `${JSON.stringify(out, null, 1)}\n`);
      process.stdout.write(`recorded ${name}: ${results.length} answers\n`);
      const stopped = new Promise((r) => oracle!.once("exit", r));
      oracle.kill("SIGTERM");
      await stopped;
      oracle = undefined;
    }
  } finally {
    oracle?.kill("SIGTERM");
    etcd.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 500));
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
