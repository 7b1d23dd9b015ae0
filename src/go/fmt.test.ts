import assert from "node:assert/strict";
import { test } from "node:test";
import { formatGoFloat, goQuote } from "./fmt.js";
import { goJsonMarshal } from "./json.js";
import { Float64 } from "../value/json-value.js";

const floats: [number, string][] = [
  [1e6, "1e+06"], [123456, "123456"], [1234567, "1.234567e+06"], [0.5, "0.5"], [0.0001, "0.0001"],
  [0.00001, "1e-05"], [1.5e300, "1.5e+300"], [-2.25, "-2.25"], [10, "10"], [-0, "-0"],
];
for (const [n, want] of floats) test(`Go %v of float64 ${n}`, () => assert.equal(formatGoFloat(n), want));

const quotes: [string, string][] = [
  ["abc", '"abc"'], ['a"b', '"a\\"b"'], ["tab\t", '"tab\\t"'], ["\u0001", '"\\x01"'], ["\u007f", '"\\x7f"'],
  ["héllo", '"héllo"'], ["\u00ad", '"\\u00ad"'], ["😀", '"😀"'],
];
for (const [s, want] of quotes) test(`Go %q of ${JSON.stringify(s)}`, () => assert.equal(goQuote(s), want));

test("Go json.Marshal sorts keys and formats numbers", () => {
  assert.equal(goJsonMarshal({ b: [1, 1.5, new Float64(2)], a: "x&y", c: null }), '{"a":"x\\u0026y","b":[1,1.5,2],"c":null}');
  assert.equal(goJsonMarshal(1e21), "1e+21");
  assert.equal(goJsonMarshal(1e-7), "1e-7");
});
