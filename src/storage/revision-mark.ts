/**
 * A revision high-water mark kept outside the database: a small file, replaced atomically and fsynced,
 * that always holds a revision at least as high as any the store has handed out. Revisions are reserved
 * ahead of use in blocks, so the file is written once per block. A database that lost committed
 * transactions (its WAL deleted after a crash) reopens below the mark; the store then continues strictly
 * above it, so no resourceVersion a client has seen is handed out again.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { dirname } from "node:path";

/** Revisions reserved per write of the mark file. */
export const REVISION_BLOCK = 1000;

export class RevisionMark {
  private reserved: number;

  /** Reads the mark at `path` (0 when the file does not exist); a file that does not parse throws. */
  constructor(private readonly path: string) {
    let text: string | undefined;
    try {
      text = readFileSync(path, "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    }
    if (text === undefined) this.reserved = 0;
    else {
      const m = /^(\d+)\n?$/.exec(text);
      if (!m) throw new Error(`revision mark ${path} is damaged: ${JSON.stringify(text.slice(0, 40))}`);
      this.reserved = Number(m[1]);
    }
  }

  /** The highest revision that may have been handed out. */
  get value(): number {
    return this.reserved;
  }

  /** Makes sure `revision` is covered by the mark, writing a new block to disk first when it is not. */
  ensure(revision: number): void {
    if (revision <= this.reserved) return;
    this.write(revision + REVISION_BLOCK - 1);
  }

  /** Lowers the mark to `revision` after a clean shutdown (nothing above it was handed out). */
  settle(revision: number): void {
    if (revision < this.reserved) this.write(revision);
  }

  private write(value: number): void {
    const tmp = `${this.path}.tmp`;
    const fd = openSync(tmp, "w");
    try {
      writeSync(fd, `${value}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.path);
    const dir = openSync(dirname(this.path), "r");
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
    this.reserved = value;
  }
}
