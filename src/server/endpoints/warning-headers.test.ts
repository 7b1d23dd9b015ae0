import assert from "node:assert/strict";
import { test } from "node:test";
import { strictDecodingWarnings, warningHeaders } from "./warning-headers.js";

test("strict decoding warnings: a YAML TypeError is one warning per error, other texts as they are", () => {
  assert.deepEqual(strictDecodingWarnings('yaml: unmarshal errors:\n  line 1: key "a" already set in map\n  line 3: key "b" already set in map'), [
    'line 1: key "a" already set in map',
    'line 3: key "b" already set in map',
  ]);
  assert.deepEqual(strictDecodingWarnings('duplicate field "spec.a"'), ['duplicate field "spec.a"']);
  assert.deepEqual(warningHeaders(['yaml: unmarshal errors:\n  line 1: key "a" already set in map', 'unknown field "x"']), [
    '299 - "line 1: key \\"a\\" already set in map"',
    '299 - "unknown field \\"x\\""',
  ]);
  // a text with a line break that is no YAML TypeError is still refused as a header value
  assert.deepEqual(warningHeaders(["a\nb"]), []);
});
