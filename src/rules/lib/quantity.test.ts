import assert from "node:assert/strict";
import { test } from "node:test";
import {
  addQuantity, compareQuantity, ERR_FORMAT_WRONG, ERR_SUFFIX, parseQuantity, quantityAsApproximateFloat,
  quantityAsInt64, quantityFromInt, quantitySign, subQuantity, type Quantity,
} from "./quantity.js";

function q(s: string): Quantity {
  const r = parseQuantity(s);
  if (typeof r === "string") throw new Error(`${s}: ${r}`);
  return r;
}

const valid: [string, bigint | undefined, number][] = [
  ["0", 0n, 0], ["1", 1n, 1], ["1k", 1000n, 1000], ["1Ki", 1024n, 1024], ["1.5Gi", 1610612736n, 1610612736],
  ["100m", undefined, 0.1], ["-5", -5n, -5], ["+5", 5n, 5], ["1e3", 1000n, 1000], ["1E3", 1000n, 1000],
  ["1.", 1n, 1], [".5", undefined, 0.5], ["0001", 1n, 1], ["12E", (1n << 63n) - 1n, 2 ** 63],
  ["1n", undefined, 1e-9], ["1e-10", undefined, 1e-9], ["000", 0n, 0], ["1M", 1000000n, 1e6],
];
for (const [s, int, approx] of valid) {
  test(`quantity ${s} parses`, () => {
    const v = q(s);
    assert.equal(quantityAsInt64(v), int);
    assert.ok(Math.abs(quantityAsApproximateFloat(v) - approx) <= Math.abs(approx) * 1e-12);
  });
}

const invalid: [string, string][] = [
  ["", ERR_FORMAT_WRONG], ["abc", ERR_FORMAT_WRONG], ["1.2.3", ERR_FORMAT_WRONG], ["1x", ERR_FORMAT_WRONG],
  ["1e", ERR_SUFFIX], ["1Kii", ERR_SUFFIX], ["1K", ERR_SUFFIX], ["1i", ERR_SUFFIX], ["1 ", ERR_FORMAT_WRONG],
];
for (const [s, err] of invalid) test(`quantity ${JSON.stringify(s)} is rejected`, () => assert.equal(parseQuantity(s), err));

test("quantity comparison and arithmetic are exact", () => {
  assert.equal(compareQuantity(q("1Gi"), q("1G")), 1);
  assert.equal(compareQuantity(q("1000m"), q("1")), 0);
  assert.equal(compareQuantity(q("-1"), q("0")), -1);
  assert.equal(quantitySign(q("-1m")), -1);
  assert.equal(quantityAsInt64(addQuantity(q("500m"), q("500m"))), 1n);
  assert.equal(quantityAsInt64(subQuantity(q("1"), quantityFromInt(3n))), -2n);
  assert.equal(quantityAsInt64(q("1.5")), undefined);
});
