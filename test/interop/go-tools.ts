/**
 * Finds a Go program built by scripts/go-tools.mjs (`.cache/go-tools/<name>`), or says why a test that needs
 * it is skipped: Go is not installed, or nobody built it (`npm run interop` builds it). While a build is under
 * way (.ci/run starts one in the background before `npm test`) it waits for it, at
 * most {@link BUILD_WAIT_MS}: the wait counts toward the file's bound (`--test-timeout=3000000` in `npm test`),
 * and a clear message beats a timed-out file. A failed or unfinished build is a skip on a developer's machine
 * and an error under `CI=true`, so that CI cannot pass without the interop tests.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

/** Whether the process named by a `.pending` marker is still running. */
function building(pendingFile: string): boolean {
  if (!existsSync(pendingFile)) return false;
  const pid = Number(readFileSync(pendingFile, "utf8"));
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false; // a stale marker of a build that died
  }
}

/** How long a test file waits for a build under way: 45 of its 50 minutes, the rest for its tests. */
export const BUILD_WAIT_MS = 45 * 60_000;

/**
 * Blocks this test process until the build under way ends (each test file runs in its own process), or for
 * `limitMs`; says whether it ended.
 */
function waitForBuild(pendingFile: string, exitFile: string, limitMs: number): boolean {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  const end = Date.now() + limitMs;
  while (!existsSync(exitFile) && building(pendingFile)) {
    if (Date.now() > end) return false;
    Atomics.wait(cell, 0, 0, 2000);
  }
  return true;
}

export const GO_TOOLS_DIR = resolve(import.meta.dirname, "..", "..", ".cache", "go-tools");

/** The binary's path, or the reason to skip. An environment variable (e.g. K8S_SERVER_ORACLE) overrides the cache. */
export function goTool(name: "kube-apiserver" | "etcd-3.6" | "controller-e2e", envVar: string): { path: string; skip: false } | { path: undefined; skip: string } {
  const fromEnv = process.env[envVar];
  if (fromEnv) return existsSync(fromEnv) ? { path: fromEnv, skip: false } : { path: undefined, skip: `${envVar}=${fromEnv} does not exist` };
  const base = join(GO_TOOLS_DIR, name);
  const exit = existsSync(`${base}.exit`) ? readFileSync(`${base}.exit`, "utf8").trim() : undefined;
  if (exit === "no-go") return { path: undefined, skip: `${name}: Go is not installed` };
  if (exit === undefined && building(`${base}.pending`)) {
    const t0 = Date.now();
    if (waitForBuild(`${base}.pending`, `${base}.exit`, BUILD_WAIT_MS)) return goTool(name, envVar);
    const why = `${name}: the Go build under way (scripts/go-tools.mjs) did not finish within ${Math.round((Date.now() - t0) / 1000)} s; see ${base}.log`;
    if (process.env["CI"] === "true") throw new Error(why);
    return { path: undefined, skip: why };
  }
  if (exit !== undefined && exit !== "0") {
    const why = `${name}: the Go build failed (${exit}); see ${base}.log`;
    if (process.env["CI"] === "true") throw new Error(`${why}\n${existsSync(`${base}.log`) ? readFileSync(`${base}.log`, "utf8").slice(-4000) : ""}`);
    return { path: undefined, skip: why };
  }
  if (existsSync(base)) return { path: base, skip: false };
  return { path: undefined, skip: `${name} is not built: run \`npm run interop\` (builds it with Go into .cache/go-tools)` };
}
