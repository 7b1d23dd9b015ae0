import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseGoBool } from "./strconv.js";

describe("parseGoBool (strconv.ParseBool)", () => {
  it("reads Go's six spellings of each value and nothing else", () => {
    for (const s of ["1", "t", "T", "TRUE", "true", "True"]) assert.equal(parseGoBool(s), true, s);
    for (const s of ["0", "f", "F", "FALSE", "false", "False"]) assert.equal(parseGoBool(s), false, s);
    for (const s of ["", "yes", "tRUE", "truE", " true", "true ", "on", "2", "-1"]) assert.equal(parseGoBool(s), undefined, s);
  });
});
