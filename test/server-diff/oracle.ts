/**
 * Starting the real apiextensions-apiserver (tools/k8s-server-oracle) on a fresh etcd, on free loopback ports:
 * shared by `npm run golden:server` (one oracle per sequence, each on its own etcd prefix) and
 * `npm run fuzz:server`. Needs Go (or `K8S_SERVER_ORACLE_BIN`, a build of the oracle) and etcd
 * (`K8S_SERVER_ORACLE_ETCD`, default `etcd` on the PATH).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT, type Target } from "./runner.js";

export function freePort(): Promise<number> {
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

/** The oracle binary: `K8S_SERVER_ORACLE_BIN` as it is, else tools/k8s-server-oracle built with Go. */
export function oracleBinary(): string {
  const prebuilt = process.env["K8S_SERVER_ORACLE_BIN"];
  if (prebuilt) return prebuilt;
  const outDir = join(REPO_ROOT, "node_modules", ".cache", "k8s-server-oracle");
  mkdirSync(outDir, { recursive: true });
  // Named as in a cluster: the CRD controllers write status with the binary's name as field manager.
  const bin = join(outDir, "kube-apiserver");
  execFileSync("go", ["build", "-o", bin, "."], { cwd: join(REPO_ROOT, "tools", "k8s-server-oracle"), stdio: "inherit" });
  return bin;
}

/** An etcd on free loopback ports, and oracles started on it. */
export interface OracleCluster {
  /** `3.6`: the etcd's version. */
  etcdVersion: string;
  /** The etcd's client URL (`http://127.0.0.1:PORT`): a crdkit server may share it under another prefix. */
  etcdUrl: string;
  /** Starts an oracle on the etcd under `/registry-<prefix>`; `stop` ends it. */
  startOracle(prefix: string): Promise<{ target: Target; stop(): Promise<void> }>;
  /** Stops the oracles still running and etcd, and removes the data directory. */
  close(): Promise<void>;
}

export async function startOracleCluster(bin: string): Promise<OracleCluster> {
  const etcdBin = process.env["K8S_SERVER_ORACLE_ETCD"] ?? "etcd";
  const etcdVersion = /etcd Version: (\d+\.\d+)/.exec(execFileSync(etcdBin, ["--version"], { encoding: "utf8" }))?.[1] ?? "?";
  const tmp = mkdtempSync(join(tmpdir(), "crdkit-server-oracle-"));
  const [client, peer] = [await freePort(), await freePort()];
  const etcd = spawn(
    etcdBin,
    ["--data-dir", join(tmp, "etcd"), "--listen-client-urls", `http://127.0.0.1:${client}`, "--advertise-client-urls", `http://127.0.0.1:${client}`,
      "--listen-peer-urls", `http://127.0.0.1:${peer}`, "--initial-advertise-peer-urls", `http://127.0.0.1:${peer}`,
      "--initial-cluster", `default=http://127.0.0.1:${peer}`],
    { stdio: ["ignore", "ignore", "ignore"] },
  );
  const running = new Set<ChildProcess>();
  const stopProc = async (p: ChildProcess): Promise<void> => {
    running.delete(p);
    if (p.exitCode !== null || p.signalCode !== null) return;
    const stopped = new Promise((r) => p.once("exit", r));
    p.kill("SIGTERM");
    await stopped;
  };
  const close = async (): Promise<void> => {
    for (const p of [...running]) await stopProc(p);
    await stopProc(etcd);
    rmSync(tmp, { recursive: true, force: true });
  };
  try {
    await waitFor(`http://127.0.0.1:${client}/health`, "etcd", etcd);
  } catch (e) {
    await close();
    throw e;
  }
  // The oracle's certificate is self-signed.
  process.env["NODE_TLS_REJECT_UNAUTHORIZED"] = "0";
  return {
    etcdVersion,
    etcdUrl: `http://127.0.0.1:${client}`,
    close,
    async startOracle(prefix) {
      const https = await freePort();
      const oracle = spawn(bin, ["--etcd-servers", `http://127.0.0.1:${client}`, "--etcd-prefix", `/registry-${prefix}`, "--secure-port", String(https), "--cert-dir", join(tmp, "certs")], {
        stdio: ["ignore", "ignore", process.env["ORACLE_LOG"] ? "inherit" : "ignore"],
      });
      running.add(oracle);
      try {
        await waitFor(`https://127.0.0.1:${https}/readyz`, "k8s-server-oracle", oracle);
      } catch (e) {
        await stopProc(oracle);
        throw e;
      }
      return { target: { url: `https://127.0.0.1:${https}`, kubectlFlags: ["--insecure-skip-tls-verify", "--token", "oracle"] }, stop: () => stopProc(oracle) };
    },
  };
}
