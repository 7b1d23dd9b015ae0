import * as assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { corpusRoot } from "../../test/corpus-root.js";
import { type DecodedDocument, decodeDocumentPieces, decodeDocuments } from "./decode.js";

/** Everything a caller can observe of decoded documents, positions of every top-level field included. */
function observe(docs: Iterable<DecodedDocument>): unknown[] {
  const out: unknown[] = [];
  for (const d of docs) {
    const fields = d.value !== null && typeof d.value === "object" && !Array.isArray(d.value) ? Object.keys(d.value) : [];
    out.push({
      index: d.index,
      value: d.value,
      problem: d.problem,
      strictErrors: d.strictErrors,
      strictErrorPosition: d.strictErrorPosition,
      at: ["<nil>", "", ...fields, ...fields.map((f) => `${f}.name`)].map((p) => d.locate(p)),
    });
  }
  return out;
}

/** The text cut into pieces of 1..max code units (a seeded walk, so failures repeat). */
function pieces(text: string, max: number, seed: number): string[] {
  const out: string[] = [];
  let s = seed;
  for (let i = 0; i < text.length; ) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    const n = 1 + (s % max);
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

const cases: [string, string][] = [
  ["plain", "a: 1\n---\nb: 2\n"],
  ["no final newline", "a: 1\n---\nb: [1,\n  2]"],
  ["byte-order mark", "\ufeffa: 1\n---\nb: 2\n"],
  ["bad separator", "a: 1\n--- x\nb: 2\n---\nc: 3\n"],
  ["separator with comment", "a: 1\n--- # next\nb: 2\n"],
  ["syntax error in the second document", "a: 1\n---\nb: {c: 1\nd: 2\n---\ne: 3\n"],
  ["duplicate keys", "a: 1\n---\nb: 1\nb: 2\n"],
  ["CRLF", "a: 1\r\n---\r\nb: 2\r\n"],
  ["blank and null documents", "\n\n---\n---\nnull\n---\n~\n---\na: 1\n"],
  ["JSON stream", '{"a": 1}\n{"b": 2}\n'],
  ["JSON after blanks", '  \n\n {"a": [1, 2]}'],
  ["not JSON after all", "{a: 1, b: [x]}\n"],
  ["only blanks", "  \n \n"],
  ["empty", ""],
  ["multi-byte text", "a: héllo wörld 😀\n---\nb: ✓\nc: [1, 2\n"],
  ["--- at the very end", "a: 1\n---"],
];

for (const [name, text] of cases) {
  test(`decodeDocumentPieces: ${name} — the same documents and positions as the whole text, in any pieces`, () => {
    const want = observe(decodeDocuments(text));
    assert.deepEqual(observe(decodeDocumentPieces([text])), want);
    for (const max of [1, 2, 3, 7]) assert.deepEqual(observe(decodeDocumentPieces(pieces(text, max, max))), want, `pieces of up to ${max}`);
  });
}

test("decodeDocumentPieces: corpus example files cut into pieces decode as the whole files", () => {
  const root = corpusRoot();
  let files = 0;
  for (const project of ["gateway-api", "kyverno", "istio"]) {
    const dir = join(root, project, "examples");
    for (const f of readdirSync(dir).sort().slice(0, 40)) {
      const text = readFileSync(join(dir, f), "utf8");
      assert.deepEqual(observe(decodeDocumentPieces(pieces(text, 4096, files + 1))), observe(decodeDocuments(text)), f);
      files++;
    }
  }
  assert.ok(files >= 100, `${files} files`);
});

test("decodeDocumentPieces: a document is decoded before the next pieces are read", () => {
  let read = 0;
  function* source(): Generator<string> {
    for (let i = 0; i < 1000; i++) {
      read++;
      yield `name: doc-${i}\n---\n`;
    }
  }
  const it = decodeDocumentPieces(source())[Symbol.iterator]();
  const first = it.next();
  assert.deepEqual(first.value?.value, { name: "doc-0" });
  assert.ok(read <= 2, `${read} pieces read for the first document`);
  let n = 1;
  while (!it.next().done) n++;
  assert.equal(n, 1000);
});
