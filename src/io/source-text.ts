/**
 * Source text with lazily computed line starts: offsets → 1-based line and column.
 * Lines are only indexed when a position is first asked for (positions are only needed for documents
 * that have errors).
 */
export interface Position {
  /** 1-based line. */
  line: number;
  /** 1-based column (UTF-16 code units). */
  column: number;
}

export class SourceText {
  private lineStarts: number[] | undefined;
  constructor(readonly text: string) {}

  private starts(): number[] {
    if (this.lineStarts) return this.lineStarts;
    const s = [0];
    const t = this.text;
    let i = t.indexOf("\n");
    while (i !== -1) {
      s.push(i + 1);
      i = t.indexOf("\n", i + 1);
    }
    this.lineStarts = s;
    return s;
  }

  /** Position of an offset (clamped to the text). */
  position(offset: number): Position {
    const starts = this.starts();
    const off = Math.max(0, Math.min(offset, this.text.length));
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
