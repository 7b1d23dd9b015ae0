import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { simpleFold, simpleFoldByTable } from "./regexp-unicode.js";

describe("simpleFold", () => {
  it("answers the FOLD table's rune for every rune of the Basic Multilingual Plane and beyond", () => {
    for (let r = 0; r <= 0x1f000; r++) {
      if (simpleFold(r) !== simpleFoldByTable(r)) assert.fail(`simpleFold(${r.toString(16)}) = ${simpleFold(r).toString(16)}, table ${simpleFoldByTable(r).toString(16)}`);
    }
  });
  it("follows Go's orbits of k and s through KELVIN SIGN and LONG S", () => {
    assert.deepEqual(
      [0x4b, 0x6b, 0x212a, 0x53, 0x73, 0x17f, 0x41, 0x61, 0x5f, 0x30].map(simpleFold),
      [0x6b, 0x212a, 0x4b, 0x73, 0x17f, 0x53, 0x61, 0x41, 0x5f, 0x30],
    );
  });
});
