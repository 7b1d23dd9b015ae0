/**
 * A throwaway etcd for tests: `/usr/bin/etcd` (or `etcd` on the PATH) on free loopback ports with a
 * temporary data directory; stop, kill -9 and restart on the same ports and data.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { EtcdClient } from "../../src/storage/etcd/etcd-client.js";

/** The etcd binary, or undefined (CI installs Debian's etcd-server, so there it must exist). */
export function findEtcd(): string | undefined {
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

export class EtcdProcess {
  private child: ChildProcess | undefined;
  private output = "";

  private constructor(
    private readonly bin: string,
    readonly dir: string,
    readonly clientPort: number,
    readonly peerPort: number,
  ) {}

  static async start(): Promise<EtcdProcess> {
    const bin = findEtcd();
    if (!bin) throw new Error("etcd is not installed");
    const p = new EtcdProcess(bin, mkdtempSync(join(tmpdir(), "crdkit-etcd-")), await freePort(), await freePort());
    await p.run();
    return p;
  }

  get url(): string {
    return `http://127.0.0.1:${this.clientPort}`;
  }

  /** Starts etcd (again) and waits until it answers. */
  async run(): Promise<void> {
    const peer = `http://127.0.0.1:${this.peerPort}`;
    this.output = "";
    const child = spawn(
      this.bin,
      [
        "--name=crdkit-test",
        `--data-dir=${join(this.dir, "data")}`,
        `--listen-client-urls=${this.url}`,
        `--advertise-client-urls=${this.url}`,
        `--listen-peer-urls=${peer}`,
        `--initial-advertise-peer-urls=${peer}`,
        `--initial-cluster=crdkit-test=${peer}`,
        "--log-level=error",
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    child.stderr?.on("data", (d: Buffer) => {
      if (this.output.length < 20_000) this.output += d.toString();
    });
    this.child = child;
    const client = new EtcdClient({ servers: [this.url], callTimeoutMs: 1000 });
    try {
      for (let i = 0; ; i++) {
        if (child.exitCode !== null) throw new Error(`etcd exited with ${child.exitCode}: ${this.output}`);
        try {
          await client.status();
          return;
        } catch (e) {
          if (i > 100) throw new Error(`etcd did not start: ${String(e)} ${this.output}`);
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
