import * as assert from "node:assert/strict";
import { test } from "node:test";
import { SourceText } from "./source-text.js";

/** Line and column of every offset, counted naively. */
function naive(text: string, offset: number): { line: number; column: number } {
  const off = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  let start = 0;
  for (let i = 0; i < off; i++) {
    if (text[i] === "\n") {
      line++;
      start = i + 1;
    }
  }
  return { line, column: off - start + 1 };
}

test("SourceText: positions of every offset, asked in any order, equal a naive count", () => {
  const texts = ["", "\n", "\n\n", "a", "a\n", "ab\ncd", "ab\ncd\n", "\nx\n\ny\n\n", "- a: 1\n  b: 'x\n  y'\n# c\n"];
  let seed = 7;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  for (let k = 0; k < 200; k++) {
    let t = "";
    const len = rnd(40);
    for (let i = 0; i < len; i++) t += "ab\n \u00e9"[rnd(5)];
    texts.push(t);
  }
  for (const t of texts) {
    const offsets = [-3, ...Array.from({ length: t.length + 3 }, (_, i) => i)];
    // ascending, descending and shuffled queries, each on a fresh text (line starts are found as asked)
    const orders = [offsets, [...offsets].reverse(), [...offsets].sort(() => rnd(3) - 1)];
    for (const order of orders) {
      const src = new SourceText(t);
      for (const o of order) assert.deepEqual(src.position(o), naive(t, o), `${JSON.stringify(t)} @ ${o}`);
    }
  }
});
