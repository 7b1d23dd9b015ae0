/** compileGoRegexp: Go RE2 semantics and Go's exact regexp/syntax error texts. */
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { compileGoRegexp } from "./regexp.js";

describe("compileGoRegexp errors (Go regexp/syntax texts)", () => {
  const cases: [string, string][] = [
    ["+", "error parsing regexp: missing argument to repetition operator: `+`"],
    ["(?=a)", "error parsing regexp: invalid or unsupported Perl syntax: `(?=`"],
    ["(?!a)", "error parsing regexp: invalid or unsupported Perl syntax: `(?!`"],
    ["(?<=a)b", "error parsing regexp: invalid named capture: `(?<=a)b`"],
    ["a**", "error parsing regexp: invalid nested repetition operator: `**`"],
    ["[z-a]", "error parsing regexp: invalid character class range: `z-a`"],
    ["(a", "error parsing regexp: missing closing ): `(a`"],
    ["a)", "error parsing regexp: unexpected ): `a)`"],
    ["[a", "error parsing regexp: missing closing ]: `[a`"],
    [String.raw`\8`, "error parsing regexp: invalid escape sequence: `\\8`"],
    ["x{1001}", "error parsing regexp: invalid repeat count: `{1001}`"],
    [String.raw`\pX`, "error parsing regexp: invalid character class range: `\\pX`"],
    ["\\", "error parsing regexp: trailing backslash at end of expression: ``"],
    [String.raw`(\1)`, "error parsing regexp: invalid escape sequence: `\\1`"],
    ["(?P<n>a(?P<n>", "error parsing regexp: missing closing ): `(?P<n>a(?P<n>`"],
    ["(".repeat(1000) + ")".repeat(1000), `error parsing regexp: expression nests too deeply: \`${"(".repeat(1000) + ")".repeat(1000)}\``],
  ];
  for (const [p, want] of cases) {
    it(p, () => assert.equal(compileGoRegexp(p).error, want));
  }
  it("deep nesting is an error, not a crash", () => {
    const r = compileGoRegexp("(".repeat(20000) + ")".repeat(20000));
    assert.ok(r.error === undefined || r.error.startsWith("error parsing regexp: "));
  });
});

describe("compileGoRegexp matching", () => {
  const cases: [string, string, boolean][] = [
    ["b", "abc", true],
    ["^b", "abc", false],
    [String.raw`^\d+$`, "123", true],
    [String.raw`^\d+$`, "١٢٣", false],
    [String.raw`^\s$`, "\u00a0", false],
    ["^.$", "😀", true],
    ["^\\p{Greek}+$", "αβγ", true],
    ["(?i)^abc$", "ABC", true],
    ["^a$", "a\n", false],
    ["(?m)^a$", "b\na", true],
    ["(?s)^.$", "\n", true],
    ["^[[:alpha:]]+$", "abc", true],
    [String.raw`\Qa.b\E`, "a.b", true],
    [String.raw`\Qa.b\E`, "axb", false],
    ["(?P<n>a)(?P<n>b)", "ab", true],
    ["(?P<n>a)(?P<n>b)", "ba", false],
  ];
  for (const [p, s, want] of cases) {
    it(`${p} ~ ${JSON.stringify(s)}`, () => assert.equal(compileGoRegexp(p).regexp?.test(s), want));
  }
});

describe("compileGoRegexp remembered match results", () => {
  it("a repeated subject gets the same answer, a different subject its own (short, long, past the memo limit)", () => {
    const re = compileGoRegexp("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$").regexp!;
    const long = "a".repeat(300);
    for (let round = 0; round < 3; round++) {
      assert.equal(re.test("my-route"), true);
      assert.equal(re.test("My-Route"), false);
      assert.equal(re.test("my-route-"), false);
      assert.equal(re.test(long), true);
      assert.equal(re.test(`${long}-`), false);
    }
    // more distinct subjects than all memos hold together: answers stay right when they start afresh
    const other = compileGoRegexp("^x[0-9]+$").regexp!;
    for (let i = 0; i < 20000; i++) {
      assert.equal(other.test(`x${i}`), true);
      if (i % 1000 === 0) assert.equal(re.test(i % 2000 === 0 ? "ok" : "NO"), i % 2000 === 0);
    }
    assert.equal(other.test("x"), false);
    assert.equal(other.test("x1"), true);
  });
});
