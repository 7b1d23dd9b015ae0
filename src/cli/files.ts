/** Collecting input files: files as given, directories recursively (*.yaml, *.yml, *.json), "-" = stdin. */
import { readdirSync, readFileSync, statSync } from "node:fs";
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
