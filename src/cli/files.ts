/** Collecting input files: files as given, directories recursively (*.yaml, *.yml, *.json), "-" = stdin. */
import { type Dirent, closeSync, fstatSync, openSync, readSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { StringDecoder } from "node:string_decoder";
import { spooledInput } from "./input-spool.js";

export interface InputFile {
  /** The path as shown in messages (`-` → `<stdin>`). */
  name: string;
  text: string;
}

/** An I/O problem (exit code 2). */
export class InputError extends Error {}

const EXTENSIONS = /\.(ya?ml|json)$/i;

function walk(dir: string, out: string[], exclude?: (path: string) => boolean): void {
  let entries: Dirent[];
  try {
    // the entries' types come with the listing: only links (and file systems that do not tell) are stat'ed
    entries = readdirSync(dir, { withFileTypes: true }).sort(byName);
  } catch (e) {
    throw new InputError(`cannot read directory ${dir}: ${(e as Error).message}`);
  }
  for (const entry of entries) {
    const name = entry.name;
    if (name.startsWith(".") || name === "node_modules") continue;
    const p = join(dir, name);
    if (exclude?.(p)) continue;
    let st: { isDirectory(): boolean; isFile(): boolean } = entry;
    if (!entry.isDirectory() && !entry.isFile()) {
      try {
        st = statSync(p);
      } catch {
        continue;
      }
    }
    if (st.isDirectory()) walk(p, out, exclude);
    else if (st.isFile() && EXTENSIONS.test(name)) out.push(p);
  }
}

/** The order of `Array.prototype.sort` on the names (UTF-16 code units). */
function byName(a: Dirent, b: Dirent): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** Expands paths into the files to read, in a stable order, leaving out what `exclude` matches. */
export function expandPaths(paths: readonly string[], exclude?: (path: string) => boolean): string[] {
  const out: string[] = [];
  for (const p of paths) {
    if (p === "-") {
      out.push("-");
      continue;
    }
    if (exclude?.(p)) continue;
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(p);
    } catch {
      throw new InputError(`cannot read ${p}: no such file or directory`);
    }
    if (st.isDirectory()) walk(p, out, exclude);
    else {
      if (!st.isFile()) streams.add(p);
      out.push(p);
    }
  }
  return out;
}

/**
 * Paths named on the command line that are neither a regular file nor a directory: a pipe, FIFO or device
 * (`/dev/stdin`, a shell's `<(…)`), which can be read only once, so they are read through a spool as `-` is.
 */
const streams = new Set<string>();

/** Whether an input can be read only once (`-`, or a path that is a pipe, FIFO or device). */
export function isStreamInput(p: string): boolean {
  if (p === "-" || streams.has(p)) return true;
  try {
    const st = statSync(p);
    return !st.isFile() && !st.isDirectory();
  } catch {
    return false;
  }
}

/**
 * The file to read for an input path: standard input (`-`) and the pipes and devices named on the command line
 * are read once into a temporary file.
 */
function inputFile(path: string): string {
  if (path !== "-" && !streams.has(path)) return path;
  try {
    return spooledInput(path);
  } catch (e) {
    throw new InputError(`cannot read ${path === "-" ? "standard input" : path}: ${(e as Error).message}`);
  }
}

/** Reads a file (or stdin) as UTF-8. */
export function readInput(path: string): InputFile {
  const file = inputFile(path);
  try {
    return { name: path === "-" ? "<stdin>" : path, text: readFileSync(file, "utf8") };
  } catch (e) {
    throw new InputError(`cannot read ${path === "-" ? "standard input" : path}: ${(e as Error).message}`);
  }
}

/** Size in bytes of a file (or stdin); 0 when it cannot be read (reading it then reports the error). */
export function inputSize(path: string): number {
  try {
    return statSync(inputFile(path)).size;
  } catch {
    return 0;
  }
}

/** Files up to this size are read in one piece (one string, no copies while splitting it). */
const WHOLE = 32 << 20;

/**
 * The UTF-8 text of a file (or stdin) in pieces, read as they are iterated (as {@link readInput} decodes
 * it: malformed bytes become U+FFFD): a file of up to 32 MiB in one piece, a larger one in pieces of 1 MiB,
 * so that memory stays bounded however long a stream of documents is. Throws InputError. `sized.size` is
 * set to the file's size in bytes (what {@link inputSize} says) before the first piece is given: the
 * reader's own `fstat` answers it, with no `stat` of the path beforehand.
 */
export function* readInputPieces(path: string, sized?: { size: number }): Generator<string> {
  const file = inputFile(path);
  const fail = (e: unknown) => new InputError(`cannot read ${path === "-" ? "standard input" : path}: ${(e as Error).message}`);
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (e) {
    throw fail(e);
  }
  try {
    let whole: string | undefined;
    try {
      const size = fstatSync(fd).size;
      if (sized) sized.size = size;
      if (size <= WHOLE) whole = readFileSync(fd, "utf8");
    } catch (e) {
      throw fail(e);
    }
    if (whole !== undefined) {
      yield whole;
      return;
    }
    const buf = Buffer.allocUnsafe(SCAN_CHUNK);
    const decoder = new StringDecoder("utf8");
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, buf, 0, SCAN_CHUNK, null);
      } catch (e) {
        throw fail(e);
      }
      if (n === 0) break;
      yield decoder.write(buf.subarray(0, n));
    }
    yield decoder.end();
  } finally {
    closeSync(fd);
  }
}

/**
 * Whether an input's text contains one of the ASCII `needles` (the same answer as on its UTF-8 text),
 * reading the file's bytes in chunks: no text is decoded and a large input is never held (the run reads
 * it again to validate it).
 */
export function inputIncludes(path: string, needles: readonly string[]): boolean {
  const file = inputFile(path);
  const keep = Math.max(0, ...needles.map((n) => n.length - 1));
  const buf = scanBuffer(SCAN_CHUNK + keep);
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    // each chunk is searched after the last `keep` bytes of the one before (a needle across the boundary)
    let carried = 0;
    for (;;) {
      const n = readSync(fd, buf, carried, SCAN_CHUNK, null);
      if (n === 0) return false;
      const view = buf.subarray(0, carried + n);
      if (needles.some((x) => view.includes(x, 0, "latin1"))) return true;
      carried = Math.min(keep, view.length);
      view.copy(buf, 0, view.length - carried);
    }
  } catch (e) {
    throw new InputError(`cannot read ${path === "-" ? "standard input" : path}: ${(e as Error).message}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

const SCAN_CHUNK = 1 << 20;

let scanBuf: Buffer | undefined;

/**
 * The buffer {@link inputIncludes} reads into, one for the process (the search is synchronous): a run
 * scans every input file, and a fresh 1 MiB buffer per file cost its allocation, page faults and the
 * garbage collections its external memory triggered.
 */
function scanBuffer(size: number): Buffer {
  if (scanBuf === undefined || scanBuf.length < size) scanBuf = Buffer.allocUnsafeSlow(size);
  return scanBuf;
}
