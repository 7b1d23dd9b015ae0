import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { matchesRequirement, parseLabelSelectorText } from "../../src/server/endpoints/label-selector.js";

function matches(sel: string, labels: Record<string, string>): boolean {
  const r = parseLabelSelectorText(sel);
  assert.ok(typeof r !== "string", String(r));
  return r.every((x) => matchesRequirement(x, labels));
}

describe("label selectors (apimachinery labels.Parse)", () => {
  it("matches every operator", () => {
    const l = { app: "web", tier: "3" };
    assert.equal(matches("app=web", l), true);
    assert.equal(matches("app==web,tier", l), true);
    assert.equal(matches("app!=web", l), false);
    assert.equal(matches("app in (db, web)", l), true);
    assert.equal(matches("app notin (web)", l), false);
    assert.equal(matches("!missing", l), true);
    assert.equal(matches("!app", l), false);
    assert.equal(matches("tier>2", l), true);
    assert.equal(matches("tier<3", l), false);
    assert.equal(matches("app>2", l), false);
    assert.equal(matches("missing!=x", l), true);
    assert.equal(matches("app in ()", { app: "" }), true);
    assert.equal(matches("", l), true);
  });
  const errors: [string, string][] = [
    ["a===b", "unable to parse requirement: found '=', expected: identifier"],
    ["a=b,", "found '', expected: identifier after ','"],
    ["a=x y", "found 'y', expected: ',' or 'end of string'"],
    ["a in (x", "unable to parse requirement: found '', expected: ',' or ')'"],
    ["a in x", "unable to parse requirement: found 'x' expected: '('"],
    ["=a", "found '=', expected: !, identifier, or 'end of string'"],
    ["a b", "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"],
    ["a>b", "unable to parse requirement: values[0]: Invalid value: \"b\": for 'Gt', 'Lt' operators, the value must be an integer"],
  ];
  for (const [sel, want] of errors) {
    it(`rejects ${JSON.stringify(sel)}`, () => assert.equal(parseLabelSelectorText(sel), want));
  }
});
