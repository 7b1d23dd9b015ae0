import * as assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { Rng } from "../../../test/fuzz/rng.js";
import { genYamlDocument } from "../../../test/fuzz/yaml-gen.js";
import { Float64, type JsonValue } from "../../value/json-value.js";
import { yamlChunks } from "../yaml-split.js";
import { firstControlCharacter } from "./chars.js";
import { decodeDirect } from "./direct-json.js";
import { decodeSimpleBlock } from "./simple-block.js";

/** go-yaml's value types survive: an int64 is a number or bigint, an integral float64 a Float64 box; key order too. */
function typed(v: JsonValue | undefined): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? `big:${x}` : x instanceof Float64 ? `F64:${x.value}` : x));
}

/**
 * The line path agrees with the one-pass event path (itself checked against the full path and, by
 * `npm run fuzz:yaml`, against go-yaml): same value, same root offset; it may only decline.
 */
function agrees(text: string): { decoded: boolean; problem?: string } {
  const a = decodeSimpleBlock(text);
  if (a === undefined) return { decoded: false };
  const b = decodeDirect(text);
  if (b === undefined) return { decoded: true, problem: `the event path does not decode it, the line path gives ${typed(a.value)}` };
  if (typed(a.value) !== typed(b.value)) return { decoded: true, problem: `line path ${typed(a.value)}, event path ${typed(b.value)}` };
  if (a.rootOffset !== b.rootOffset) return { decoded: true, problem: `root offset ${a.rootOffset}, event path ${b.rootOffset}` };
  return { decoded: true };
}

// documents the line path decodes: exactly the event path's value
const decoded: [string, string, JsonValue][] = [
  ["block mapping", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  labels:\n    a: b\n", { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "x", labels: { a: "b" } } }],
  ["indentless and nested sequences", "a:\n- 1\n- b\nc:\n  - - x\n    - y\n  - k: v\n    l: w\n  -\n  - # empty\n", { a: [1, "b"], c: [["x", true], { k: "v", l: "w" }, null, null] }],
  ["empty values", "a:\nb: # nothing\nc:\n  d:\n", { a: null, b: null, c: { d: null } }],
  ["YAML 1.1 scalars", "a: yes\nb: Off\nc: ~\nd: 012\ne: 0x1F\nf: 1_000\ng: 1.5\nh: 1e3\ni: 2002-12-14\nj: 1:20\nk: -0\n", null],
  ["keys of several kinds", "1: a\n0x10: b\ntrue: c\n'x': d\n\"y z\": e\nkey with space: f\nk : g\n", null],
  ["plain scalars with indicators inside", "url: http://x/y?z=1#f\nimage: nginx:1.14\nexpr: a - b & c * d | e > f\nq: it's \"quoted\"\nhash: a#b # a comment\n", null],
  ["quoted scalars", "a: 'it''s'\nb: \"tab\\there \\\"q\\\" \\\\ \\u00e9 \\x41 \\U0001F600 \\N\"\nc: ''\nd: \"\"\ne: '# not a comment'\n", null],
  ["literal block scalars", "a: |\n  line\n    more\n\n  end\nb: |-\n  x\n\n\nc: |+\n  y\n\n\nd: |\n\n  after empty\n", null],
  ["folded block scalars", "a: >\n  one\n  two\n\n  three\n    indented\n  four\nb: >-\n  x\n  y\nc: >+\n  z\n\n", null],
  ["block scalars in sequences", "- |\n  a\n- >-\n  b\n  c\n- k: |\n    d\n", null],
  ["one-line flow collections", "a: []\nb: {}\nc: [x, \"y\", 'z', 1, [2, {k: v}]]\nd: {\"a\":1, 'b': [c], e: {}}\ne: [ a b , c ]\n", null],
  ["plain scalars over several lines", "description: first line of a\n  long description, with a:colon\n\n  and a#not-a-comment   \n  \n  end\nnext: v # a comment\n", null],
  ["quoted scalars over several lines", "a: \"one\n  two  \n\n   \\u00e9 three\"\nb:\n- 'it''s\n  folded\n  '\n", { a: "one two\né three", b: ["it's folded "] }],
  ["a plain scalar ended by a comment line", "a: b\n  # a comment\nc: d\n", { a: "b", c: "d" }],
  ["a comment line after a nested value", "a:\n  b:\n    c: d\n  # or e\nf: g\n", { a: { b: { c: "d" } }, f: "g" }],
  ["__proto__ and constructor keys", "__proto__: 1\nconstructor: 2\nhasOwnProperty: [3]\n", null],
  ["unicode", "é: 日本\nk: \"😀\"\n", null],
  ["an indented root", "  a: 1\n  b:\n    - c\n", { a: 1, b: ["c"] }],
  ["a scalar document", "hello\n", "hello"],
  ["a sequence document", "- a\n- b\n", ["a", "b"]],
  ["comments everywhere", "# head\na: 1 # one\n# between\n  # indented\nb:\n  # before the value\n  c: 2\n# tail", { a: 1, b: { c: 2 } }],
  ["no final line break", "a: 1\nb: |\n  x", { a: 1, b: "x" }],
];
for (const [name, text, want] of decoded) {
  const doc = text;
  test(`line path decodes ${name} as the event path does`, () => {
    const r = agrees(doc);
    assert.ok(r.decoded, "the line path decodes it");
    assert.equal(r.problem, undefined);
    if (want !== null) assert.equal(typed(decodeSimpleBlock(doc)!.value), typed(want));
  });
}

// documents the line path leaves to the event path (which reports errors with go-yaml's words and positions)
const declined: [string, string][] = [
  ["a tab", "a:\tb\n"],
  ["a carriage return", "a: b\r\n"],
  ["a byte-order mark", "\ufeffa: b\n"],
  ["an anchor and an alias", "a: &x 1\nb: *x\n"],
  ["a tag", "a: !!str 1\n"],
  ["a complex key", "? a\n: b\n"],
  ["a duplicate key", "a: 1\na: 2\n"],
  ["keys one JSON key", "1: a\n'1': b\n"],
  ["a merge key", "a:\n  <<: {b: 1}\n"],
  ["a null key", "~: 1\n"],
  ["a float JSON refuses", "a: .nan\n"],
  ["a quoted key over two lines", "\"x\n  y\": 1\n"],
  ["a quoted scalar over two lines in a flow collection", "a: [\"x\n  y\"]\n"],
  ["a quoted scalar going on at its mapping's column", "a: \"x\ny\"\n"],
  ["a document marker inside a root quoted scalar", "'x\n--- y'\n"],
  ["a document end marker inside a root quoted scalar", '"x\n...\n"\n'],
  ["an escaped line break", "a: \"x\\\n  y\"\n"],
  ["an escape go-yaml refuses", "a: \"\\/\"\n"],
  ["a short hex escape", "a: \"\\x4\"\n"],
  ["a surrogate escape", "a: \"\\ud800\"\n"],
  ["an indentation indicator", "a: |2\n   x\n"],
  ["a block scalar with more indented empty lines first", "a: |\n    \n  x\n"],
  ["a key indented past its mapping", "a: 1\n b: 2\n"],
  ["a key indented less than its mapping", "a:\n    b: 1\n  c: 2\n"],
  ["a mapping value after a value", "a: b: c\n"],
  ["a sequence entry after a key", "a: - b\n"],
  ["a sequence entry in a mapping", "a: 1\n- b\n"],
  ["a key in a sequence", "- a\nb: 1\n"],
  ["a line without a key", "a: 1\nb\n"],
  ["a document marker", "a: 1\n---\nb: 2\n"],
  ["a directive", "%YAML 1.1\n---\na: 1\n"],
  ["a flow collection over two lines", "a: [b,\n  c]\n"],
  ["a trailing comma", "a: [b, c,]\n"],
  ["a key without a value in a flow mapping", "a: {b}\n"],
  ["a single-pair mapping in a flow sequence", "a: [b: c]\n"],
  ["a plain key glued to its value in flow", "a: {b:c}\n"],
  ["text after a flow collection", "a: [b] c\n"],
  ["a quoted scalar and more", "a: 'b' c\n"],
  ["a comment glued to a quoted scalar", "a: 'b'#c\n"],
  ["a comment line inside a plain scalar", "a: b\n# c\n  d\n"],
  ["a plain scalar going on as a key", "a: b\n  c: d\n"],
  ["an empty document", "# only a comment\n"],
  ["a key past go-yaml's simple-key limit", `a: 1\n${"k".repeat(1025)}: v\n`],
  ["nesting deeper than this path goes", `${Array.from({ length: 120 }, (_, i) => `${" ".repeat(i)}a:`).join("\n")} 1\n`],
];
for (const [name, text] of declined) {
  test(`line path leaves ${name} to the event path`, () => {
    assert.equal(decodeSimpleBlock(text), undefined);
  });
}

/** Small random edits that often break a document or move it out of the line path's shape. */
const EDITS = [":", "[", "]", "{", "}", ",", "-", "'", '"', "#", "&", "*", "|", ">", "\n", " ", "  ", "?", "!", "a", "1", ": ", "- ", " #", "\n  ", "\n- ", "|-", ">+", "\\", "''", "...", "---", "\n\n", "<<", "~", "0x1", "é", ".inf", "\t", "\\x4", "\\u00e9"];
function mutate(r: Rng, text: string): string {
  let t = text;
  for (let n = r.int(1, 3); n > 0; n--) {
    const at = r.int(0, Math.max(0, t.length - 1));
    const op = r.int(0, 5);
    const lines = t.split("\n");
    const k = r.int(0, lines.length - 1);
    if (op === 0) t = t.slice(0, at) + t.slice(at + 1);
    else if (op <= 2) t = t.slice(0, at) + r.pick(EDITS) + t.slice(at);
    else if (op === 3) {
      lines[k] = r.chance(0.5) ? ` ${lines[k]}` : lines[k]!.replace(/^ /, "");
      t = lines.join("\n");
    } else if (op === 4) {
      lines.splice(r.int(0, lines.length), 0, lines[k]!);
      t = lines.join("\n");
    } else {
      lines.splice(k, 1);
      t = lines.join("\n");
    }
  }
  return t;
}

const SEEDS = [
  "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p # the name\n  labels: {app: web, 'tier': \"front\"}\nspec:\n  containers:\n  - name: c\n    image: nginx:1.14\n    args: [\"--port\", \"80\", -v]\n    command:\n      - sh\n      - -c\n      - |\n        echo \"hi\"\n\n        exit 0\n    env:\n    - name: A\n      value: \"1\"\n",
  "a:\n  description: a plain scalar\n    over two lines\n\n    and a paragraph\n  folded: >-\n    one\n    two\n  items:\n  - 1\n  - 0x10\n  - ~\n  - - nested\n    - \"esc\\t\\u00e9\"\n",
];

/** The documents of the corpus examples (when the corpus is there): real manifests as seeds. */
function corpusSeeds(): string[] {
  const root = join(import.meta.dirname, "../../../../shared/corpus");
  if (!existsSync(root)) return [];
  const out: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.ya?ml$/.test(n)) for (const c of yamlChunks(readFileSync(p, "utf8"))) if (c.text.length < 4000) out.push(c.text.endsWith("\n") ? c.text : `${c.text}\n`);
    }
  };
  for (const project of readdirSync(root).sort()) {
    const d = join(root, project, "examples");
    if (existsSync(d)) walk(d);
  }
  return out;
}

test("line path agrees with the event path on quoted scalars over several lines", () => {
  const rng = new Rng(7);
  const pieces = ["a", "b c", " ", "  ", "\n", "\n  ", "\n    ", "\n\n  ", "\\n", "\\\\", '\\"', "''", "\\", "\\ ", "#", ": ", "- ", "é", "\\x41", "---", "\n---", "\n...", "'"];
  const failures: string[] = [];
  let decodedCount = 0;
  for (let i = 0; i < 4000; i++) {
    const q = rng.chance(0.5) ? '"' : "'";
    let body = "";
    for (let k = rng.int(1, 8); k > 0; k--) body += rng.pick(pieces);
    const ind = " ".repeat(rng.int(0, 3));
    const text = [`k: ${q}${body}${q}\nz: 1\n`, `m:\n${ind}  k: ${q}${body}${q}\n${ind}  y: 2\n`, `- ${q}${body}${q}\n- x\n`, `k:\n${ind} ${q}${body}${q}\n`][rng.int(0, 3)]!;
    const r = agrees(text);
    if (r.decoded) decodedCount++;
    if (r.problem && failures.length < 5) failures.push(`${JSON.stringify(text)}: ${r.problem}`);
  }
  assert.deepEqual(failures, []);
  assert.ok(decodedCount > 1000, `the line path decoded ${decodedCount} documents`);
});

test("line path agrees with the event path on block scalars", () => {
  const rng = new Rng(9);
  const failures: string[] = [];
  let decodedCount = 0;
  for (let i = 0; i < 4000; i++) {
    const head = rng.pick(["|", "|-", "|+", ">", ">-", ">+", "| # c", ">- #c"]);
    const base = rng.int(0, 2) * 2;
    const lines: string[] = [];
    for (let k = rng.int(1, 7); k > 0; k--) {
      const x = rng.int(0, 9);
      const indent = base + 2 + rng.pick([0, 0, 0, 1, 2, -1, -2]);
      lines.push(x < 2 ? "" : x < 4 ? " ".repeat(rng.int(0, 6)) : " ".repeat(indent) + rng.pick(["a", "b c", "# x", "- y", "k: v", "  z"]));
    }
    const tail = rng.pick(["next: 1\n", "", "  # c\nnext: 2\n", "- q\n", "   \n"]);
    const pre = " ".repeat(base);
    const more = base && tail.startsWith("next") ? pre : "";
    const text = `${base ? "m:\n" : ""}${pre}k: ${head}\n${lines.join("\n")}\n${more}${tail}${rng.chance(0.1) ? "x" : ""}`;
    const r = agrees(text);
    if (r.decoded) decodedCount++;
    if (r.problem && failures.length < 5) failures.push(`${JSON.stringify(text)}: ${r.problem}`);
  }
  assert.deepEqual(failures, []);
  assert.ok(decodedCount > 1000, `the line path decoded ${decodedCount} documents`);
});

test("line path agrees with the event path on the corpus examples and on mutated and generated documents", () => {
  const corpus = corpusSeeds();
  const failures: string[] = [];
  let decodedCount = 0;
  const check = (text: string) => {
    if (firstControlCharacter(text) >= 0) return; // refused before any path runs
    const r = agrees(text);
    if (r.decoded) decodedCount++;
    if (r.problem && failures.length < 5) failures.push(`${JSON.stringify(text)}: ${r.problem}`);
  };
  for (const t of corpus) check(t);
  const rng = new Rng(15);
  const seeds = [...SEEDS, ...corpus];
  for (let i = 0; i < 6000; i++) check(rng.chance(0.3) ? genYamlDocument(rng) : mutate(rng, rng.pick(seeds)));
  assert.deepEqual(failures, []);
  assert.ok(decodedCount > 1000, `the line path decoded ${decodedCount} documents`);
});

test("a line over 64 KiB goes to the event path (the line path's regexps would keep a backtracking entry per character)", () => {
  const long = `kind: X\nspec:\n  image: ${"x".repeat(64 * 1024)}\n`;
  assert.equal(decodeSimpleBlock(long), undefined);
  assert.equal((decodeDirect(long)!.value as { spec: { image: string } }).spec.image.length, 64 * 1024);
  // a long document of short lines, and a line just under the limit, stay on the line path
  const short = `kind: X\nspec:\n  image: ${"x".repeat(64 * 1024 - 9)}\n${"k: v\n".repeat(1)}`;
  assert.equal(agrees(short).decoded, true);
  assert.equal(agrees(`items:\n${"- abc\n".repeat(20000)}`).decoded, true);
});
