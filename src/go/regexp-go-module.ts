/**
 * Go's regexp parser and compiler (./regexp-go.ts), for ./regexp.ts. Most `crdkit validate` runs never
 * need them (./regexp-simple.ts compiles the common patterns), so the CLI bundle (scripts/bundle.mjs)
 * replaces this module with one that requires them on the first call from a file of their own beside
 * the bundle (dist/bundle/regexp-go.cjs, with a V8 code-cache entry of its own, bin/load-cli.js): read,
 * compiled and initialised only by the runs that use them. Everywhere else (library, browser, ES module
 * bundles) it is the static import below.
 */
import * as go from "./regexp-go.js";

/** The parser and compiler module (`parseGoRegexp`, `GoSyntaxError`, `compileProg`). */
export function goRegexpModule(): typeof go {
  return go;
}
