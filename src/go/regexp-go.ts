/**
 * Go's `regexp/syntax` as crdkit has it: the parser (./regexp-syntax.ts) and the compiler
 * (./regexp-compile.ts), with Go's Unicode tables, for ./regexp.ts through ./regexp-go-module.ts. The CLI
 * bundle makes this module and everything it imports a file of its own, loaded by the first pattern
 * outside the simple subset (./regexp-simple.ts), so most runs neither read nor compile it.
 *
 * @module
 */
export { compileProg } from "./regexp-compile.js";
export { GoSyntaxError, parseGoRegexp } from "./regexp-syntax.js";
