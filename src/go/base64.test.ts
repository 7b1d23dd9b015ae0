import * as assert from "node:assert/strict";
import { test } from "node:test";
import { goBase64StdDecode } from "./base64.js";

// [input, Go's base64.StdEncoding.DecodeString outcome: "ok <hex>" or err.Error()], recorded with Go 1.26.
const cases: [string, string][] = [
  ["", "ok "],
  ["!!", "illegal base64 data at input byte 0"],
  ["YQ==", "ok 61"],
  ["YQ=", "illegal base64 data at input byte 3"],
  ["YQ", "illegal base64 data at input byte 0"],
  ["Y", "illegal base64 data at input byte 0"],
  ["YWI=", "ok 6162"],
  ["YWJj", "ok 616263"],
  ["YWJjZA==", "ok 61626364"],
  ["YWJjZA", "illegal base64 data at input byte 4"],
  ["YWJj\nZA==", "ok 61626364"],
  ["YQ==\n", "ok 61"],
  ["YQ==x", "illegal base64 data at input byte 4"],
  ["Y===", "illegal base64 data at input byte 1"],
  ["=", "illegal base64 data at input byte 0"],
  ["YWJjZA=\n=", "ok 61626364"],
  ["\u00e9", "illegal base64 data at input byte 0"],
  ["aGVsbG8=", "ok 68656c6c6f"],
  ["aGVsbG8", "illegal base64 data at input byte 4"],
  ["YWJj ZA==", "illegal base64 data at input byte 4"],
  ["YW==", "ok 61"],
  ["YQ==YQ==", "illegal base64 data at input byte 4"],
  ["YWJjZGVmZ2hp!", "illegal base64 data at input byte 12"],
  ["\r\nYQ==\r\n", "ok 61"],
  ["YWJjZA=x", "illegal base64 data at input byte 6"],
];

for (const [input, want] of cases) {
  test(`base64.StdEncoding.DecodeString(${JSON.stringify(input)})`, () => {
    const r = goBase64StdDecode(input);
    const got = r.ok ? `ok ${Array.from(r.bytes, (b) => b.toString(16).padStart(2, "0")).join("")}` : `illegal base64 data at input byte ${r.offset}`;
    assert.equal(got, want);
  });
}
