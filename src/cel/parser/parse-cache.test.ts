import * as assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Env, isCompileFailure } from "../env.js";
import { STANDARD_MACROS } from "./macros.js";
import { ParseCache } from "./parse-cache.js";
import { parse } from "./parser.js";

describe("ParseCache", () => {
  it("returns the earlier result for the same source and equal options", () => {
    const cache = new ParseCache();
    const a = cache.parse("self.all(x, x > 1)", { macros: STANDARD_MACROS });
    assert.equal(cache.parse("self.all(x, x > 1)", { macros: [...STANDARD_MACROS] }), a);
    assert.deepEqual(a, parse("self.all(x, x > 1)", { macros: STANDARD_MACROS }));
    assert.equal(cache.size, 1);
  });

  it("parses again when an option differs", () => {
    const cache = new ParseCache();
    const withMacros = cache.parse("self.all(x, x > 1)", { macros: STANDARD_MACROS });
    const without = cache.parse("self.all(x, x > 1)", { macros: [] });
    assert.notEqual(without, withMacros);
    assert.equal(without.ast?.expr.kind, "call"); // not expanded to a comprehension
    assert.equal(withMacros.ast?.expr.kind, "comprehension");
    const optional = cache.parse("a.?b", { enableOptionalSyntax: true });
    assert.equal(optional.errorText, "");
    const plain = cache.parse("a.?b", { enableOptionalSyntax: false });
    assert.match(plain.errorText, /unsupported syntax '\.\?'/);
    const described = cache.parse("1 +", { description: "rule.cel" });
    assert.match(described.errorText, /^ERROR: rule\.cel:1:4/);
    assert.match(cache.parse("1 +").errorText, /^ERROR: <input>:1:4/);
  });

  it("keeps at most maxEntries results", () => {
    const cache = new ParseCache(3);
    for (const s of ["1", "2", "3", "4"]) cache.parse(s);
    assert.ok(cache.size <= 3);
    assert.equal(cache.parse("4").ast?.expr.kind, "const");
  });

  it("serves environments: errors and results are those of an uncached environment", () => {
    const cache = new ParseCache();
    const cached = new Env({ variables: { self: "list(int)" }, parseCache: cache });
    const other = new Env({ variables: { self: "list(string)" }, parseCache: cache });
    const plain = new Env({ variables: { self: "list(string)" } });
    for (const expr of ["self.all(x, x > 1)", "self.exists(x, x == 'a')", "self[0] +", "self.map(x, x)"]) {
      const a = cached.compile(expr);
      const b = other.compile(expr);
      const c = plain.compile(expr);
      assert.equal(isCompileFailure(b), isCompileFailure(c), expr);
      if (isCompileFailure(b) && isCompileFailure(c)) assert.equal(b.issues, c.issues);
      else if (!isCompileFailure(b) && !isCompileFailure(c)) assert.deepEqual(b.checked.types, c.checked.types);
      assert.ok(a !== undefined);
    }
    // `self.all(x, x > 1)` checks against list(int) but not list(string): same parse, own check
    assert.ok(!isCompileFailure(cached.compile("self.all(x, x > 1)")));
    const f = other.compile("self.all(x, x > 1)");
    assert.ok(isCompileFailure(f) && /no matching overload for '_>_'/.test(f.issues));
    assert.equal(cache.size, 4);
  });
});
