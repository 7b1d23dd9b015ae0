/**
 * Inputs that can be read only once — standard input (`-`) and the pipes, FIFOs and devices named on the
 * command line (`/dev/stdin`, a shell's `<(helm template …)`, which is `/dev/fd/N`) — copied once into a private
 * temporary file as they are read (a piece at a time, so a large stream is never held in memory); the run then
 * reads that file, as often as it needs to (CRDs among the inputs are registered in a first pass). The files
 * are removed when the process exits.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Spool file by input (`-` or the path as given). */
const spooled = new Map<string, string>();
let dir: string | undefined;

const PIECE = 1 << 20;

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Path of the file holding `input` (`-`: standard input; else a path opened once here), read on the first call
 * for that input. Throws the open or read error.
 */
export function spooledInput(input: string): string {
  const known = spooled.get(input);
  if (known !== undefined) return known;
  if (dir === undefined) {
    const d = mkdtempSync(join(tmpdir(), "crdkit-stdin-"));
    dir = d;
    process.once("exit", () => rmSync(d, { recursive: true, force: true }));
  }
  const path = join(dir, String(spooled.size));
  const from = input === "-" ? 0 : openSync(input, "r");
  const out = openSync(path, "w", 0o600);
  const buf = Buffer.allocUnsafe(PIECE);
  try {
    for (;;) {
      let n: number;
      try {
        n = readSync(from, buf, 0, PIECE, null);
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
    if (from !== 0) closeSync(from);
  }
  spooled.set(input, path);
  return path;
}
