/**
 * Finds a Go program built by scripts/go-tools.mjs (`.cache/go-tools/<name>`), or says why a test that needs
 * it is skipped: Go is not installed, or nobody built it (`npm run interop` builds it). While a build is under
 * way (.ci/run starts one in the background before `npm test`) it waits for it. A failed build is a skip on a
 * developer's machine and an error under `CI=true`, so that CI cannot pass without the interop tests.
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

/** Blocks this test process until the build under way ends (each test file runs in its own process). */
function waitForBuild(pendingFile: string, exitFile: string): void {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  while (!existsSync(exitFile) && building(pendingFile)) Atomics.wait(cell, 0, 0, 2000);
}

export const GO_TOOLS_DIR = resolve(import.meta.dirname, "..", "..", ".cache", "go-tools");

/** The binary's path, or the reason to skip. An environment variable (e.g. K8S_SERVER_ORACLE) overrides the cache. */
export function goTool(name: "kube-apiserver" | "etcd-3.6", envVar: string): { path: string; skip: false } | { path: undefined; skip: string } {
  const fromEnv = process.env[envVar];
  if (fromEnv) return existsSync(fromEnv) ? { path: fromEnv, skip: false } : { path: undefined, skip: `${envVar}=${fromEnv} does not exist` };
  const base = join(GO_TOOLS_DIR, name);
  const exit = existsSync(`${base}.exit`) ? readFileSync(`${base}.exit`, "utf8").trim() : undefined;
  if (exit === "no-go") return { path: undefined, skip: `${name}: Go is not installed` };
  if (exit === undefined && building(`${base}.pending`)) {
    waitForBuild(`${base}.pending`, `${base}.exit`);
    return goTool(name, envVar);
  }
  if (exit !== undefined && exit !== "0") {
    const why = `${name}: the Go build failed (${exit}); see ${base}.log`;
    if (process.env["CI"] === "true") throw new Error(`${why}\n${existsSync(`${base}.log`) ? readFileSync(`${base}.log`, "utf8").slice(-4000) : ""}`);
    return { path: undefined, skip: why };
  }
  if (existsSync(base)) return { path: base, skip: false };
  return { path: undefined, skip: `${name} is not built: run \`npm run interop\` (builds it with Go into .cache/go-tools)` };
}
