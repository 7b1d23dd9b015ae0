import * as assert from "node:assert/strict";
import { test } from "node:test";
import { formatRFC3339, isZeroTime, parseRFC3339 } from "./time.js";

const L = `"2006-01-02T15:04:05Z07:00"`;
// Go time.Parse(time.RFC3339, s) outcomes (normalised with UTC().Format(RFC3339)) and error texts.
const cases: [string, string][] = [
  ["2020-01-02T03:04:05Z", "2020-01-02T03:04:05Z"],
  ["2020-01-02T03:04:05.123456789+01:00", "2020-01-02T02:04:05Z"],
  ["2020-01-02T03:04:05,5-02:30", "2020-01-02T05:34:05Z"],
  ["2020-01-01T1:00:00Z", "2020-01-01T01:00:00Z"],
  ["2020-02-29T23:59:59Z", "2020-02-29T23:59:59Z"],
  ["1969-12-31T23:59:59Z", "1969-12-31T23:59:59Z"],
  ["a", `parsing time "a" as ${L}: cannot parse "a" as "2006"`],
  ["", `parsing time "" as ${L}: cannot parse "" as "2006"`],
  ["20x0-01-01T00:00:00Z", `parsing time "20x0-01-01T00:00:00Z" as ${L}: cannot parse "20x0-01-01T00:00:00Z" as "2006"`],
  ["2020-01-01", `parsing time "2020-01-01" as ${L}: cannot parse "" as "T"`],
  ["2020-1-01T00:00:00Z", `parsing time "2020-1-01T00:00:00Z" as ${L}: cannot parse "1-01T00:00:00Z" as "01"`],
  ["2020-01-01 00:00:00Z", `parsing time "2020-01-01 00:00:00Z" as ${L}: cannot parse " 00:00:00Z" as "T"`],
  ["2020-01-01T00:00:00", `parsing time "2020-01-01T00:00:00" as ${L}: cannot parse "" as "Z07:00"`],
  ["2020-01-01T00:00:00+0100", `parsing time "2020-01-01T00:00:00+0100" as ${L}: cannot parse "+0100" as "Z07:00"`],
  ["2020-13-01T00:00:00Z", `parsing time "2020-13-01T00:00:00Z": month out of range`],
  ["2021-02-29T00:00:00Z", `parsing time "2021-02-29T00:00:00Z": day out of range`],
  ["2020-01-01T24:00:00Z", `parsing time "2020-01-01T24:00:00Z": hour out of range`],
  ["2020-01-01T00:60:00Z", `parsing time "2020-01-01T00:60:00Z": minute out of range`],
  ["2020-01-01T00:00:60Z", `parsing time "2020-01-01T00:00:60Z": second out of range`],
  ["2020-01-01T00:00:00+25:00", `parsing time "2020-01-01T00:00:00+25:00": time zone offset hour out of range`],
  ["2020-01-01T00:00:00Zjunk", `parsing time "2020-01-01T00:00:00Zjunk": extra text: "junk"`],
  ["héllo", `parsing time "h\\xc3\\xa9llo" as ${L}: cannot parse "h\\xc3\\xa9llo" as "2006"`],
];

for (const [input, want] of cases) {
  test(`time.Parse(RFC3339, ${JSON.stringify(input)})`, () => {
    const r = parseRFC3339(input);
    assert.equal(r.ok ? formatRFC3339(r.time) : r.error, want);
  });
}

test("zero time is recognised and formats as year 0001", () => {
  const r = parseRFC3339("0001-01-01T00:00:00Z");
  assert.ok(r.ok && isZeroTime(r.time));
  const r2 = parseRFC3339("0001-01-01T00:00:00.5Z");
  assert.ok(r2.ok && !isZeroTime(r2.time));
});
