// Builds tools/k8s-oracle (Go) into node_modules/.cache/k8s-oracle and returns the binary path.
// Shared by scripts/golden.mjs and scripts/fuzz-k8s.mjs. Needs the Go toolchain (and the Go module
// proxy on a fresh machine); the build cache and module cache stay in Go's default locations.
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Compiles the oracle (incremental; a no-op when nothing changed) and returns its path. */
export function buildOracle() {
  const outDir = join(repoRoot, "node_modules", ".cache", "k8s-oracle");
  mkdirSync(outDir, { recursive: true });
  const bin = join(outDir, process.platform === "win32" ? "k8s-oracle.exe" : "k8s-oracle");
  try {
    execFileSync("go", ["build", "-o", bin, "."], {
      cwd: join(repoRoot, "tools", "k8s-oracle"),
      stdio: ["ignore", "inherit", "inherit"],
    });
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    throw new Error(`building tools/k8s-oracle failed (is the Go toolchain installed? see tools/k8s-oracle/README.md): ${msg}`);
  }
  return bin;
}
