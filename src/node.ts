/**
 * The package's Node.js entry (`crdkit`): the engine of `index.ts` plus what needs Node's file system and
 * zlib — the bundled schemas of built-in kinds. Browsers get `browser.ts` (the engine without them).
 */
export * from "./index.js";
export { loadBuiltinSchemas } from "./cli/builtin-loader.js";
