import * as assert from "node:assert/strict";
import { test } from "node:test";
import { floatInRange } from "./compile.js";

// `IsValueValidAgainstRange` of a float64 bound on an integer schema: the value printed with 'f' must be an
// integer that fits the format's range (int64 unless int32)
const cases: [number, string, boolean][] = [
  [0, "", true],
  [-0, "int32", true],
  [2147483647, "int32", true],
  [2147483648, "int32", false],
  [-2147483648, "int32", true],
  [-2147483649, "int32", false],
  [2147483648, "int64", true],
  [2147483648, "", true],
  [Number.MAX_SAFE_INTEGER, "int32", false],
  [Number.MAX_SAFE_INTEGER, "int64", true],
  [-Number.MAX_SAFE_INTEGER, "", true],
  [2 ** 53, "", true],
  [2 ** 62, "int64", true],
  [2 ** 63, "int64", false],
  // printed with the shortest digits, -9223372036854776000: below int64
  [-(2 ** 63), "int64", false],
  [-(2 ** 64), "", false],
  [1e20, "", false],
  [1.5, "int64", false],
  [-0.5, "int32", false],
  [Number.NaN, "", false],
  [Number.POSITIVE_INFINITY, "", false],
];
for (const [f, format, want] of cases) {
  test(`floatInRange(${f}, integer, ${JSON.stringify(format)}) = ${want}`, () => {
    assert.equal(floatInRange(f, "integer", format), want);
  });
}

test("floatInRange of a number schema: only float32 bounds are checked", () => {
  assert.equal(floatInRange(1e300, "number", "float"), false);
  assert.equal(floatInRange(1e30, "number", "float"), true);
  assert.equal(floatInRange(1e300, "number", "double"), true);
  assert.equal(floatInRange(1.5, "", ""), true);
});
