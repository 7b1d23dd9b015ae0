import * as assert from "node:assert/strict";
import { test } from "node:test";
import { nativeToCel } from "./native.js";
import { celCompare, celEquals, codePointLength, compareStrings, tagOf, typeOf } from "./ops.js";
import type { CelValue } from "./values.js";
import { CelDuration, CelError, CelOptional, CelUint, CelUnknown, HashCelMap, ObjectCelMap } from "./values.js";

test("HashCelMap: typed keys with cel-go's lossless numeric lookup fallbacks", () => {
  const m = new HashCelMap();
  m.set(1n, "int");
  m.set(new CelUint(2n), "uint");
  m.set(3.5, "double");
  m.set(null, "null");
  m.set("s", "string");
  assert.equal(m.size, 5);
  assert.equal(m.get(1n), "int");
  assert.equal(m.get(1), "int"); // double → int
  assert.equal(m.get(new CelUint(1n)), "int"); // uint → int
  assert.equal(m.get(2n), "uint"); // int → uint
  assert.equal(m.get(2), "uint"); // double → uint
  assert.equal(m.get(3.5), "double");
  assert.equal(m.get(null), "null");
  assert.equal(m.get(-1n), undefined);
  assert.equal(m.get(Number.NaN), undefined);
  assert.equal(m.set([1n], 1n), false);
  m.delete(1n);
  assert.equal(m.get(1), undefined);
  assert.deepEqual(m.keys().map(tagOf), ["uint", "double", "null", "string"]);
});

test("ObjectCelMap: lazy conversion, own keys only", () => {
  let conversions = 0;
  const m = new ObjectCelMap({ a: 1, b: "x" }, (v) => {
    conversions++;
    return nativeToCel(v);
  });
  assert.equal(m.get("a"), 1n);
  assert.equal(m.get("a"), 1n);
  assert.equal(conversions, 1);
  assert.equal(m.get("toString"), undefined);
  assert.equal(m.has("constructor"), false);
  assert.equal(m.size, 2);
  assert.ok(celEquals(m, nativeToCel({ b: "x", a: 1 })) === true);
});

test("equality: heterogeneous, numeric cross-type, NaN, nested, specials", () => {
  const cases: [CelValue, CelValue, boolean][] = [
    [1n, 1, true],
    [1n, new CelUint(1n), true],
    [new CelUint(1n), 1.0, true],
    [1n, "1", false],
    [Number.NaN, Number.NaN, false],
    [[1n, [2n]], [1, [new CelUint(2n)]], true],
    [CelOptional.NONE, CelOptional.NONE, true],
    [CelOptional.of(1n), CelOptional.of(1), true],
    [new CelDuration(1n), new CelDuration(1n), true],
    [Uint8Array.of(1, 2), Uint8Array.of(1, 2), true],
    [null, null, true],
    [null, 0n, false],
  ];
  for (const [a, b, want] of cases) assert.equal(celEquals(a, b), want, `${String(a)} == ${String(b)}`);
  const err = new CelError("x");
  assert.equal(celEquals(err, 1n), err);
  const u = new CelUnknown([3]);
  assert.equal(celEquals(1n, u), u);
});

test("ordering: cel-go lossy int/double comparison, code-point strings, NaN error", () => {
  assert.equal(celCompare(9223372036854775807n, 2 ** 63), 0);
  assert.equal(celCompare(1n, 1.5), -1);
  assert.equal(celCompare(new CelUint(3n), 2n), 1);
  assert.equal(celCompare("\uffff", "😀"), -1);
  assert.equal(compareStrings("b", "a"), 1);
  assert.equal(celCompare("a", 1n), undefined);
  const nan = celCompare(Number.NaN, 1n);
  assert.ok(nan instanceof CelError && nan.message === "NaN values cannot be ordered");
});

test("types and sizes", () => {
  assert.equal(typeOf(new CelDuration(0n)).name, "google.protobuf.Duration");
  assert.equal(typeOf(null).name, "null_type");
  assert.equal(typeOf(CelOptional.NONE).name, "optional_type");
  assert.equal(codePointLength("a😀b"), 3);
  assert.equal(codePointLength("\uD800x"), 2);
});
