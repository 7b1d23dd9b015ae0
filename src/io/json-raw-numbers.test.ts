import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeJsonStream } from "./json-decode.js";
import { goJsonMarshal, goJsonNumberText } from "../go/json.js";
import { Float64, RawNumber, kindOf } from "../value/json-value.js";

const value = (text: string, opts: { rawNumbers?: boolean; recordRangeErrors?: boolean }) => decodeJsonStream(text, opts).documents[0]!.value;

test("rawNumbers: literals Go prints otherwise keep their text; the others decode as usual", () => {
  const cases: [string, string | undefined][] = [
    ["-0", "-0"], ["1.0", "1.0"], ["1e3", "1e3"], ["1E-7", "1E-7"], ["1.50", "1.50"], ["9223372036854775808", "9223372036854775808"],
    ["100000000000000000000000", "100000000000000000000000"], ["-9223372036854775809", "-9223372036854775809"], ["1e400", "1e400"],
    ["0", undefined], ["-5", undefined], ["1.5", undefined], ["9223372036854775807", undefined], ["1e+21", undefined], ["0.25", undefined],
  ];
  for (const [lit, raw] of cases) {
    const v = value(lit, { rawNumbers: true, recordRangeErrors: true });
    if (raw === undefined) assert.ok(!(v instanceof RawNumber), lit);
    else {
      assert.ok(v instanceof RawNumber, lit);
      assert.equal(v.text, raw);
    }
    // marshalled as sent
    assert.equal(goJsonMarshal(value(`{"a":[${lit}]}`, { rawNumbers: true, recordRangeErrors: true })), `{"a":[${lit}]}`);
  }
});

test("without rawNumbers numbers are Go's (int64 / float64) and print as Go prints them", () => {
  assert.equal(value("-0", {}), 0);
  assert.equal(kindOf(value("1.0", {})), "number");
  assert.equal(goJsonMarshal(value('[-0,1.0,1e3,1.50,9223372036854775808,1E-7]', {})), "[0,1,1000,1.5,9223372036854776000,1e-7]");
  // a number beyond float64 fails the parse unless recorded
  assert.equal(decodeJsonStream("[1e400]").problem?.message, 'strconv.ParseFloat: parsing "1e400": value out of range');
  const r = decodeJsonStream("[1e400,-1e999]", { recordRangeErrors: true });
  assert.equal(r.outOfRange, "1e400");
  assert.ok(Array.isArray(r.documents[0]!.value) && (r.documents[0]!.value[0] as Float64).value === Number.POSITIVE_INFINITY);
  // the mode ends with the call
  assert.ok(!(value("1.0", {}) instanceof RawNumber));
});

test("goJsonNumberText: the literal of a raw number, Go's rendering of any other", () => {
  assert.equal(goJsonNumberText(new RawNumber(1, "1.0")), "1.0");
  assert.equal(goJsonNumberText(new Float64(1)), "1");
  assert.equal(goJsonNumberText(1.5), "1.5");
  assert.equal(goJsonNumberText(12n), "12");
});
