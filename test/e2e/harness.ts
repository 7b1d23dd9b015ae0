/**
 * End-to-end harness: an in-process `crdkit serve` on a free loopback port, a temporary kubeconfig and
 * cache dir, and a runner for the real kubectl (the PATH dispatcher or a versioned `kubectl.1.NN`).
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startServer, type RunningServer } from "../../src/server/server.js";
import type { SecurityOptions } from "../../src/server/auth/security.js";
import { generateCa, generateServingCert } from "../../src/server/auth/pki.js";
import { EtcdStore } from "../../src/storage/etcd/etcd-store.js";
import { EtcdProcess } from "../storage/etcd-process.js";

/** The store backends the e2e suites run against. */
export type Backend = "sqlite" | "etcd";

/**
 * How kubectl reaches the server: `h2` (default; TLS, HTTP/2 negotiated by ALPN as with a cluster),
 * `http/1.1` (TLS with `--disable-http2-serving`), `http` (plain HTTP/1.1). `CRDKIT_E2E_PROTOCOL` sets the
 * default for every suite.
 */
export type Protocol = "h2" | "http/1.1" | "http";

function defaultProtocol(): Protocol {
  const p = process.env["CRDKIT_E2E_PROTOCOL"];
  return p === "http/1.1" || p === "http" ? p : "h2";
}

/** A serving certificate for 127.0.0.1, made once per test file. */
let servingCert: Promise<{ ca: string; cert: string; key: string }> | undefined;
function loopbackServingCert(): Promise<{ ca: string; cert: string; key: string }> {
  servingCert ??= (async () => {
    const ca = await generateCa("crdkit-e2e-ca");
    const kp = await generateServingCert(ca, ["127.0.0.1", "localhost"]);
    return { ca: ca.cert, cert: kp.cert, key: kp.key };
  })();
  return servingCert;
}

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "fixtures");

/** `kubectl` on the PATH, resolved through symlinks; undefined when absent. */
export function findKubectl(): string | undefined {
  for (const d of (process.env["PATH"] ?? "").split(delimiter)) {
    const p = join(d, "kubectl");
    try {
      accessSync(p, constants.X_OK);
      return realpathSync(p);
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The versioned binary `kubectl.1.<minor>` beside the PATH kubectl, if present. */
export function versionedKubectl(minor: number): string | undefined {
  const k = findKubectl();
  if (!k) return undefined;
  const p = join(dirname(k), `kubectl.1.${minor}`);
  try {
    accessSync(p, constants.X_OK);
    return p;
  } catch {
    return undefined;
  }
}

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Cluster {
  server: RunningServer;
  dir: string;
  /** Runs kubectl (default: the PATH one) against the server. */
  kubectl(args: string[], opts?: { bin?: string; env?: Record<string, string>; cacheDir?: string }): Promise<KubectlResult>;
  /** Starts a long-running kubectl (e.g. `get --watch`). */
  spawnKubectl(args: string[]): ChildProcess;
  close(): Promise<void>;
}

/** Starts a server and writes a kubeconfig for it. */
export async function startCluster(
  opts: { log?: (r: Record<string, string | number | boolean>) => void; backend?: Backend; protocol?: Protocol } = {},
): Promise<Cluster> {
  // The etcd backend: a fresh etcd process per cluster, removed on close.
  // Default backend: CRDKIT_E2E_BACKEND=etcd runs any e2e suite on etcd.
  const backend = opts.backend ?? (process.env["CRDKIT_E2E_BACKEND"] === "etcd" ? "etcd" : "sqlite");
  const etcd = backend === "etcd" ? await EtcdProcess.start() : undefined;
  const store = etcd ? new EtcdStore({ servers: [etcd.url] }) : undefined;
  const protocol = opts.protocol ?? defaultProtocol();
  const dir = mkdtempSync(join(tmpdir(), "crdkit-e2e-"));
  let ca: string | undefined;
  let security: SecurityOptions = {};
  if (protocol !== "http") {
    // TLS without authentication (loopback): every request is allowed, as over plain HTTP.
    const tls = await loopbackServingCert();
    writeFileSync(join(dir, "serving.crt"), tls.cert);
    writeFileSync(join(dir, "serving.key"), tls.key);
    security = { tlsCertFile: join(dir, "serving.crt"), tlsPrivateKeyFile: join(dir, "serving.key") };
    ca = tls.ca;
  }
  let server: RunningServer;
  try {
    server = await startServer({
      ...(opts.log ? { log: opts.log } : {}),
      ...(store ? { store } : {}),
      security,
      ...(protocol === "http/1.1" ? { http2: { disabled: true } } : {}),
    });
  } catch (e) {
    await etcd?.cleanup();
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  const kubeconfig = join(dir, "kubeconfig");
  writeFileSync(
    kubeconfig,
    [
      "apiVersion: v1",
      "kind: Config",
      "clusters:",
      ca === undefined
        ? `- cluster: {server: "${server.url}"}`
        : `- cluster: {server: "${server.url}", certificate-authority-data: "${Buffer.from(ca).toString("base64")}"}`,
      "  name: crdkit",
      "contexts:",
      "- context: {cluster: crdkit, user: crdkit, namespace: default}",
      "  name: crdkit",
      "current-context: crdkit",
      "users:",
      "- name: crdkit",
      // Over TLS without credentials kubectl would prompt for a user name: a token the open server ignores.
      ca === undefined ? "  user: {}" : "  user: {token: crdkit-e2e}",
      "",
    ].join("\n"),
  );
  const bin = findKubectl() ?? "kubectl";
  const env = (extra: Record<string, string> = {}) => ({
    PATH: process.env["PATH"] ?? "",
    HOME: dir,
    KUBECONFIG: kubeconfig,
    ...extra,
  });
  return {
    server,
    dir,
    kubectl(args, opts = {}) {
      const cache = opts.cacheDir ?? join(dir, "cache");
      return new Promise((resolve) => {
        execFile(
          opts.bin ?? bin,
          ["--cache-dir", cache, ...args],
          { env: env(opts.env), cwd: FIXTURES, timeout: 60_000 },
          (err, stdout, stderr) => {
            const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
            resolve({ code, stdout: stdout.toString(), stderr: stderr.toString() });
          },
        );
      });
    },
    spawnKubectl(args) {
      return spawn(bin, ["--cache-dir", join(dir, "cache"), ...args], { env: env(), cwd: FIXTURES, stdio: ["ignore", "pipe", "pipe"] });
    },
    async close() {
      await server.close();
      await etcd?.cleanup();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Replaces human ages (`0s`, `3m2s`) in the last column-ish positions with `<age>`. */
export function normalizeAges(text: string): string {
  return text.replace(/\b\d+[smhdy](\d+[smhd])?(?=\s*$)/gm, "<age>");
}

/** Collapses runs of spaces (kubectl pads columns) so assertions do not depend on column widths. */
export function squeeze(text: string): string {
  return text
    .split("\n")
    .map((l) => l.replace(/ {2,}/g, "  ").trimEnd())
    .join("\n");
}

/** Collects a child's stdout lines; `waitFor(n)` resolves once n lines arrived (rejects if it exits first). */
export class LineCollector {
  private buf = "";
  private exited: number | null | undefined;
  private waiters: { n: number; resolve: (l: string[]) => void; reject: (e: Error) => void }[] = [];

  constructor(child: ChildProcess) {
    child.stdout!.on("data", (d: Buffer) => {
      this.buf += d.toString();
      this.check();
    });
    child.once("exit", (code) => {
      this.exited = code;
      this.check();
    });
  }

  get lines(): string[] {
    const complete = this.buf.slice(0, this.buf.lastIndexOf("\n") + 1);
    return complete.split("\n").filter((l) => l !== "");
  }

  private check(): void {
    const got = this.lines;
    this.waiters = this.waiters.filter((w) => {
      if (got.length >= w.n) w.resolve(got);
      else if (this.exited !== undefined) w.reject(new Error(`kubectl exited (${this.exited}) before ${w.n} lines: ${this.buf}`));
      else return true;
      return false;
    });
  }

  /** Resolves with the lines once `n` arrived; rejects if the child exits first or after `deadlineMs` (a hang guard). */
  waitFor(n: number, deadlineMs = 60_000): Promise<string[]> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${n} lines after ${deadlineMs} ms: ${this.buf}`)), deadlineMs);
      this.waiters.push({
        n,
        resolve: (l) => {
          clearTimeout(timer);
          resolve(l);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      this.check();
    });
  }
}
