/**
 * A Node.js module loaded on first use instead of when the CLI starts: `crdkit validate` loads zlib only to
 * decompress the built-in schemas (repeat runs read them from the cache) and worker_threads only for `-j`,
 * and loading them (with the stream machinery zlib pulls in) is a good part of a short run's start.
 */
import { createRequire } from "node:module";

const load = createRequire(import.meta.url);

/** A getter of Node module `name`, required on its first call. */
export function lazyBuiltin<T>(name: string): () => T {
  let mod: T | undefined;
  return () => {
    mod ??= load(name) as T;
    return mod;
  };
}
