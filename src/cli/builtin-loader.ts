/**
 * Loads the built-in kinds' schema bundle shipped with the package (`schemas/builtin.json.br`, brotli,
 * decompressed with Node's zlib) once per process.
 */
import { readFileSync } from "node:fs";
import { asBuiltinBundle } from "../builtin/bundle.js";
import { BuiltinSchemas } from "../builtin/builtin-schemas.js";
import { BUILTIN_BUNDLE_URL } from "./builtin-bundle-url.js";
import { lazyBuiltin } from "./lazy-builtin.js";

const zlib = lazyBuiltin<typeof import("node:zlib")>("node:zlib");


let cached: BuiltinSchemas | undefined;

/** The shipped built-in schemas (read and decompressed on first call). */
export function loadBuiltinSchemas(): BuiltinSchemas {
  if (!cached) {
    const text = zlib().brotliDecompressSync(readFileSync(BUILTIN_BUNDLE_URL)).toString("utf8");
    cached = new BuiltinSchemas(asBuiltinBundle(JSON.parse(text)));
  }
  return cached;
}
