#!/usr/bin/env node
// Runs the compiled CLI. dist/ is built by `npm run build`, and by `npm ci` / `npm install` through the
// package's "prepare" script; ./load-cli.js picks the bundled form (dist/bundle/, fast start) or the
// fallback dist/cli/main.js.
import { loadCli } from "./load-cli.js";

const argv = process.argv.slice(2);
let main;
try {
  main = await loadCli(argv);
} catch (err) {
  process.stderr.write(
    `crdkit: cannot load the compiled CLI (dist/cli/main.js): ${err instanceof Error ? err.message : String(err)}\n` +
      "Run `npm run build` (or `npm ci`) in the crdkit directory first.\n",
  );
  process.exit(2);
}
main(argv).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`crdkit: internal error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 2;
  },
);
