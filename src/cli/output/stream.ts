/**
 * Streaming output: results are formatted and written as they come, then forgotten, so memory does not
 * grow with the number of documents. Any formatter shaped `header + items joined by a separator + footer`
 * (text, json, github) streams: the text of one result is what `format([r])` adds to `format([])`, the
 * separator what `format([r, r])` adds to two of them. A formatter of another shape is buffered (all
 * results, then one call). Writes are batched.
 */
import { type Result, type Summary, summarize } from "../results.js";

export type Formatter = (results: readonly Result[], summary: Summary) => string;

const ZERO: Summary = { resources: 0, valid: 0, invalid: 0, skipped: 0 };
const BATCH = 64 * 1024;

export class StreamingOutput {
  /** `format([], ZERO)`: header + footer. */
  private readonly empty: string;
  /** Header length, once known; -1 when the formatter does not stream (then results are buffered). */
  private head: number | undefined;
  private separator: string | undefined;
  private started = false;
  private buf = "";
  private readonly buffered: Result[] = [];
  private readonly summary: Summary = { ...ZERO };

  constructor(
    private readonly format: Formatter,
    private readonly write: (s: string) => void,
  ) {
    this.empty = format([], ZERO);
  }

  /** The text of `rs` between header and footer, or undefined when the output is not header + items + footer. */
  private items(rs: Result[], head: number): string | undefined {
    const full = this.format(rs, ZERO);
    const footer = this.empty.length - head;
    if (full.length < this.empty.length || !full.startsWith(this.empty.slice(0, head)) || !full.endsWith(this.empty.slice(head))) return undefined;
    return full.slice(head, full.length - footer);
  }

  /**
   * Finds the header length with a first result: the shortest header that fits and does not depend on
   * the summary (JUnit's does: it is buffered).
   */
  private learn(r: Result): void {
    const other = this.format([], { resources: 7, valid: 3, invalid: 2, skipped: 2 });
    for (let h = 0; h <= this.empty.length; h++) {
      if (!other.startsWith(this.empty.slice(0, h))) break;
      const one = this.items([r], h);
      if (one === undefined) continue;
      const two = this.items([r, r], h);
      if (two === undefined || !two.startsWith(one) || !two.endsWith(one) || two.length < 2 * one.length) continue;
      this.head = h;
      if (one !== "") this.separator = two.slice(one.length, two.length - one.length);
      return;
    }
    this.head = -1;
  }

  add(r: Result): void {
    const s = summarize([r]);
    this.summary.resources += s.resources;
    this.summary.valid += s.valid;
    this.summary.invalid += s.invalid;
    this.summary.skipped += s.skipped;
    if (this.head === undefined) this.learn(r);
    if (this.head === -1) {
      this.buffered.push(r);
      return;
    }
    const text = this.items([r], this.head!)!;
    if (text === "") return;
    if (this.separator === undefined) {
      // first result with text: the separator is learnt from it
      const two = this.items([r, r], this.head!) ?? text + text;
      this.separator = two.slice(text.length, two.length - text.length);
    }
    if (!this.started) {
      this.buf += this.empty.slice(0, this.head);
      this.started = true;
    } else this.buf += this.separator;
    this.buf += text;
    if (this.buf.length >= BATCH) this.flush();
  }

  /** Writes the footer (with the summary of everything added); returns the summary. */
  end(): Summary {
    const summary = { ...this.summary };
    if (this.head === -1) this.buf += this.format(this.buffered, summary);
    else {
      const final = this.format([], summary);
      this.buf += this.started ? final.slice(this.head ?? 0) : final;
    }
    this.flush();
    return summary;
  }

  private flush(): void {
    if (this.buf !== "") this.write(this.buf);
    this.buf = "";
  }
}
