/** `crdkit --version` / `crdkit version`: the version in the package's package.json. */
import { readFileSync } from "node:fs";

let cached: string | undefined;

/** The package version (`0.1.0`), read once from package.json next to `src/` or `dist/`. */
export function packageVersion(): string {
  if (cached === undefined) {
    try {
      const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version?: unknown };
      cached = typeof pkg.version === "string" ? pkg.version : "unknown";
    } catch {
      cached = "unknown";
    }
  }
  return cached;
}

/** The `crdkit version` line. */
export function versionLine(): string {
  return `crdkit ${packageVersion()} (node ${process.versions.node})\n`;
}
