/**
 * goJsonMarshalSize is the UTF-8 length of goJsonMarshal's text, computed without building it: checked on
 * values with every kind of escape, number form and nesting, and on every document of the corpus.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { test } from "node:test";
import { corpusDocuments } from "../../test/corpus-documents.js";
import { corpusRoot } from "../../test/corpus-root.js";
import { Float64, type JsonValue } from "../value/json-value.js";
import { goJsonMarshal, goJsonMarshalSize } from "./json.js";

const bytes = (v: JsonValue) => Buffer.byteLength(goJsonMarshal(v), "utf8");

test("size of values with escapes, surrogates, numbers and nesting", () => {
  const values: JsonValue[] = [
    null,
    true,
    false,
    0,
    -12345,
    2n ** 70n,
    -(2n ** 63n),
    1.5,
    -0.000001,
    1e21,
    new Float64(1),
    new Float64(-0),
    "",
    'quote " backslash \\ newline \n cr \r tab \t bs \b ff \f',
    "\u0000\u0001\u001f\u007f <tag> & amp",
    "é ß € 日本 \u2028 \u2029 \u0800 \u07ff",
    "pair 😀 lone \ud800 x \udc00 end\ud83d",
    [],
    {},
    [1, "a", [null, { b: [true] }]],
    { "k<>&\"": "v", "é": { "😀": [1.25, new Float64(3)] }, z: [], a: {} },
  ];
  for (const v of values) assert.equal(goJsonMarshalSize(v), bytes(v), goJsonMarshal(v));
});

test("stops counting past the limit", () => {
  const v = { a: "x".repeat(1000), b: "y".repeat(1000) };
  const n = goJsonMarshalSize(v, 100);
  assert.ok(n > 100 && n < bytes(v), String(n));
  assert.equal(goJsonMarshalSize(v, bytes(v)), bytes(v));
});

const root = corpusRoot();
test("size of every corpus document equals the marshalled text's", { skip: existsSync(root) ? false : `no corpus at ${root}` }, () => {
  let docs = 0;
  for (const { label, value } of corpusDocuments(root)) {
    assert.equal(goJsonMarshalSize(value), bytes(value), label);
    docs++;
  }
  assert.ok(docs > 1000, `${docs} documents`);
});
