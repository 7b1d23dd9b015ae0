// Bundles the compiled CLI (dist/cli/main.js) into a few ES modules in dist/bundle/ with esbuild, run by
// `npm run build` after tsc: one file for `crdkit validate` instead of ~150 modules makes a cold start
// ~30 ms cheaper. `crdkit serve` stays a separate chunk (loaded on demand); packages from node_modules stay
// external. bin/crdkit.js falls back to dist/cli/main.js when the bundle is missing (esbuild not installed).
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outdir = join(root, "dist", "bundle");
let esbuild;
try {
  esbuild = await import("esbuild");
} catch {
  rmSync(outdir, { recursive: true, force: true });
  console.error("bundle: esbuild is not installed; bin/crdkit.js runs the unbundled dist/cli/main.js");
  process.exit(0);
}
rmSync(outdir, { recursive: true, force: true });
await esbuild.build({
  entryPoints: { main: join(root, "dist", "cli", "main.js"), "validate-worker": join(root, "dist", "cli", "validate-worker.js"), "serve-worker": join(root, "dist", "cli", "serve-worker.js") },
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  logLevel: "warning",
});
