import assert from "node:assert/strict";
import { test } from "node:test";
import { goQuote } from "./fmt.js";
import { goJsonString } from "./json.js";
import { goByteLength, goRuneCount, goStringFromBytes } from "./utf8.js";

// Go: fmt.Sprintf("%q", s) and json.Marshal(s) of the string with these bytes (as the API server prints a name
// decoded from a request path).
const cases: [number[], string, string][] = [
  [[0x61, 0xff, 0x62], '"a\\xffb"', '"a\\ufffdb"'],
  [[0xc3, 0xa9], '"é"', '"é"'],
  [[0xe2, 0x82], '"\\xe2\\x82"', '"\\ufffd\\ufffd"'],
  [[0xe2, 0x82, 0xac, 0x80], '"€\\x80"', '"€\\ufffd"'],
  [[0xed, 0xa0, 0x80], '"\\xed\\xa0\\x80"', '"\\ufffd\\ufffd\\ufffd"'],
  [[0xc0, 0xaf], '"\\xc0\\xaf"', '"\\ufffd\\ufffd"'],
  [[0xe0, 0x80, 0x80], '"\\xe0\\x80\\x80"', '"\\ufffd\\ufffd\\ufffd"'],
  [[0xf0, 0x9f, 0x98, 0x80], '"😀"', '"😀"'],
  [[0xf0, 0x9f, 0x98], '"\\xf0\\x9f\\x98"', '"\\ufffd\\ufffd\\ufffd"'],
  [[0xf4, 0x90, 0x80, 0x80], '"\\xf4\\x90\\x80\\x80"', '"\\ufffd\\ufffd\\ufffd\\ufffd"'],
  [[0xf4, 0x8f, 0xbf, 0xbf], '"\\U0010ffff"', '"\u{10ffff}"'],
  [[0xef, 0xbf, 0xbd], '"\ufffd"', '"\ufffd"'],
  [[0xc2, 0xad], '"\\u00ad"', '"\u00ad"'],
  [[0x80, 0x41], '"\\x80A"', '"\\ufffdA"'],
];
for (const [bytes, quoted, json] of cases) {
  const hex = bytes.map((b) => b.toString(16)).join(" ");
  test(`Go string of bytes ${hex}: %q and json.Marshal`, () => {
    const s = goStringFromBytes(new Uint8Array(bytes));
    assert.equal(goQuote(s), quoted);
    assert.equal(goJsonString(s), json);
  });
}

test("a lone surrogate that stands for no byte still quotes as U+FFFD's escape", () => {
  assert.equal(goQuote("a\ud800"), '"a\\ufffd"');
});

test("goByteLength: len() of the Go string: UTF-8 bytes, one per escaped byte", () => {
  assert.equal(goByteLength("a"), 1);
  assert.equal(goByteLength("é"), 2);
  assert.equal(goByteLength("\u20ac"), 3);
  assert.equal(goByteLength("\u{1F600}"), 4);
  assert.equal(goByteLength(goStringFromBytes(new Uint8Array([0x61, 0xff, 0xfe]))), 3);
});

test("goRuneCount counts as utf8.RuneCountInString: code points, and a lone surrogate or escaped byte as one", () => {
  assert.equal(goRuneCount(""), 0);
  assert.equal(goRuneCount("abc"), 3);
  assert.equal(goRuneCount("ångström"), 8);
  assert.equal(goRuneCount("😀x😀"), 3);
  assert.equal(goRuneCount("\ud800"), 1);
  assert.equal(goRuneCount("a\udc80b"), 3);
  assert.equal(goRuneCount(goStringFromBytes(new Uint8Array([0x61, 0xff, 0xe2, 0x82, 0xac]))), 3);
});
