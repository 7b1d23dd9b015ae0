import * as assert from "node:assert/strict";
import { test } from "node:test";
import { CelDuration, CelError, CelTimestamp } from "../values/values.js";
import { format, quote, toFixedHalfEven } from "./strings-ext.js";
import { formatDuration, formatTimestamp, parseDuration, parseTimestamp, timeFields } from "./time.js";

test("Go time.ParseDuration", () => {
  const cases: [string, bigint | null][] = [
    ["1h2m3.5s", 3723_500_000_000n],
    ["-1.5ms", -1_500_000n],
    ["+10us", 10_000n],
    ["1µs", 1_000n],
    ["0", 0n],
    [".5s", 500_000_000n],
    ["1", null],
    ["", null],
    ["1d", null],
    ["s", null],
    ["3000000h", null], // beyond int64 nanoseconds
  ];
  for (const [s, want] of cases) {
    const d = parseDuration(s);
    if (want === null) assert.ok(d instanceof CelError, s);
    else assert.ok(d instanceof CelDuration && d.nanos === want, s);
  }
  assert.equal(formatDuration(new CelDuration(1_500_000_000n)), "1.5s");
  assert.equal(formatDuration(new CelDuration(-3_600_000_000_000n)), "-3600s");
  assert.equal(formatDuration(new CelDuration(1n)), "0.000000001s");
});

test("Go time.Parse(RFC3339) and RFC3339Nano formatting", () => {
  const ok: [string, string][] = [
    ["2024-02-29T12:00:00Z", "2024-02-29T12:00:00Z"],
    ["2024-02-29T12:00:00.5+01:00", "2024-02-29T11:00:00.5Z"],
    ["0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z"],
    ["9999-12-31T23:59:59.999999999Z", "9999-12-31T23:59:59.999999999Z"],
    ["1969-12-31T23:59:59.1Z", "1969-12-31T23:59:59.1Z"],
  ];
  for (const [s, want] of ok) {
    const t = parseTimestamp(s);
    assert.ok(t instanceof CelTimestamp, s);
    assert.equal(formatTimestamp(t), want);
  }
  for (const s of ["2023-02-29T00:00:00Z", "2024-01-01 00:00:00Z", "2024-01-01T00:00:00z", "2024-01-01T24:00:00Z", "2024-01-01T00:00:00"]) {
    assert.ok(parseTimestamp(s) instanceof CelError, s);
  }
});

test("calendar fields in zones", () => {
  const t = parseTimestamp("2024-03-10T10:30:00Z") as CelTimestamp;
  const la = timeFields(t, "America/Los_Angeles");
  assert.ok(!(la instanceof CelError));
  assert.equal(la.hour, 3); // PDT started at 2024-03-10 10:00Z
  const fixed = timeFields(t, "-02:30");
  assert.ok(!(fixed instanceof CelError));
  assert.deepEqual([fixed.hour, fixed.minute], [8, 0]);
  const bad = timeFields(t, "+01:75");
  assert.ok(bad instanceof CelError && bad.message === "timezone offset minutes out of range [0, 59]: +01:75");
});

test("format verbs", () => {
  const cases: [string, unknown[], string][] = [
    ["%e", [1234.5], "1.234500e+03"],
    ["%.2e", [0.000123], "1.23e-04"],
    ["%x", [255n], "ff"],
    ["%X", ["hi"], "6869"],
    ["%o", [8n], "10"],
    ["%b", [true], "1"],
    ["%.0f", [0.5], "0"],
    ["%.1f", [0.25], "0.2"],
    ["%d", [-7n], "-7"],
  ];
  for (const [f, args, want] of cases) assert.equal(format(f, args as never), want, f);
  const e = format("%z", ["a"]);
  assert.ok(e instanceof CelError);
  assert.equal(toFixedHalfEven(2.675, 2), "2.67"); // 2.675 is below the tie in binary
  assert.equal(quote("a\u0007b"), '"a\\ab"');
});
