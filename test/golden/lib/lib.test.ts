import * as assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { Float64 } from "../../../src/value/json-value.js";
import { diffLists, diffValues } from "./compare.js";
import { KnownList, readKnown } from "./known.js";
import { TaggedJsonError, parseTaggedJson } from "./tagged-json.js";

test("tagged JSON keeps int64 and float64 apart", () => {
  const cases: [string, unknown][] = [
    ["1", 1],
    ["-0", 0],
    ["1.0", new Float64(1)],
    ["1.5", 1.5],
    ["1e3", new Float64(1000)],
    ["9007199254740993", 9007199254740993n],
    ["9223372036854775808", new Float64(2 ** 63)],
    ['"a\\u003cb"', "a<b"],
    ['"\\ud83d\\ude00 \\ud83d x \\ude00"', "\u{1F600} \uFFFD x \uFFFD"],
    ['{"a":[1,{"b":null}],"c":true}', { a: [1, { b: null }], c: true }],
    ['{"a":1,"a":2}', { a: 2 }],
    ["[[],{}]", [[], {}]],
  ];
  for (const [text, want] of cases) assert.deepEqual(parseTaggedJson(text), want, text);
});

test("tagged JSON reports repeated keys", () => {
  const seen: string[] = [];
  parseTaggedJson('{"a":1,"b":{"c":1,"c":2},"a":3}', (k) => seen.push(k));
  assert.deepEqual(seen, ["c", "a"]);
});

test("tagged JSON rejects malformed text", () => {
  for (const bad of ["", "{", "[1,]", "{\"a\" 1}", "1 2", "tru", '"x']) {
    assert.throws(() => parseTaggedJson(bad), TaggedJsonError, bad);
  }
});

test("tagged JSON parses deep nesting without recursion", () => {
  const depth = 20000;
  const v = parseTaggedJson("[".repeat(depth) + "]".repeat(depth));
  let d = 0;
  let x: unknown = v;
  while (Array.isArray(x) && x.length > 0) {
    x = x[0];
    d++;
  }
  assert.equal(d, depth - 1);
});

test("known list: exact ids, prefixes and reasons", () => {
  const dir = mkdtempSync(join(tmpdir(), "known-"));
  const p = join(dir, "k.txt");
  writeFileSync(p, "# comment\n\na/b#c  reason one\ncorpus/x/* whole project\nlonely\n");
  const entries = readKnown(p);
  assert.deepEqual(entries, [
    { id: "a/b#c", reason: "reason one" },
    { id: "corpus/x/*", reason: "whole project" },
    { id: "lonely", reason: "(no reason given)" },
  ]);
  const k = new KnownList(entries);
  assert.equal(k.reason("a/b#c"), "reason one");
  assert.equal(k.reason("corpus/x/f.yaml#0"), "whole project");
  assert.equal(k.reason("corpus/y/f.yaml#0"), undefined);
  assert.equal(k.listedExactly("a/b#c"), true);
  assert.equal(k.listedExactly("corpus/x/f.yaml#0"), false);
});

test("list diffs: ordered and as multisets", () => {
  assert.deepEqual(diffLists("errors", ["a", "b"], ["a", "b"]), []);
  assert.deepEqual(diffLists("errors", ["a", "b"], ["b", "a"], true), []);
  assert.deepEqual(diffLists("errors", ["a", "b"], ["b", "a"]), [
    "errors differ: - kubernetes, + crdkit",
    "    [0] - a",
    "    [0] + b",
    "    [1] - b",
    "    [1] + a",
  ]);
  assert.deepEqual(diffLists("w", ["a", "a", "b"], ["a", "c"], true), [
    "w differ (compared as a set): - only kubernetes, + only crdkit",
    "    - a",
    "    - b",
    "    + c",
  ]);
});

test("value diffs follow Go DeepEqual (int64 is not float64)", () => {
  assert.deepEqual(diffValues({ a: 1 }, { a: 1 }), []);
  assert.deepEqual(diffValues({ a: new Float64(1) }, { a: 1 }), ["    a: - 1 (float64)   + 1 (int64)"]);
  assert.deepEqual(diffValues({ a: [1, 2] }, { a: [1] }), ["    a: - [1,2]   + [1]"]);
  assert.deepEqual(diffValues({ b: "x" }, {}), ['    b: - "x"   + <absent>']);
});
