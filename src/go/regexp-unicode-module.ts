/**
 * The Unicode tables of src/go/regexp-unicode-tables.ts, for ./regexp-unicode.ts. Most `crdkit validate`
 * runs never need them (only `\p{…}` classes and case folding read them), so the CLI bundle
 * (scripts/bundle.mjs) replaces this module with one that requires them on the first call from a file
 * of its own beside the bundle (dist/bundle/regexp-unicode-tables.cjs, bin/load-cli.js): loaded only by
 * the runs that use them. Everywhere else (library, browser, ES module bundles) it is the static import below.
 */
import * as tables from "./regexp-unicode-tables.js";

/** The tables module (`CATEGORIES`, `SCRIPTS`, `FOLD`, ...). */
export function unicodeTables(): typeof tables {
  return tables;
}
