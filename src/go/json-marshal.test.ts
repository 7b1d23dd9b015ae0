/**
 * goJsonMarshal's recursive encoder writes exactly the text of the iterative one (the reference kept for
 * values nested too deep to recurse): escapes, surrogates in strings and keys, number forms, nesting, and
 * every document of the corpus.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { test } from "node:test";
import { corpusDocuments } from "../../test/corpus-documents.js";
import { corpusRoot } from "../../test/corpus-root.js";
import { Float64, type JsonValue } from "../value/json-value.js";
import { goJsonMarshal, goJsonMarshalIterative, goJsonString } from "./json.js";

test("the same text as the iterative encoder, and Go's escapes", () => {
  const values: JsonValue[] = [
    null,
    true,
    0,
    -12345,
    2n ** 70n,
    1.5,
    -0.000001,
    1e21,
    Number.NaN,
    new Float64(1),
    new Float64(-0),
    "",
    "plain text with spaces, digits 0123 and ~^`|{}",
    'quote " backslash \\ newline \n <tag> & amp \u0000 \u001f \u007f \u2028 \u2029',
    "pair 😀 lone \ud800 x \udc00 end\ud83d",
    [],
    {},
    [1, "a", [null, { b: [true] }]],
    { "k<>&\"": "v", "é": { "😀": [1.25, new Float64(3)] }, "\uffff": 1, "\ud83d\ude00": 2, z: [], a: {}, B: 0, "": "" },
    { b: undefined as unknown as JsonValue, a: 1 },
  ];
  for (const v of values) assert.equal(goJsonMarshal(v), goJsonMarshalIterative(v), goJsonMarshalIterative(v));
  assert.equal(goJsonMarshal({ "😀": 1, "\uffff": 2, a: 3 }), '{"a":3,"\uffff":2,"😀":1}');
  assert.equal(goJsonString("a<b>&c"), '"a\\u003cb\\u003e\\u0026c"');
  assert.equal(goJsonString("x\u2028y\ud800"), '"x\\u2028y\\ufffd"');
  assert.equal(goJsonString("caf\u00e9 \u65e5\u672c"), '"caf\u00e9 \u65e5\u672c"');
});

test("values nested deeper than the recursion limit", () => {
  let v: JsonValue = "leaf";
  for (let i = 0; i < 5000; i++) v = i % 2 === 0 ? [v] : { k: v };
  const text = goJsonMarshal(v);
  assert.equal(text, goJsonMarshalIterative(v));
  assert.equal(text.length, 5000 * 2 + 2500 * 4 + 6);
});

const root = corpusRoot();
test("every corpus document as the iterative encoder writes it", { skip: existsSync(root) ? false : `no corpus at ${root}` }, () => {
  let docs = 0;
  for (const { label, value } of corpusDocuments(root)) {
    assert.equal(goJsonMarshal(value), goJsonMarshalIterative(value), label);
    docs++;
  }
  assert.ok(docs > 1000, `${docs} documents`);
});

test("map keys in Go's order (UTF-8 bytes), also when their encoded text is cached", () => {
  const obj: JsonValue = { b: 1, "9": 2, "10": 3, a: { z: 1, y: 2 }, "\uffff": 4, "\ud83d\ude00": 5, "<": 6, "\ud800": 7 };
  const want = '{"10":3,"9":2,"\\u003c":6,"a":{"y":2,"z":1},"b":1,"\\ufffd":7,"\uffff":4,"\ud83d\ude00":5}';
  // The lone surrogate is written as \ufffd but sorts as its own bytes (ED A0 80, before U+FFFF's EF BF BF).
  for (let i = 0; i < 3; i++) {
    assert.equal(goJsonMarshal(obj), want);
    assert.equal(goJsonMarshal(obj), goJsonMarshalIterative(obj));
  }
  // Keys already in order are written in that order; out of order, sorted.
  assert.equal(goJsonMarshal({ a: 1, b: 2, c: 3 }), '{"a":1,"b":2,"c":3}');
  assert.equal(goJsonMarshal({ c: 1, b: 2, a: 3 }), '{"a":3,"b":2,"c":1}');
});
