import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compileGoRegexp } from "./regexp.js";
import { compileProg } from "./regexp-compile.js";
import { compileMatcher, type ProgMatcher } from "./regexp-matcher.js";
import { compileSimpleRegexp } from "./regexp-simple.js";
import { GoSyntaxError, parseGoRegexp } from "./regexp-syntax.js";

/** The pattern through Go's parser and compiler (src/go/regexp-syntax.ts, regexp-compile.ts); throws when Go rejects it. */
function goCompiled(p: string): ProgMatcher {
  const tree = parseGoRegexp(p);
  if (tree instanceof GoSyntaxError) throw tree;
  return compileMatcher(compileProg(tree));
}

/** Go `regexp.MatchString` answers (RE2 semantics in `syntax.Perl` mode). */
const CASES: readonly [pattern: string, subject: string, match: boolean][] = [
  ["^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$", "foo.example-1.com", true],
  ["^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$", "foo..com", false],
  ["^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", "-a", false],
  ["abc", "xxabcxx", true],
  ["", "anything", true],
  ["^$", "", true],
  ["^$", "\n", false],
  // `$` is the end of the text only (OneLine), not before a final newline
  ["a$", "a\n", false],
  ["^a", "\na", false],
  // `.` matches any rune but a newline; a surrogate pair is one rune
  ["^.$", "\n", false],
  ["^.$", "é", true],
  ["^.$", "😀", true],
  ["^..$", "😀", false],
  // negated classes and \D \S \W match newlines and every non-ASCII rune; \d \s \w are ASCII-only
  ["^[^a]$", "\n", true],
  ["^[^a]$", "é", true],
  ["^\\D$", "٣", true],
  ["^\\d$", "٣", false],
  ["^\\w+$", "héllo", false],
  ["^\\s$", "\u000b", false],
  ["^[\\s]$", "\t", true],
  // escapes, ranges and dashes
  ["^[A-Za-z0-9!#$%&'*+\\-.^_\\x60|~]+$", "a`b", true],
  ["^[-a]+$", "-a-", true],
  ["^[a-]+$", "a-", true],
  ["^[^-/]+$", "a-", false],
  ["^\\x41$", "A", true],
  // repetition counts and non-greedy forms
  ["^a{2}$", "aa", true],
  ["^a{2}$", "aaa", false],
  ["^a{2,}$", "aaaa", true],
  ["^a{1,3}$", "aaaa", false],
  ["^a{0}$", "", true],
  ["^(ab)+?$", "abab", true],
  ["^([0-9]{1,5}(h|m|s|ms)){1,4}$", "1h30m", true],
  ["^([0-9]{1,5}(h|m|s|ms)){1,4}$", "1h2m3s4ms5s", false],
  // assertions inside alternations
  ["(^\\*$)|(^(http(s)?):\\/\\/(((\\*\\.)?([a-zA-Z0-9\\-]+\\.)*[a-zA-Z0-9-]+|\\*)(:([0-9]{1,5}))?)$)", "*", true],
  ["(^\\*$)|(^(http(s)?):\\/\\/(((\\*\\.)?([a-zA-Z0-9\\-]+\\.)*[a-zA-Z0-9-]+|\\*)(:([0-9]{1,5}))?)$)", "https://*.a.io:8443", true],
  ["^$|^[a-z]+$", "", true],
  ["x^", "x", false],
  ["(a|^)b", "b", true],
  ["(a|^)b", "cb", false],
  ["(?:a|b)c", "xbc", true],
  ["(|a)b", "b", true],
];

describe("compileSimpleRegexp", () => {
  for (const [p, s, want] of CASES) {
    it(`${JSON.stringify(p)} on ${JSON.stringify(s)} is ${want}`, () => {
      const r = compileSimpleRegexp(p);
      assert.ok(r, "in the simple subset");
      assert.equal(r.test(s), want);
      assert.equal(goCompiled(p).test(s), want, "Go's compiler agrees");
    });
  }

  it("leaves everything outside the subset (and everything Go rejects) to Go's parser", () => {
    for (const p of [
      "(?i)abc", // case folding is Unicode-aware (k matches the Kelvin sign)
      "a{01}", // Go reads a leading zero as literal text
      "a{,2}",
      "a{2,1}",
      "a{1001}",
      "a**",
      "a+*",
      "*a",
      "^*",
      "[]a]",
      "[[:alpha:]]",
      "[a-z-0]",
      "[z-a]",
      "\\bword",
      "\\pL",
      "\\Q.\\E",
      "\\1",
      "(?P<name>a)",
      "é",
      "[é]",
      "a{",
      "(a",
      "a)",
      "\\",
    ])
      assert.equal(compileSimpleRegexp(p), undefined, p);
  });

  it("agrees with Go's compiler on generated patterns and subjects", () => {
    let seed = 7;
    const rnd = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const atoms = ["a", "b", ".", "[a-c]", "[^a]", "\\d", "\\w", "\\s", "\\D", "\\S", "\\.", "[-a]", "[a-]", "[^-/]", "\\x41", "(a|b)", "()", "(|a)", "^", "$", "(?:ab)", "[\\d.]", "[^\\s]", "\\-", "\\n", "[\\W]"];
    const reps = ["", "", "", "*", "+", "?", "{0}", "{1,3}", "{2,}", "*?", "+?", "??", "{2}"];
    const chars = ["a", "b", "c", "A", "0", "7", "-", ".", "/", "_", " ", "\n", "\t", "é", "😀", "\ud800", "x"];
    let accepted = 0;
    for (let i = 0; i < 3000; i++) {
      let p = "";
      const n = 1 + rnd(6);
      for (let j = 0; j < n; j++) {
        let a = atoms[rnd(atoms.length)] as string;
        if (rnd(6) === 0) a = `(${a}${atoms[rnd(atoms.length)]}|${atoms[rnd(atoms.length)]})`;
        p += a + (reps[rnd(reps.length)] as string);
        if (rnd(10) === 0) p += "|";
      }
      const simple = compileSimpleRegexp(p);
      if (!simple) continue;
      accepted++;
      const re = goCompiled(p); // throws if the subset accepted an invalid pattern
      for (let k = 0; k < 40; k++) {
        let s = "";
        const len = rnd(k < 30 ? 10 : 40);
        for (let j = 0; j < len; j++) s += chars[rnd(chars.length)];
        assert.equal(simple.test(s), re.test(s), `${JSON.stringify(p)} on ${JSON.stringify(s)}`);
      }
    }
    assert.ok(accepted > 1000, `${accepted} generated patterns in the subset`);
  });

  it("agrees with Go's compiler past the DFA cache (a pattern with thousands of states)", () => {
    // (a|b)*a(a|b){12}: the DFA must remember the last 13 runes, 2^13 states, more than it caches
    const p = "(a|b)*a(a|b){12}$";
    const simple = compileSimpleRegexp(p);
    assert.ok(simple);
    const re = goCompiled(p);
    let seed = 3;
    for (let k = 0; k < 60; k++) {
      let s = "";
      for (let i = 0; i < 400; i++) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        s += (seed >> 16) % 2 === 0 ? "a" : "b";
      }
      assert.equal(simple.test(s), re.test(s), s);
    }
  });

  it("stays linear on hostile subjects", () => {
    const r = compileSimpleRegexp("^(a*)*(a|b)*c$");
    assert.ok(r);
    assert.equal(r.test("a".repeat(100000)), false);
    assert.equal(r.test(`${"ab".repeat(50000)}c`), true);
  });
});

describe("compileGoRegexp with a simple pattern", () => {
  it("matches and gives positions", () => {
    const r = compileGoRegexp("[0-9]+");
    assert.ok(r.regexp);
    assert.equal(r.regexp.test("ab12"), true);
    assert.deepEqual(r.regexp.find("ab12cd345", 0), [2, 4]);
    assert.deepEqual(r.regexp.find("ab12cd345", 4), [6, 9]);
  });
});
