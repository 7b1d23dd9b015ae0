#!/usr/bin/env node
// Runs the compiled CLI (dist/ is built by `npm run build`, and by `npm ci` through the "prepare" script).
import { main } from "../dist/cli/main.js";

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`crdkit: internal error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 2;
  },
);
