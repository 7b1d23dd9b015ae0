import * as assert from "node:assert/strict";
import { test } from "node:test";
import { hasSurrogates, lex, lexPooled, lexSource, releaseTokens, toCodePoints } from "./lexer.js";

// lexSource (string input) must tokenize exactly like lex over code points.
const INPUTS = [
  "self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas",
  "a != b || !c ? -1 : 2u % 3 * 4.5e-3 / .5 + 0x1F - 0XF",
  "{'k': [1, 2], \"v\": b'\\x00', r'raw\\n': br\"x\"} == x.?y[?0]",
  "'''triple ' quoted''' + \"\\u00e9\\U0001F600\\101\\a\\?\\`\" // comment\n + `esc.id-x/y z`",
  "a = b & c | d ^ e # f $",
  "'unterminated",
  "'bad \\q escape' + \"\\x4\"",
  "in true false null inx truex _a1 B'by' R'ra' b r",
  "x.all(i, i > 0) && y.exists_one(j, j == `a b`) && ``",
  "a\tb\r\nc\fd",
  "",
  "é + 'ü'",
  // quoted strings and one-character punctuation (the direct lexer's fast paths)
  `'' + "" + '''''' + """""" + 'x''y' + "a""b"`,
  `'a\nb' + "c\rd" + 'it\\'s' + "say 'hi'" + 'say "hi"' + "\\\\" + '\\'`,
  `'é' + 'tab\there' + '''a\nb''' + "x`,
  "a?b:c[-1,+2]*3%4{(1)}!=!d",
  "1 + 12.5 + 3e4 + 3e + 3e+ 7E-2 + 5u + 6U + 0x1F + 0X1F + 0x + 09 + 1.x + 1. + .5 + a.b.5 + x.1.y + 2in + 3true",
  "a . b .. c . 9 .",
  "'",
  '"',
];

for (const src of INPUTS) {
  test(`lexSource matches lex: ${JSON.stringify(src)}`, () => {
    assert.equal(hasSurrogates(src), false);
    assert.deepEqual(lexSource(src), lex(toCodePoints(src), src));
  });
}

test("hasSurrogates finds pairs and lone surrogates", () => {
  assert.equal(hasSurrogates("'😀'"), true);
  assert.equal(hasSurrogates("'\ud800'"), true);
  assert.equal(hasSurrogates("'\udc00'"), true);
  assert.equal(hasSurrogates("'é'"), false);
});

test("punctuation tokens carry their text", () => {
  const { tokens } = lexSource("a<=b");
  assert.deepEqual(
    tokens.map((t) => [t.kind, t.text, t.start, t.end]),
    [
      ["IDENTIFIER", "a", 0, 1],
      ["<=", "<=", 1, 3],
      ["IDENTIFIER", "b", 3, 4],
      ["EOF", "<EOF>", 4, 4],
    ],
  );
});

test("pooled lexing answers lex's tokens, also after a longer source and while the pool is taken", () => {
  // longest first: later, shorter sources leave stale pooled tokens past their count
  const sources = [...INPUTS].sort((a, b) => b.length - a.length);
  for (const src of [...sources, "😀 + a", ...sources]) {
    const want = lex(toCodePoints(src), src);
    const got = lexPooled(hasSurrogates(src) ? toCodePoints(src) : undefined, src);
    assert.deepEqual(got.tokens.slice(0, got.count), want.tokens, src);
    assert.deepEqual(got.errors, want.errors, src);
    // a nested lexing while the pool is taken gets its own tokens and leaves the outer ones intact
    const outer = got.tokens.slice(0, got.count).map((t) => ({ ...t }));
    const nested = lexPooled(undefined, "x.y");
    assert.notEqual(nested.tokens, got.tokens);
    assert.deepEqual(nested.tokens.map((t) => t.text), ["x", ".", "y", "<EOF>"]);
    releaseTokens(nested.tokens);
    assert.deepEqual(got.tokens.slice(0, got.count), outer, src);
    releaseTokens(got.tokens);
  }
});
