import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { prefilterOf } from "./regexp-prefilter.js";
import { GoSyntaxError, parseGoRegexp } from "./regexp-syntax.js";

function pf(p: string) {
  const t = parseGoRegexp(p);
  if (t instanceof GoSyntaxError) throw t;
  return prefilterOf(t);
}

describe("prefilterOf", () => {
  it("requires the literals of concatenations, captures and repeats of one copy or more", () => {
    const f = pf("(a+a?){1000}b");
    assert.ok(f);
    assert.equal(f("a".repeat(50)), false);
    assert.equal(f("ab"), true);
    const g = pf("^foo(bar)+x{2}😀$");
    assert.ok(g);
    assert.equal(g("foobarxx😀"), true);
    assert.equal(g("foobarx😀"), true, "a required string, not a match test");
    assert.equal(g("fobarxx😀"), false);
    assert.equal(g("foobarxx"), false);
  });

  it("requires nothing of alternatives, optional parts and case-folded literals", () => {
    for (const p of ["a|b", "(ab)?", "(ab)*", "x{0,3}", "(?i)abc", "[ab]", "."]) assert.equal(pf(p), undefined, p);
  });
});
