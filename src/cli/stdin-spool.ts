/**
 * Standard input of a `crdkit` run, copied once into a private temporary file as it is read (a piece at a
 * time, so a large stream is never held in memory); the run then reads that file, as often as it needs to
 * (CRDs among the inputs are registered in a first pass). The file is removed when the process exits.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

let spooled: string | undefined;

const PIECE = 1 << 20;

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Path of the file holding standard input (read on the first call). Throws the read error. */
export function stdinFile(): string {
  if (spooled !== undefined) return spooled;
  const dir = mkdtempSync(join(tmpdir(), "crdkit-stdin-"));
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, "stdin");
  const out = openSync(path, "w", 0o600);
  const buf = Buffer.allocUnsafe(PIECE);
  try {
    for (;;) {
      let n: number;
      try {
        n = readSync(0, buf, 0, PIECE, null);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        // a non-blocking pipe or terminal with nothing to read yet
        if (code === "EAGAIN") {
          pause(2);
          continue;
        }
        if (code === "EOF") break;
        throw e;
      }
      if (n === 0) break;
      for (let done = 0; done < n; ) done += writeSync(out, buf, done, n - done);
    }
  } finally {
    closeSync(out);
  }
  spooled = path;
  return path;
}
