import * as assert from "node:assert/strict";
import { test } from "node:test";
import { decodeJsonStream } from "./json-decode.js";

// [input, encoding/json Unmarshal outcome ("ok" or err.Error())], recorded with Go 1.26: broken literals and
// numbers name the first wrong character (a space when the input ends, as encoding/json's scanner feeds one).
const cases: [string, string][] = [
  ["{\"a\":tru}", "invalid character '}' in literal true (expecting 'e')"],
  ["{\"a\":tru", "invalid character ' ' in literal true (expecting 'e')"],
  ["{\"a\":nul}", "invalid character '}' in literal null (expecting 'l')"],
  ["{\"a\":fals}", "invalid character '}' in literal false (expecting 'e')"],
  ["{\"a\":-x}", "invalid character 'x' in numeric literal"],
  ["{\"a\":1.}", "invalid character '}' after decimal point in numeric literal"],
  ["{\"a\":1.x}", "invalid character 'x' after decimal point in numeric literal"],
  ["{\"a\":1e}", "invalid character '}' in exponent of numeric literal"],
  ["{\"a\":1e+}", "invalid character '}' in exponent of numeric literal"],
  ["{\"a\":1E-x}", "invalid character 'x' in exponent of numeric literal"],
  ["[t]", "invalid character ']' in literal true (expecting 'r')"],
  ["[nx]", "invalid character 'x' in literal null (expecting 'u')"],
  ["-", "invalid character ' ' in numeric literal"],
  ["1.", "invalid character ' ' after decimal point in numeric literal"],
  ["[1.5e3]", "ok"],
  ["[true]", "ok"],
  ["[-]", "invalid character ']' in numeric literal"],
  ["[1.e3]", "invalid character 'e' after decimal point in numeric literal"],
];

for (const [input, want] of cases) {
  test(`JSON syntax error of ${JSON.stringify(input)}`, () => {
    const r = decodeJsonStream(input);
    assert.equal(r.problem ? r.problem.message : "ok", want);
  });
}
