/**
 * `isSimpleSyntax` (a pattern certainly valid in Go without re2js) against real Go's `regexp.Compile`
 * answers (test/go-regexp/go-answers.json), and `compileGoRegexp`'s lazily compiled regexps for such
 * patterns outside the matcher's subset.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { RE2JS } from "re2js";
import { compileGoRegexp } from "./regexp.js";
import { compileSimpleRegexp, isSimpleSyntax } from "./regexp-simple.js";

interface GoCase {
  readonly pattern: string;
  readonly error?: string;
  readonly subjects?: readonly string[];
  readonly matches?: readonly boolean[];
}
const cases = JSON.parse(readFileSync(new URL("../../test/go-regexp/go-answers.json", import.meta.url), "utf8")) as GoCase[];

describe("isSimpleSyntax", () => {
  it("is true only for patterns real Go compiles, including flag groups the matcher declines", () => {
    let flagOnly = 0;
    let flagRejected = 0;
    for (const c of cases) {
      const valid = isSimpleSyntax(c.pattern);
      if (valid) assert.equal(c.error, undefined, `Go rejects ${JSON.stringify(c.pattern)}: ${c.error}`);
      if (valid && compileSimpleRegexp(c.pattern) === undefined) flagOnly++;
      if (compileSimpleRegexp(c.pattern) !== undefined) assert.ok(valid, c.pattern);
      if (/\(\?[imsU]/.test(c.pattern) && c.error !== undefined) flagRejected++;
    }
    assert.ok(flagOnly >= 20, `${flagOnly} recorded patterns valid only with flag groups`);
    assert.ok(flagRejected >= 90, `${flagRejected} recorded patterns with flags that Go rejects`);
  });

  it("reads Go's flag groups and leaves everything else around them to re2js", () => {
    const valid = ["(?i)k", "^(?i)\\.?[a-z_][a-z_0-9]*(\\.[a-z_][a-z_0-9]*)*$", "(?is)a.b", "(?U)a+", "(?m:^a$)", "(?i:)", "a(?s)"];
    const unknown = ["(?i)*", "(?i)+", "(?i){2}", "(?-i)a", "(?i-s)a", "(?)a", "(?i", "(?x)a", "(?P<n>a)", "(?<n>a)", "(?#c)", "(?i:a"];
    for (const p of valid) {
      assert.equal(isSimpleSyntax(p), true, p);
      assert.doesNotThrow(() => RE2JS.compile(p), p);
    }
    for (const p of unknown) assert.equal(isSimpleSyntax(p), false, p);
  });
});

describe("compileGoRegexp of a valid pattern only re2js matches", () => {
  it("answers Go's MatchString on every recorded subject", () => {
    let checked = 0;
    for (const c of cases) {
      if (!isSimpleSyntax(c.pattern) || compileSimpleRegexp(c.pattern) !== undefined) continue;
      const r = compileGoRegexp(c.pattern);
      assert.ok(r.regexp, c.pattern);
      const subjects = c.subjects ?? [];
      for (let i = 0; i < subjects.length; i++) {
        assert.equal(r.regexp.test(subjects[i] as string), c.matches?.[i], `${JSON.stringify(c.pattern)} on ${JSON.stringify(subjects[i])}`);
        checked++;
      }
      assert.equal(r.regexp.re.matches("k"), RE2JS.compile(c.pattern).matches("k"));
    }
    assert.ok(checked >= 100, `${checked} subjects`);
  });

  it("is case-insensitive as Go is, Kelvin sign and long s included", () => {
    const r = compileGoRegexp("^(?i)[a-z]+$").regexp;
    assert.ok(r);
    assert.equal(r.test("AbC"), true);
    assert.equal(r.test("\u212a\u017f"), true);
    assert.equal(r.test("é"), false);
  });
});
