/**
 * Reading re2js' program uses re2js internals: it must decline what it does not recognise (then re2js'
 * own matcher answers). Its answers are checked against recorded Go answers in test/go-regexp.
 */
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { RE2JS } from "re2js";
import { programSize, progOfRe2js } from "./regexp-re2js-prog.js";

describe("progOfRe2js", () => {
  it("reads the program of an RE2JS", () => {
    const re = RE2JS.compile("(a+){100}b");
    assert.ok(programSize(re) > 200);
    assert.ok(progOfRe2js(re));
  });

  it("declines objects that are not re2js' compiled programs", () => {
    assert.equal(programSize({} as RE2JS), 0);
    assert.equal(progOfRe2js({} as RE2JS), undefined);
    const unknownOp = { re2Input: { prog: { inst: [{ op: 99, out: 0, arg: 0, matchRune: () => false }], start: 0, numLb: 0 }, dfa: { runeClass: () => 0, numClasses: 1 }, prefilter: null } };
    assert.equal(progOfRe2js(unknownOp as unknown as RE2JS), undefined);
    const lookbehind = { re2Input: { prog: { inst: [], start: 0, numLb: 1 }, dfa: { runeClass: () => 0, numClasses: 1 }, prefilter: null } };
    assert.equal(progOfRe2js(lookbehind as unknown as RE2JS), undefined);
  });
});
