/** Go's Unicode class name lookup (regexp/syntax canonicalName, special names, CategoryAliases). */
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { compileGoRegexp } from "./regexp.js";
import { canonicalName, rewriteUnicodeClassNames } from "./regexp-unicode-class.js";

describe("Go Unicode class names", () => {
  it("canonicalName drops spaces, underscores and hyphens, and capitalises only the first letter", () => {
    for (const [name, want] of <[string, string][]>[
      ["Letter", "Letter"],
      ["lu", "Lu"],
      ["cased letter", "Casedletter"],
      ["Old_Italic", "Olditalic"],
      [" ASCII-", "Ascii"],
      ["é", "é"],
    ]) {
      assert.equal(canonicalName(name), want, name);
    }
  });

  it("rewrites only names Go accepts, outside escapes and quotes", () => {
    assert.equal(rewriteUnicodeClassNames("^[a-z]+$"), undefined);
    assert.equal(rewriteUnicodeClassNames("\\pL\\p{Greek}"), undefined);
    assert.equal(rewriteUnicodeClassNames("\\p{Letter}[\\pz]\\P{^cased_letter}")?.pattern, "\\p{L}[\\pZ]\\P{^Lc}");
    assert.equal(rewriteUnicodeClassNames("\\\\p{letter}\\Q\\p{letter}\\E"), undefined);
    assert.equal(rewriteUnicodeClassNames("\\p{Foo}"), undefined);
  });

  // texts recorded from Go 1.26 (test/go-regexp/go-answers.json holds these and more)
  it("errors name the pattern as written", () => {
    for (const [p, want] of <[string, string][]>[
      ["\\p{Old_Italic}", "error parsing regexp: invalid character class range: `\\p{Old_Italic}`"],
      ["\\p{letter}(", "error parsing regexp: missing closing ): `\\p{letter}(`"],
      ["[\\p{letter}", "error parsing regexp: missing closing ]: `[\\p{letter}`"],
      ["\\p{letter}\\p{Foo}", "error parsing regexp: invalid character class range: `\\p{Foo}`"],
      ["(?P<n>\\p{letter})(?P<n>x**)", "error parsing regexp: invalid nested repetition operator: `**`"],
    ]) {
      assert.equal(compileGoRegexp(p).error, want, p);
    }
  });

  it("matches as Go does", () => {
    assert.equal(compileGoRegexp("^\\p{Letter}+$").regexp?.test("Ωé"), true);
    assert.equal(compileGoRegexp("^\\pz$").regexp?.test("\u00a0"), true);
    assert.equal(compileGoRegexp("\\p{assigned}").regexp?.test("\u0378"), false);
    assert.equal(compileGoRegexp("\\p{unassigned}").regexp?.test("\u0378"), true);
  });
});
