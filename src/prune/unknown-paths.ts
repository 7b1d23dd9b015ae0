/**
 * apiextensions `UnknownFieldPathOptions`: a segment stack that is joined only when an unknown field is
 * recorded, so walking a well-formed object builds no strings at all. Paths look like `spec.list[1].b`
 * (keys joined with `.`, indices as `[i]`, no leading dot at the root).
 */
export class UnknownPathTracker {
  /** The current parent path as segments (`"."`, keys, `"[" i "]"`). */
  readonly parent: string[] = [];
  /** Recorded unknown paths, in discovery order. */
  readonly paths: string[] = [];

  constructor(readonly track: boolean) {}

  /** Appends a key segment (with a `.` separator unless at the root); returns the previous length. */
  pushKey(key: string): number {
    const n = this.parent.length;
    if (!this.track) return n;
    if (n > 0) this.parent.push(".");
    this.parent.push(key);
    return n;
  }

  /** Appends an index segment; returns the previous length. */
  pushIndex(i: number): number {
    const n = this.parent.length;
    if (this.track) this.parent.push(`[${i}]`);
    return n;
  }

  /** Restores the stack to a length returned by {@link pushKey}/{@link pushIndex}. */
  pop(n: number): void {
    this.parent.length = n;
  }

  /** True when the current parent path is non-empty (Go `len(opts.ParentPath) > 0`). */
  hasParent(): boolean {
    return this.parent.length > 0;
  }

  /** Records `<parent>.<field>` as unknown. */
  record(field: string): void {
    if (!this.track) return;
    const n = this.pushKey(field);
    this.paths.push(this.parent.join(""));
    this.pop(n);
  }
}
