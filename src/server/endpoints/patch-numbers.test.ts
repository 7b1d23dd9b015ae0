import assert from "node:assert/strict";
import { test } from "node:test";
import { firstOutOfRange, hasRawNumbers, rawPatchValue, withOutOfRangeTexts } from "./patch-numbers.js";
import { decodeJsonStream } from "../../io/json-decode.js";
import { Float64, RawNumber } from "../../value/json-value.js";

test("hasRawNumbers looks at numbers only (not inside strings)", () => {
  const cases: [string, boolean][] = [
    ['{"a":1,"b":"1.0"}', false], ['{"a":-0}', true], ['{"a":1.0}', true], ['{"a":12e3}', true], ['{"a":"x\\"1.0"}', false],
    ['{"1.0":2}', false], ['[1234567890123456]', true], ['[-1]', false], ['{"a":"-0"}', false],
  ];
  for (const [text, want] of cases) assert.equal(hasRawNumbers(text), want, text);
});

test("firstOutOfRange: the first literal beyond float64 in document order", () => {
  assert.equal(firstOutOfRange(rawPatchValue('{"b":[1,-1e999],"a":1e400}')!), "-1e999");
  assert.equal(firstOutOfRange(rawPatchValue('{"a":1.0}')!), undefined);
  assert.equal(rawPatchValue("{"), undefined);
});

test("withOutOfRangeTexts puts the literal where the decoded body has an infinity", () => {
  const text = '{"a":{"b":[1,1e400]},"c":-1e999,"d":1.0}';
  const v = decodeJsonStream(text, { recordRangeErrors: true }).documents[0]!.value as Record<string, unknown>;
  const out = withOutOfRangeTexts(v as never, rawPatchValue(text)!) as Record<string, unknown>;
  assert.equal(((out["a"] as Record<string, unknown[]>)["b"]![1] as RawNumber).text, "1e400");
  assert.equal((out["c"] as RawNumber).text, "-1e999");
  // other numbers stay Go's
  assert.ok(out["d"] instanceof Float64 && !(out["d"] instanceof RawNumber));
});
