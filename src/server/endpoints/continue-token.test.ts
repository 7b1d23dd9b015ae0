import assert from "node:assert/strict";
import { test } from "node:test";
import { ContinueTokenError, decodeContinue } from "./list-paging.js";

function refusal(token: string): string {
  try {
    decodeContinue(token, "/registry/x/");
  } catch (e) {
    if (e instanceof ContinueTokenError) return e.message;
    throw e;
  }
  return "accepted";
}

test("a continue token whose bytes are not one JSON value is json.Unmarshal's error, byte by byte (29-fuzz-findings)", () => {
  // "MISSING" decodes to 0x30 0x84 0x92 0x20 0xd1: the number 0, then a byte Go quotes as a rune
  assert.equal(refusal("MISSING"), "continue key is not valid: invalid character '\\u0084' after top-level value");
  // "1 2": two values
  assert.equal(refusal(Buffer.from("1 2").toString("base64url")), "continue key is not valid: invalid character '2' after top-level value");
  assert.equal(refusal(Buffer.from("truex").toString("base64url")), "continue key is not valid: invalid character 'x' after top-level value");
  assert.equal(refusal(Buffer.from("{} \u0001").toString("base64url")), "continue key is not valid: invalid character '\\x01' after top-level value");
});
