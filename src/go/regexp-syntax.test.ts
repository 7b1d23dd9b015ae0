/**
 * Go's `regexp/syntax.Parse(p, syntax.Perl)` verdicts: every expected text below is Go 1.26's, asked from
 * tools/go-regexp-oracle (`regexp.Compile`); undefined where Go compiles the pattern.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { GoSyntaxError, OP_CHAR_CLASS, OP_CONCAT, OP_LITERAL, parseGoRegexp } from "./regexp-syntax.js";

/** 3,355 runes: repeated 1,000 times, 3,355,000 of the 3,355,443 instructions Go allows. */
const L = "abcde".repeat(671);
const large = (e: string) => `error parsing regexp: expression too large: \`${e}\``;

const GO: readonly [pattern: string, error: string | undefined][] = [
  ["(a", "error parsing regexp: missing closing ): `(a`"],
  ["a)", "error parsing regexp: unexpected ): `a)`"],
  ["a**", "error parsing regexp: invalid nested repetition operator: `**`"],
  ["a{1001}", "error parsing regexp: invalid repeat count: `{1001}`"],
  ["x{2}{3}", "error parsing regexp: invalid nested repetition operator: `{2}{3}`"],
  ["\\8", "error parsing regexp: invalid escape sequence: `\\8`"],
  ["\\x{110000}", "error parsing regexp: invalid escape sequence: `\\x{110000`"],
  ["\\xg0", "error parsing regexp: invalid escape sequence: `\\xg0`"],
  ["[z-a]", "error parsing regexp: invalid character class range: `z-a`"],
  ["[a", "error parsing regexp: missing closing ]: `[a`"],
  ["[[:foo:]]", "error parsing regexp: invalid character class range: `[:foo:]`"],
  ["\\p{Foo}", "error parsing regexp: invalid character class range: `\\p{Foo}`"],
  ["\\pX", "error parsing regexp: invalid character class range: `\\pX`"],
  ["\\p", "error parsing regexp: invalid character class range: `\\p`"],
  ["(?P<n!>a)", "error parsing regexp: invalid named capture: `(?P<n!>`"],
  ["(?P<n", "error parsing regexp: invalid named capture: `(?P<n`"],
  ["(?<>a)", "error parsing regexp: invalid named capture: `(?<>`"],
  ["(?=a)", "error parsing regexp: invalid or unsupported Perl syntax: `(?=`"],
  ["(?i-)", "error parsing regexp: invalid or unsupported Perl syntax: `(?i-)`"],
  ["\\C", "error parsing regexp: invalid escape sequence: `\\C`"],
  ["\\", "error parsing regexp: trailing backslash at end of expression: ``"],
  ["a{2,1}", "error parsing regexp: invalid repeat count: `{2,1}`"],
  ["*", "error parsing regexp: missing argument to repetition operator: `*`"],
  ["(?i)\\Q*\\E+", undefined],
  ["\\p{^Greek}", undefined],
  ["[\\p{Lu}--]", undefined],
  // nested repeats: at most 1,000 copies of the innermost thing
  ["(?:a{100}){11}", "error parsing regexp: invalid repeat count: `{11}`"],
  ["(?:a{100}){10}", undefined],
  // the size limit is checked only once the regexps allocated times the repeat counts seen could exceed
  // it: 3,355,444 instructions pass when the parse allocated few regexps, not past an alternation
  [`(?:${L}){1000}a{443}`, undefined],
  [`(?:${L}){1000}a{444}`, undefined],
  [`(?:${L}){1000}(?:a{443}|b)`, large(`(?:${L}){1000}(?:a{443}|b)`)],
  // nesting: 1,000 levels of regexps; non-capturing groups are no level
  [`${"(".repeat(1001)}a${")".repeat(1001)}`, `error parsing regexp: expression nests too deeply: \`${"(".repeat(1001)}a${")".repeat(1001)}\``],
  [`${"(?:".repeat(1001)}a${")".repeat(1001)}`, undefined],
];

describe("parseGoRegexp", () => {
  it("gives Go's verdict and error text", () => {
    for (const [p, want] of GO) {
      const r = parseGoRegexp(p);
      assert.equal(r instanceof GoSyntaxError ? r.message : undefined, want, p.length > 60 ? `${p.slice(0, 60)}…` : p);
    }
  });

  it("builds Go's tree: literal strings merged, common prefixes factored, single runes made classes", () => {
    const r = parseGoRegexp("abc|abd");
    assert.ok(!(r instanceof GoSyntaxError));
    // ab[cd]
    assert.equal(r.op, OP_CONCAT);
    assert.equal(r.sub[0]?.op, OP_LITERAL);
    assert.deepEqual(r.sub[0]?.rune, [0x61, 0x62]);
    assert.equal(r.sub[1]?.op, OP_CHAR_CLASS);
    assert.deepEqual(r.sub[1]?.rune, [0x63, 0x64]);
  });

  it("folds case as Go does: (?i)k is K, k and the Kelvin sign", () => {
    const r = parseGoRegexp("(?i)k");
    assert.ok(!(r instanceof GoSyntaxError));
    assert.equal(r.op, OP_LITERAL);
    assert.deepEqual(r.rune, [0x4b]);
    const k = parseGoRegexp("(?i)[k]");
    assert.ok(!(k instanceof GoSyntaxError));
    assert.equal(k.op, OP_CHAR_CLASS);
    assert.deepEqual(k.rune, [0x4b, 0x4b, 0x6b, 0x6b, 0x212a, 0x212a]);
    // [Aa] is the literal A, folded
    const a = parseGoRegexp("[Aa]");
    assert.ok(!(a instanceof GoSyntaxError));
    assert.equal(a.op, OP_LITERAL);
    assert.deepEqual(a.rune, [0x41]);
    const c = parseGoRegexp("(?i)[j-l]");
    assert.ok(!(c instanceof GoSyntaxError));
    assert.deepEqual(c.rune, [0x4a, 0x4c, 0x6a, 0x6c, 0x212a, 0x212a]);
  });

  it("reads Unicode class names as Go 1.25+ does (long names, any case, no underscores)", () => {
    for (const p of ["\\p{Letter}", "\\p{cased_letter}", "\\pz", "\\p{ lu }", "\\P{^ascii}"]) assert.ok(!(parseGoRegexp(p) instanceof GoSyntaxError), p);
  });
});
