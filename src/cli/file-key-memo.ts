/**
 * The cache key of a CRD file's text without reading or hashing the file when it has not changed since it
 * was last hashed: the key is recorded with the file's device, inode, size, modification and change times
 * (nanoseconds), and reused while all five are the same. As git does for its index ("racy git"), a file
 * whose times were within {@link RACY_MS} of the moment it was read is not trusted (a change in the same
 * clock tick could keep its times): it is read and hashed again until its times are old enough.
 */
import { readFileSync, statSync, type BigIntStats } from "node:fs";
import { resolve } from "node:path";
import { InputError, readInput } from "./files.js";
import type { FileStatEntry, SchemaCache } from "./schema-cache.js";

/** How much older than the moment it was read a file's times must be for its recorded key to be trusted. */
export const RACY_MS = 2000;

/** A CRD file's cache key, and its text when it had to be read (else read on demand). */
export interface KeyedFile {
  name: string;
  key: string;
  text: () => string;
}

function same(e: FileStatEntry, st: BigIntStats): boolean {
  return e.dev === String(st.dev) && e.ino === String(st.ino) && e.size === String(st.size) && e.mtimeNs === String(st.mtimeNs) && e.ctimeNs === String(st.ctimeNs);
}

function settled(st: BigIntStats, checkedAt: number): boolean {
  let newest = st.mtimeNs;
  if (st.ctimeNs > newest) newest = st.ctimeNs;
  return Number(newest / 1_000_000n) + RACY_MS < checkedAt;
}

/**
 * The key of the CRD file `path` (a file path, not `-`): from the cache's record when the file is unchanged,
 * else read and hashed now (and recorded). Throws InputError as reading it would. `now`: the clock (tests).
 */
export function keyedCrdFile(cache: SchemaCache, path: string, now: () => number = Date.now): KeyedFile {
  const abs = resolve(path);
  let st: BigIntStats | undefined;
  try {
    st = statSync(abs, { bigint: true });
  } catch {
    // unreadable: reading it reports the error
  }
  const e = st?.isFile() ? cache.getFileStat(abs) : undefined;
  if (e && st && same(e, st) && settled(st, e.checkedAt)) {
    let text: string | undefined;
    return {
      name: path,
      key: e.key,
      text: () => {
        if (text === undefined) {
          try {
            text = readFileSync(abs, "utf8");
          } catch (err) {
            throw new InputError(`cannot read ${path}: ${(err as Error).message}`);
          }
        }
        return text;
      },
    };
  }
  const checkedAt = now();
  const f = readInput(path);
  const key = cache.fileKey(f.text);
  if (st?.isFile()) {
    // recorded with the times from before the read: a change during the read makes them differ next time
    cache.putFileStat({ path: abs, dev: String(st.dev), ino: String(st.ino), size: String(st.size), mtimeNs: String(st.mtimeNs), ctimeNs: String(st.ctimeNs), checkedAt, key });
  }
  return { name: f.name, key, text: () => f.text };
}
