/**
 * Progress of a long `crdkit validate` run on stderr: `files done/total, rate`, rewritten in place. Only
 * when stderr is a terminal and not in CI (`CI` set), and only once the run has taken a while, so short
 * runs and logs stay clean.
 */
export interface ProgressIo {
  write: (s: string) => void;
  isTTY: boolean;
  env: Record<string, string | undefined>;
  now: () => number;
}

/** Whether progress is shown at all. */
export function progressEnabled(io: Pick<ProgressIo, "isTTY" | "env">): boolean {
  const ci = io.env["CI"];
  return io.isTTY && (ci === undefined || ci === "" || ci === "0" || ci.toLowerCase() === "false");
}

/** The progress line for `done` of `total` files after `ms` milliseconds. */
export function progressLine(done: number, total: number, ms: number): string {
  const rate = ms > 0 ? (done * 1000) / ms : 0;
  return `${done}/${total} files, ${rate >= 10 ? Math.round(rate) : rate.toFixed(1)} files/s`;
}

/**
 * A reporter: `update` after each file, `clear` before other stderr output (a warning) so that it does not
 * land on the progress line (the next `update` redraws it), `end` clears the line. Silent until `delayMs`
 * have passed.
 */
export function progressReporter(
  io: ProgressIo,
  delayMs = 1000,
): { enabled: boolean; update: (done: number, total: number) => void; clear: () => void; end: () => void } {
  if (!progressEnabled(io)) return { enabled: false, update: () => {}, clear: () => {}, end: () => {} };
  const start = io.now();
  let last = -Infinity;
  let shown = false;
  const clear = () => {
    if (shown) io.write("\r\u001b[K");
    shown = false;
  };
  return {
    enabled: true,
    update(done, total) {
      const t = io.now();
      if (t - start < delayMs || (t - last < 100 && done < total)) return;
      last = t;
      shown = true;
      io.write(`\r\u001b[K${progressLine(done, total, t - start)}`);
    },
    clear,
    end: clear,
  };
}
