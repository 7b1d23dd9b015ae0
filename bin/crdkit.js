#!/usr/bin/env node
// Runs the compiled CLI. dist/ is built by `npm run build`, and by `npm ci` / `npm install` through the
// package's "prepare" script; dist/bundle/ is its bundled form (fewer modules to load: faster start),
// dist/cli/main.js the fallback.
import { statSync } from "node:fs";
import module from "node:module";

// Node.js >= 22.1 keeps compiled code between runs (no-op on older versions)
module.enableCompileCache?.();
const bundled = new URL("../dist/bundle/main.js", import.meta.url);
const unbundled = new URL("../dist/cli/main.js", import.meta.url);
/** The bundle, unless missing or older than the modules it was made from (tsc run without bundling). */
function entry() {
  try {
    return statSync(bundled).mtimeMs >= statSync(unbundled).mtimeMs ? bundled.href : unbundled.href;
  } catch {
    return unbundled.href;
  }
}
let main;
try {
  ({ main } = await import(entry()));
} catch (err) {
  process.stderr.write(
    `crdkit: cannot load the compiled CLI (dist/cli/main.js): ${err instanceof Error ? err.message : String(err)}\n` +
      "Run `npm run build` (or `npm ci`) in the crdkit directory first.\n",
  );
  process.exit(2);
}
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`crdkit: internal error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 2;
  },
);
