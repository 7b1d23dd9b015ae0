/**
 * Go's `time.ParseDuration`: values and error texts (the texts the API server puts in its answers, e.g. a
 * request's `?timeout=`), and units that only a fixed table knows (a unit named like an Object member). Every
 * expectation was checked against Go 1.26's time.ParseDuration.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { goParseDuration, parseGoDuration } from "./time.js";

test("durations as Go parses them", () => {
  assert.equal(goParseDuration("0"), 0n);
  assert.equal(goParseDuration("-0"), 0n);
  assert.equal(goParseDuration("1h2m3.5s"), 3_723_500_000_000n);
  assert.equal(goParseDuration("-1.5h"), -5_400_000_000_000n);
  assert.equal(goParseDuration("1.5ns"), 1n); // the fraction of a nanosecond is truncated
  assert.equal(goParseDuration(".5s"), 500_000_000n);
  assert.equal(goParseDuration("1\u00b5s"), 1000n);
  assert.equal(goParseDuration("1\u03bcs"), 1000n);
  assert.equal(goParseDuration("9223372036854775807ns"), 9_223_372_036_854_775_807n);
  assert.equal(goParseDuration("-9223372036854775808ns"), -9_223_372_036_854_775_808n);
});

test("Go's error texts, quoted as the time package quotes", () => {
  assert.equal(goParseDuration(""), 'time: invalid duration ""');
  assert.equal(goParseDuration("abc"), 'time: invalid duration "abc"');
  assert.equal(goParseDuration("-"), 'time: invalid duration "-"');
  assert.equal(goParseDuration(".s"), 'time: invalid duration ".s"');
  assert.equal(goParseDuration("1"), 'time: missing unit in duration "1"');
  assert.equal(goParseDuration("1h2"), 'time: missing unit in duration "1h2"');
  assert.equal(goParseDuration("5x"), 'time: unknown unit "x" in duration "5x"');
  assert.equal(goParseDuration("1xé"), 'time: unknown unit "x\\xc3\\xa9" in duration "1x\\xc3\\xa9"');
  assert.equal(goParseDuration('1"s'), 'time: unknown unit "\\"s" in duration "1\\"s"');
  assert.equal(goParseDuration("9223372036854775808ns"), 'time: invalid duration "9223372036854775808ns"');
  assert.equal(goParseDuration("3000000h"), 'time: invalid duration "3000000h"');
});

test("a unit named like an Object member is an unknown unit (once a TypeError)", () => {
  for (const u of ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"]) {
    assert.equal(goParseDuration(`1${u}`), `time: unknown unit "${u}" in duration "1${u}"`);
    assert.equal(parseGoDuration(`1${u}`), undefined);
  }
});
