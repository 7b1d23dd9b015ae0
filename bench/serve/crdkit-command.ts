/**
 * How the server benches start `crdkit` from a checkout: the built CLI (`bin/crdkit.js`, the dist/ users run)
 * when dist/ is at least as new as every file under src/, else the sources through tsx
 * (`crdkit-process.ts`). The two are not alike: tsx compiles with esbuild's keepNames, which wraps every
 * function and closure created at run time in a `__name` call (Object.defineProperty), measured at about
 * twice the CPU of the built code in admission — so a bench compares built trees (`npm run build` in each),
 * and says which way each ran.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** Newest modification time (ms) of the files under `dir`, 0 when it does not exist. */
function newestMtime(dir: string): number {
  let newest = 0;
  let entries: import("node:fs").Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function mtime(p: string): number {
  try {
    return statSync(p).mtimeMs;
  } catch {
    return 0;
  }
}

/** The node arguments that run `crdkit` from the checkout at `root`, and which form they run. */
export function crdkitCommand(root: string): { args: string[]; built: boolean } {
  const built = mtime(join(root, "dist", "cli", "main.js"));
  if (built > 0 && built >= newestMtime(join(root, "src"))) return { args: [join(root, "bin", "crdkit.js")], built: true };
  return { args: ["--import", "tsx", join(root, "bench", "serve", "crdkit-process.ts")], built: false };
}

/** How a tree ran, for the bench's output. */
export function describeRun(label: string, built: boolean): string {
  return built ? `${label}: built CLI (bin/crdkit.js)` : `${label}: sources through tsx (dist/ missing or older than src/: run npm run build to measure the built CLI)`;
}
