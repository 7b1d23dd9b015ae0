import assert from "node:assert/strict";
import { test } from "node:test";
import { escapeProperty, unescapeProperty } from "./escaping.js";

const cases: [string, string | undefined][] = [
  ["foo", "foo"], ["namespace", "__namespace__"], ["if", "__if__"], ["a-b", "a__dash__b"], ["a.b", "a__dot__b"],
  ["a/b", "a__slash__b"], ["a__b", "a__underscores__b"], ["a___b", "a__underscores___b"], ["_foo", "_foo"],
  ["1foo", undefined], ["", undefined], ["a b", undefined], ["a:b", undefined], ["a-b c", undefined],
  ["x-kubernetes-x", "x__dash__kubernetes__dash__x"], ["__", "__underscores__"],
];
for (const [input, want] of cases) {
  test(`Escape(${JSON.stringify(input)})`, () => {
    assert.equal(escapeProperty(input), want);
    if (want !== undefined) assert.equal(unescapeProperty(want), input);
  });
}

test("Unescape rejects unknown escapes", () => {
  assert.equal(unescapeProperty("a__foo__b"), undefined);
  assert.equal(unescapeProperty("a__if__b"), undefined);
});
