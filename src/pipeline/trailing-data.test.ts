import assert from "node:assert/strict";
import { test } from "node:test";
import { trailingDataError } from "./request-body.js";

// encoding/json's checkValid on the whole body: the first character after the first value that is not a space.
const cases: [string, string][] = [
  ["{}x", "invalid character 'x' after top-level value"],
  ["{} {}", "invalid character '{' after top-level value"],
  ['{"a":"}"}\n\t"s"', "invalid character '\"' after top-level value"],
  ["12 ab", "invalid character 'a' after top-level value"],
  ["[1,[2]] '", "invalid character '\\'' after top-level value"],
];
for (const [body, want] of cases) test(`json.Unmarshal of ${JSON.stringify(body)}`, () => assert.equal(trailingDataError(body, 0), want));
