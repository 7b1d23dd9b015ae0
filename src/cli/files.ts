/** Collecting input files: files as given, directories recursively (*.yaml, *.yml, *.json), "-" = stdin. */
import { closeSync, openSync, readSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

export interface InputFile {
  /** The path as shown in messages (`-` → `<stdin>`). */
  name: string;
  text: string;
}

/** An I/O problem (exit code 2). */
export class InputError extends Error {}

const EXTENSIONS = /\.(ya?ml|json)$/i;

function walk(dir: string, out: string[], exclude?: (path: string) => boolean): void {
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch (e) {
    throw new InputError(`cannot read directory ${dir}: ${(e as Error).message}`);
  }
  for (const name of entries) {
    if (name.startsWith(".") || name === "node_modules") continue;
    const p = join(dir, name);
    if (exclude?.(p)) continue;
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(p);
    } catch {
      continue;
    }
    if (st.isDirectory()) walk(p, out, exclude);
    else if (st.isFile() && EXTENSIONS.test(name)) out.push(p);
  }
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
    else out.push(p);
  }
  return out;
}

let stdinText: string | undefined;

/** Reads a file (or stdin once) as UTF-8. */
export function readInput(path: string): InputFile {
  if (path === "-") {
    if (stdinText === undefined) {
      try {
        stdinText = readFileSync(0, "utf8");
      } catch (e) {
        throw new InputError(`cannot read standard input: ${(e as Error).message}`);
      }
    }
    return { name: "<stdin>", text: stdinText };
  }
  try {
    return { name: path, text: readFileSync(path, "utf8") };
  } catch (e) {
    throw new InputError(`cannot read ${path}: ${(e as Error).message}`);
  }
}

/**
 * Whether an input's text contains one of the ASCII `needles` (the same answer as on its UTF-8 text),
 * reading the file's bytes in chunks: no text is decoded and a large input is never held (the run reads
 * it again to validate it). Standard input is read once, as text.
 */
export function inputIncludes(path: string, needles: readonly string[]): boolean {
  if (path === "-") {
    const { text } = readInput(path);
    return needles.some((n) => text.includes(n));
  }
  const keep = Math.max(0, ...needles.map((n) => n.length - 1));
  const buf = Buffer.allocUnsafe(SCAN_CHUNK + keep);
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
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
    throw new InputError(`cannot read ${path}: ${(e as Error).message}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

const SCAN_CHUNK = 1 << 20;
