/**
 * `crdkit serve --workers N`: N server processes on one port (node:cluster), each a full replica on the same
 * etcd — the replicas crdkit already supports (CRDs, RBAC and watches followed through etcd; controllers safe
 * on every replica), so that a server uses more than one core. The primary process only forks the workers,
 * restarts one that dies, and stops them on SIGINT/SIGTERM. Only with `--etcd-servers`: the embedded store
 * has one writer.
 */
import cluster, { type Worker } from "node:cluster";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { untilStopped } from "./until-stopped.js";

/** The message a worker sends once it listens. */
export interface WorkerReady {
  crdkitServeUrl: string;
}

/** Whether this process is a `--workers` worker. */
export function isServeWorker(): boolean {
  return cluster.isWorker && process.env["CRDKIT_SERVE_WORKER"] === "1";
}

/** Tells the primary this worker listens on `url`. */
export function reportListening(url: string): void {
  process.send?.({ crdkitServeUrl: url } satisfies WorkerReady);
}

/** Why `--workers N` cannot be used with these flags, or undefined. */
export function workersFlagError(n: number, etcd: boolean, writeKubeconfig: boolean, security: boolean, tlsCert: boolean): string | undefined {
  if (!etcd) return "--workers needs --etcd-servers (the embedded store has one writer)";
  if (writeKubeconfig) return "--workers does not write a kubeconfig (each worker would generate its own CA): use one worker";
  if (security && !tlsCert) return "--workers with security flags needs --tls-cert-file/--tls-private-key-file (a generated certificate would differ per worker)";
  return n >= 1 ? undefined : "--workers needs a positive count";
}

/** The worker entry: compiled next to this file, or the TypeScript source (run through tsx). */
function workerEntry(): { exec: string; execArgv: string[] } {
  const js = new URL("./serve-worker.js", import.meta.url);
  if (existsSync(js)) return { exec: fileURLToPath(js), execArgv: [] };
  const ts = fileURLToPath(new URL("./serve-worker.ts", import.meta.url));
  return { exec: ts, execArgv: process.execArgv.some((a) => a.includes("tsx")) ? [] : ["--import", "tsx"] };
}

/** Runs `n` workers with `args` until a signal; resolves with the exit code. */
export async function runServeWorkers(n: number, args: readonly string[], io: { stdout: (t: string) => void; stderr: (t: string) => void }, signal?: AbortSignal): Promise<number> {
  const entry = workerEntry();
  cluster.setupPrimary({ exec: entry.exec, args: [...args], execArgv: [...process.execArgv, ...entry.execArgv] });
  let stopping = false;
  const workers = new Set<Worker>();
  let announced = false;
  let listening = 0;
  let failedStarts = 0;
  const ready = new Promise<number>((resolve) => {
    const fork = () => {
      const w = cluster.fork({ CRDKIT_SERVE_WORKER: "1" });
      workers.add(w);
      let up = false;
      w.on("message", (m: Partial<WorkerReady>) => {
        if (typeof m?.crdkitServeUrl !== "string") return;
        if (up) return;
        up = true;
        // Announced once every worker listens: a client (or a test) that kills one worker then still has
        // another on the shared port (the primary closes a port-0 handle when its last listener leaves).
        if (!announced && ++listening === n) {
          announced = true;
          io.stdout(`crdkit serve: listening on ${m.crdkitServeUrl} (${n} workers)\n`);
          resolve(0);
        }
      });
      w.on("exit", (code, sig) => {
        workers.delete(w);
        if (stopping) return;
        // A worker that never came up (bad flags, port taken): give up rather than loop.
        if (!up && ++failedStarts >= n) {
          stopping = true;
          for (const o of workers) o.kill("SIGTERM");
          resolve(1);
          return;
        }
        io.stderr(`${JSON.stringify({ time: new Date().toISOString(), level: "warn", msg: "worker exited; starting another", code, signal: sig })}\n`);
        fork();
      });
    };
    for (let i = 0; i < n; i++) fork();
  });
  const code = await ready;
  if (code === 0) {
    await untilStopped(signal);
  }
  stopping = true;
  await Promise.all(
    [...workers].map(
      (w) =>
        new Promise<void>((resolve) => {
          if (w.isDead()) return resolve();
          w.once("exit", () => resolve());
          w.kill("SIGTERM");
        }),
    ),
  );
  return code;
}
