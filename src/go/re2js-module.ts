/**
 * The re2js package, for ./regexp.ts. Most `crdkit validate` runs never start re2js (./regexp-simple.ts
 * answers the common patterns), so the CLI bundle (scripts/bundle.mjs) replaces this module with one that
 * requires re2js on the first call from a file of its own beside the bundle (dist/bundle/re2js.cjs, with a
 * V8 code-cache entry of its own, bin/load-cli.js): loaded, compiled and initialised only by the runs that
 * use it. Everywhere else (library, browser, ES module bundles) it is the static import below.
 */
import * as re2js from "re2js";

/** The re2js module (`RE2JS`, `RE2JSSyntaxException`, ...). */
export function re2jsModule(): typeof re2js {
  return re2js;
}
