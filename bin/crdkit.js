#!/usr/bin/env node
// Runs the compiled CLI. dist/ is built by `npm run build`, and by `npm ci` / `npm install` through the
// package's "prepare" script; ./load-cli.js picks the bundled form (dist/bundle/, fast start) or the
// fallback dist/cli/main.js.
// bin/ is CommonJS (bin/package.json): a CommonJS entry point spares every run Node's ES module loader
// (resolving and linking the entry and its import, ~5 ms of a short `validate` run); the ES module
// bundles are still imported for the commands that use them.
"use strict";
const { loadCli } = require("./load-cli.js");

async function run(argv) {
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
  try {
    process.exitCode = await main(argv);
  } catch (err) {
    process.stderr.write(`crdkit: internal error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 2;
  }
}

run(process.argv.slice(2));
