/**
 * The Go load generator (tools/go-load: Go's net/http transport as client-go uses it — HTTP/2 on one TLS
 * connection, or HTTP/1.1 on a pool) for the serve benches' load phases, built on first use into
 * `.cache/go-tools/go-load` (standard library only; a few seconds).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..", "..");
const source = join(root, "tools", "go-load");
const binary = join(root, ".cache", "go-tools", "go-load");

/** The built tool's path; builds it when missing or older than its source. Throws when Go is missing. */
export function goLoadBinary(): string {
  const stale = !existsSync(binary) || statSync(binary).mtimeMs < statSync(join(source, "main.go")).mtimeMs;
  if (stale) {
    mkdirSync(join(root, ".cache", "go-tools"), { recursive: true });
    const r = spawnSync("go", ["build", "-buildvcs=false", "-o", binary, "."], { cwd: source, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`go-load: go build failed (is Go installed?): ${r.error?.message ?? r.stderr}`);
  }
  return binary;
}

export interface GoLoadResult {
  perSec: number;
  p50: number;
  p99: number;
  /** The HTTP version of the answers (`HTTP/2.0`, `HTTP/1.1`). */
  proto: string;
  /** Connections the phase opened. */
  opened: number;
  /** The load generator's own CPU ms for the phase. */
  cpuMs: number;
}

/** Runs the tool with `args`; resolves with its JSON line, rejects with its error. */
function run<T>(args: string[]): Promise<T> {
  return new Promise((done, fail) => {
    const child = spawn(goLoadBinary(), args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => {
      if (err.length < 10_000) err += d.toString();
    });
    child.once("error", fail);
    child.once("exit", (code) => {
      let r: (T & { error?: string }) | undefined;
      try {
        r = JSON.parse(out.trim().split("\n").pop() ?? "") as T & { error?: string };
      } catch {
        r = undefined;
      }
      if (code === 0 && r) done(r);
      else fail(new Error(`go-load exited ${code}: ${r?.error ?? (err.trim() || out.trim())}`));
    });
  });
}

/**
 * Installs `n` CRDs one by one, each waited for until Established: `body` and `getUrl` with `%N%` for the CRD's
 * number; the seconds, the tool's CPU ms, and with `serverPid` the server's CPU ms per CRD of each tenth.
 */
export function goInstall(opts: { url: string; getUrl: string; body: string; n: number; serverPid?: number; http1: boolean }): Promise<{ secs: number; cpuMs: number; tenthsMs: number[] | null }> {
  const args = ["-install", String(opts.n), "-url", opts.url, "-get-url", opts.getUrl, "-body", opts.body];
  if (opts.serverPid !== undefined) args.push("-server-pid", String(opts.serverPid));
  if (opts.http1) args.push("-h1");
  return run(args);
}

/**
 * Runs one phase: `n` requests, `inFlight` at a time; `%NAME%` in `url` and `body` becomes `${prefix}-${i}`
 * (i modulo `mod` when given). Rejects with the tool's first error when any answer is not `want`.
 */
export function goLoad(opts: { url: string; method: string; body?: string; n: number; inFlight: number; prefix: string; mod?: number; want: number; http1: boolean }): Promise<GoLoadResult> {
  const args = ["-url", opts.url, "-method", opts.method, "-n", String(opts.n), "-c", String(opts.inFlight), "-prefix", opts.prefix, "-want", String(opts.want)];
  if (opts.body !== undefined) args.push("-body", opts.body);
  if (opts.mod !== undefined) args.push("-mod", String(opts.mod));
  if (opts.http1) args.push("-h1");
  return run<GoLoadResult>(args);
}
