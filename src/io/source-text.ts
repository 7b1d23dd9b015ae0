/**
 * Source text with lazily computed line starts: offsets → 1-based line and column.
 * Lines are only indexed when a position is asked for, and only as far as that position.
 */
export interface Position {
  /** 1-based line. */
  line: number;
  /** 1-based column (UTF-16 code units). */
  column: number;
}

export class SourceText {
  /** Line starts found so far, in order (from the text's start). */
  private readonly lineStarts: number[] = [0];
  /** Whether every line start is in {@link lineStarts}. */
  private complete = false;
  constructor(readonly text: string) {}

  /**
   * Finds line starts up to the first one past `off` (or the last): a document's own position, near its
   * start, does not index the lines after it.
   */
  private reach(off: number): void {
    const s = this.lineStarts;
    const t = this.text;
    let last = s[s.length - 1]!;
    while (!this.complete && last <= off) {
      const i = t.indexOf("\n", last);
      if (i === -1) {
        this.complete = true;
        break;
      }
      last = i + 1;
      s.push(last);
    }
  }

  /** Position of an offset (clamped to the text). */
  position(offset: number): Position {
    const off = Math.max(0, Math.min(offset, this.text.length));
    this.reach(off);
    const starts = this.lineStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= off) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: off - starts[lo]! + 1 };
  }
}
