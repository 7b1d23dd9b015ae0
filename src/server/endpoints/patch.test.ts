import assert from "node:assert/strict";
import { test } from "node:test";
import { JsonPatchDecodeError, jsonPatch } from "./patch.js";

/** The message a JSON patch's decoding refuses it with, or "applied: <result>". */
function outcome(ops: unknown): string {
  try {
    return `applied: ${JSON.stringify(jsonPatch({ a: 1 }, ops as never))}`;
  } catch (e) {
    if (e instanceof JsonPatchDecodeError) return e.message;
    throw e;
  }
}

test("JSON patch operations decode as []jsonPatchOp (as recorded in test/golden/server/29-fuzz-findings.json)", () => {
  const cases: [unknown, string][] = [
    [null, 'applied: {"a":1}'],
    [{}, "error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp"],
    [[[]], "error decoding patch: json: cannot unmarshal array into Go value of type handlers.jsonPatchOp"],
    [[1], "error decoding patch: json: cannot unmarshal number into Go value of type handlers.jsonPatchOp"],
    [[{ op: "replace", path: 5, value: 1 }], "error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.path of type string"],
    // the first in the text: path before op
    [[{ path: true, op: 1 }], "error decoding patch: json: cannot unmarshal bool into Go struct field jsonPatchOp.path of type string"],
    [[{ op: "add", path: "/b", from: {}, value: 2 }], "error decoding patch: json: cannot unmarshal object into Go struct field jsonPatchOp.from of type string"],
    // a later operation's type error is found before the first is applied
    [[{ op: "add", path: "/b", value: 2 }, "x"], "error decoding patch: json: cannot unmarshal string into Go value of type handlers.jsonPatchOp"],
    [[{ op: "add", path: "/b", value: [1] }], 'applied: {"a":1,"b":[1]}'],
  ];
  for (const [ops, want] of cases) assert.equal(outcome(ops), want, JSON.stringify(ops));
});
