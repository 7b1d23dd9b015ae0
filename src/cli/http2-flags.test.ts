import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Http2ServingOptions } from "../server/http2-serving.js";
import { isHttp2Flag, setHttp2Flag } from "./http2-flags.js";

describe("HTTP/2 serving flags", () => {
  const cases: Array<[string, string | undefined, string | undefined, Http2ServingOptions | string]> = [
    ["--disable-http2-serving", undefined, undefined, { disabled: true }],
    ["--disable-http2-serving", "true", undefined, { disabled: true }],
    ["--disable-http2-serving", "false", undefined, { disabled: false }],
    ["--disable-http2-serving", "1", undefined, 'invalid argument "1" for "--disable-http2-serving" flag: want true or false'],
    ["--http2-max-streams-per-connection", "1000", undefined, { maxStreamsPerConnection: 1000 }],
    ["--http2-max-streams-per-connection", undefined, "250", { maxStreamsPerConnection: 250 }],
    ["--http2-max-streams-per-connection", "0", undefined, { maxStreamsPerConnection: 0 }],
    ["--http2-max-streams-per-connection", "-5", undefined, { maxStreamsPerConnection: 0 }],
    ["--http2-max-streams-per-connection", "1.5", undefined, 'invalid argument "1.5" for "--http2-max-streams-per-connection" flag: want an integer'],
  ];
  for (const [flag, inline, next, want] of cases) {
    it(`${flag}${inline !== undefined ? `=${inline}` : next !== undefined ? ` ${next}` : ""}`, () => {
      assert.equal(isHttp2Flag(flag), true);
      const out: Http2ServingOptions = {};
      const err = setHttp2Flag(out, flag, inline, () => next);
      if (typeof want === "string") assert.equal(err, want);
      else assert.deepEqual([err, out], [undefined, want]);
    });
  }
  it("leaves other flags alone", () => {
    assert.equal(isHttp2Flag("--http2"), false);
  });
});
