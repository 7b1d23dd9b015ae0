/**
 * A throwaway etcd for tests: `/usr/bin/etcd` (or `etcd` on the PATH) on free loopback ports with a
 * temporary data directory; stop, kill -9 and restart on the same ports and data.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { EtcdClient } from "../../src/storage/etcd/etcd-client.js";
import { reapOnExit } from "../reap-children.js";

/**
 * The etcd binary, or undefined (CI installs Debian's etcd-server, so there it must exist). CRDKIT_ETCD_BIN
 * runs every etcd test on another etcd, e.g. `.cache/go-tools/etcd-3.6` (scripts/go-tools.mjs).
 */
export function findEtcd(): string | undefined {
  const chosen = process.env["CRDKIT_ETCD_BIN"];
  if (chosen) return chosen;
  for (const d of ["/usr/bin", ...(process.env["PATH"] ?? "").split(delimiter)]) {
    const p = join(d, "etcd");
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // not here
    }
  }
  if (process.env["CI"] === "true") throw new Error("etcd is not installed (.ci/run installs etcd-server)");
  return undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** TLS files of an etcd that serves https and requires client certificates. */
export interface EtcdTls {
  caFile: string;
  serverCert: string;
  serverKey: string;
  /** A client certificate signed by the CA, for crdkit's `--etcd-certfile/--etcd-keyfile`. */
  certFile: string;
  keyFile: string;
}

/** Makes a CA, a server certificate for 127.0.0.1 and a client certificate with openssl. */
export function makeTls(dir: string): EtcdTls {
  const run = (args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
  const key = (name: string) => ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", `${name}.key`];
  run(["req", "-x509", ...key("ca"), "-out", "ca.crt", "-days", "1", "-subj", "/CN=crdkit-test-ca"]);
  for (const [name, ext] of [
    ["server", "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth"],
    ["client", "extendedKeyUsage=clientAuth"],
  ] as const) {
    run(["req", ...key(name), "-out", `${name}.csr`, "-subj", `/CN=${name}`]);
    writeFileSync(join(dir, `${name}.ext`), ext);
    run(["x509", "-req", "-in", `${name}.csr`, "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-out", `${name}.crt`, "-days", "1", "-extfile", `${name}.ext`]);
  }
  return {
    caFile: join(dir, "ca.crt"),
    serverCert: join(dir, "server.crt"),
    serverKey: join(dir, "server.key"),
    certFile: join(dir, "client.crt"),
    keyFile: join(dir, "client.key"),
  };
}

export class EtcdProcess {
  private child: ChildProcess | undefined;
  private output = "";

  /** The member's name and `--initial-cluster` (itself alone unless started by {@link startEtcdCluster}). */
  name = "crdkit-test";
  initialCluster = "";

  constructor(
    private readonly bin: string,
    readonly dir: string,
    readonly clientPort: number,
    readonly peerPort: number,
    readonly tls: EtcdTls | undefined,
  ) {}

  /** Starts etcd (`bin`: another etcd binary, e.g. 3.6); with `tls`, it serves https and requires client certificates. */
  static async start(opts: { tls?: boolean; bin?: string } = {}): Promise<EtcdProcess> {
    const bin = opts.bin ?? findEtcd();
    if (!bin) throw new Error("etcd is not installed");
    const dir = mkdtempSync(join(tmpdir(), "crdkit-etcd-"));
    const tls = opts.tls ? makeTls(dir) : undefined;
    // A free port can be taken between freePort() and etcd's bind (by another test, or as the local port of
    // an outgoing connection): then etcd exits at once, and it starts again on other ports.
    for (let attempt = 1; ; attempt++) {
      const p = new EtcdProcess(bin, dir, await freePort(), await freePort(), tls);
      try {
        await p.run();
        return p;
      } catch (e) {
        if (attempt >= 3 || !/address already in use/.test(String(e))) {
          rmSync(dir, { recursive: true, force: true });
          throw e;
        }
        rmSync(join(dir, "data"), { recursive: true, force: true });
      }
    }
  }

  /** Starts a cluster of `size` members on loopback (all members must start before any answers). */
  static async startCluster(size: number, opts: { bin?: string } = {}): Promise<EtcdProcess[]> {
    const bin = opts.bin ?? findEtcd();
    if (!bin) throw new Error("etcd is not installed");
    const members: EtcdProcess[] = [];
    for (let i = 0; i < size; i++) {
      const m = new EtcdProcess(bin, mkdtempSync(join(tmpdir(), "crdkit-etcd-")), await freePort(), await freePort(), undefined);
      m.name = `member-${i}`;
      members.push(m);
    }
    const cluster = members.map((m) => `${m.name}=http://127.0.0.1:${m.peerPort}`).join(",");
    for (const m of members) m.initialCluster = cluster;
    await Promise.all(members.map((m) => m.run()));
    return members;
  }

  /** The etcd version this binary reports (`etcd --version`). */
  static version(bin: string): string {
    return /etcd Version: (\S+)/.exec(execFileSync(bin, ["--version"], { encoding: "utf8" }))?.[1] ?? "unknown";
  }

  /** The running etcd's process id. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  get url(): string {
    return `${this.tls ? "https" : "http"}://127.0.0.1:${this.clientPort}`;
  }

  /** Starts etcd (again) and waits until it answers. */
  async run(): Promise<void> {
    const peer = `http://127.0.0.1:${this.peerPort}`;
    this.output = "";
    const child = spawn(
      this.bin,
      [
        `--name=${this.name}`,
        `--data-dir=${join(this.dir, "data")}`,
        `--listen-client-urls=${this.url}`,
        `--advertise-client-urls=${this.url}`,
        `--listen-peer-urls=${peer}`,
        `--initial-advertise-peer-urls=${peer}`,
        `--initial-cluster=${this.initialCluster || `${this.name}=${peer}`}`,
        "--log-level=error",
        ...(this.tls
          ? [`--cert-file=${this.tls.serverCert}`, `--key-file=${this.tls.serverKey}`, `--trusted-ca-file=${this.tls.caFile}`, "--client-cert-auth"]
          : []),
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    child.stderr?.on("data", (d: Buffer) => {
      if (this.output.length < 20_000) this.output += d.toString();
    });
    this.child = child;
    const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
    // Never leave an etcd behind, even when the test process ends without cleanup.
    reapOnExit(child);
    const client = new EtcdClient({
      servers: [this.url],
      callTimeoutMs: 1000,
      ...(this.tls ? { caFile: this.tls.caFile, certFile: this.tls.certFile, keyFile: this.tls.keyFile } : {}),
    });
    try {
      for (let i = 0; ; i++) {
        if (child.exitCode !== null) {
          await closed; // all of its stderr read: the reason it gives
          throw new Error(`etcd exited with ${child.exitCode}: ${this.output}`);
        }
        try {
          await client.status();
          return;
        } catch (e) {
          if (i > 100) {
            await this.kill();
            throw new Error(`etcd did not start: ${String(e)} ${this.output}`);
          }
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    } finally {
      client.close();
    }
  }

  private async end(signal: NodeJS.Signals): Promise<void> {
    const c = this.child;
    this.child = undefined;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once("exit", () => resolve());
      c.kill(signal);
    });
  }

  /** Graceful stop. */
  stop(): Promise<void> {
    return this.end("SIGTERM");
  }

  /** `kill -9`. */
  kill(): Promise<void> {
    return this.end("SIGKILL");
  }

  /** Stops etcd and removes its data. */
  async cleanup(): Promise<void> {
    await this.end("SIGKILL");
    rmSync(this.dir, { recursive: true, force: true });
  }
}
