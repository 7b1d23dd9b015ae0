/**
 * Finds a Go program built by scripts/go-tools.mjs (`.cache/go-tools/<name>`), or says why a test that needs
 * it is skipped: Go is not installed, the build is still running (.ci/run runs these tests after `npm test`,
 * once the background build is done), the build failed, or nobody built it (`npm run interop`).
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

export const GO_TOOLS_DIR = resolve(import.meta.dirname, "..", "..", ".cache", "go-tools");

/** The binary's path, or the reason to skip. An environment variable (e.g. K8S_SERVER_ORACLE) overrides the cache. */
export function goTool(name: "kube-apiserver" | "etcd-3.6", envVar: string): { path: string; skip: false } | { path: undefined; skip: string } {
  const fromEnv = process.env[envVar];
  if (fromEnv) return existsSync(fromEnv) ? { path: fromEnv, skip: false } : { path: undefined, skip: `${envVar}=${fromEnv} does not exist` };
  if (process.env["CRDKIT_GO_TOOLS_DEFERRED"] === "1") return { path: undefined, skip: `${name}: .ci/run runs this after npm test, once its Go build is done` };
  const base = join(GO_TOOLS_DIR, name);
  const exit = existsSync(`${base}.exit`) ? readFileSync(`${base}.exit`, "utf8").trim() : undefined;
  if (exit === "no-go") return { path: undefined, skip: `${name}: Go is not installed` };
  if (exit === undefined && existsSync(`${base}.pending`)) return { path: undefined, skip: `${name}: still building (scripts/go-tools.mjs)` };
  if (exit !== undefined && exit !== "0") return { path: undefined, skip: `${name}: the Go build failed (${exit}); see ${base}.log` };
  if (existsSync(base)) return { path: base, skip: false };
  return { path: undefined, skip: `${name} is not built: run \`npm run interop\` (builds it with Go into .cache/go-tools)` };
}
