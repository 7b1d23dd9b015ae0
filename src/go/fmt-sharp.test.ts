import assert from "node:assert/strict";
import { test } from "node:test";
import { goSharpSprint, goSprint } from "./fmt.js";
import { Float64, type JsonValue } from "../value/json-value.js";

test("goSharpSprint: Go's %#v of unstructured values (as recorded in test/golden/server/35-fuzz-json.json)", () => {
  const cases: [JsonValue, string][] = [
    ["xé\n", '"xé\\n"'],
    [1, "1"],
    [1.5, "1.5"],
    [new Float64(2 ** 63), "9.223372036854776e+18"],
    [new Float64(1e6), "1e+06"],
    [[], "[]interface {}{}"],
    [{ b: [null, "x", 1.5, new Float64(1e21), { z: true }], a: 1 }, 'map[string]interface {}{"a":1, "b":[]interface {}{interface {}(nil), "x", 1.5, 1e+21, map[string]interface {}{"z":true}}}'],
  ];
  for (const [v, want] of cases) assert.equal(goSharpSprint(v), want);
});

test("goSprint of float64 values beyond int64 and of 1e6 (smd's `expected list, got &{…}`)", () => {
  assert.equal(goSprint(new Float64(-(2 ** 63))), "-9.223372036854776e+18");
  assert.equal(goSprint(new Float64(1e6)), "1e+06");
  assert.equal(goSprint(1000000.5), "1.0000005e+06");
});
