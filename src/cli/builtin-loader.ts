/**
 * Loads the built-in kinds' schema bundle shipped with the package (`schemas/builtin.json.br`, brotli,
 * decompressed with Node's zlib) once per process.
 */
import { readFileSync } from "node:fs";
import { asBuiltinBundle } from "../builtin/bundle.js";
import { BuiltinSchemas } from "../builtin/builtin-schemas.js";
import { lazyBuiltin } from "./lazy-builtin.js";

const zlib = lazyBuiltin<typeof import("node:zlib")>("node:zlib");

/** `schemas/builtin.json.br` beside `src/` or `dist/` (both are two levels below the package root). */
export const BUILTIN_BUNDLE_URL = new URL("../../schemas/builtin.json.br", import.meta.url);

let cached: BuiltinSchemas | undefined;

/** The shipped built-in schemas (read and decompressed on first call). */
export function loadBuiltinSchemas(): BuiltinSchemas {
  if (!cached) {
    const text = zlib().brotliDecompressSync(readFileSync(BUILTIN_BUNDLE_URL)).toString("utf8");
    cached = new BuiltinSchemas(asBuiltinBundle(JSON.parse(text)));
  }
  return cached;
}
