import assert from "node:assert/strict";
import { test } from "node:test";
import { JsonPatchDecodeError, JsonPatchError, jsonPatch } from "./patch.js";

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

test("JSON patches as json-patch v4 applies them (as recorded in test/golden/server/34-fuzz-findings-2.json)", () => {
  const doc = { a: 1, l: ["x", "y"] };
  const apply = (ops: unknown): string => {
    try {
      return JSON.stringify(jsonPatch(doc, ops as never));
    } catch (e) {
      if (e instanceof JsonPatchError) return "rejected";
      throw e;
    }
  };
  const cases: [unknown, string][] = [
    // the document's own path: only replace, and only with an object or array
    [[{ op: "add", path: "", value: "" }], "rejected"],
    [[{ op: "replace", path: "", value: "" }], "rejected"],
    [[{ op: "replace", path: "", value: { b: 2 } }], '{"b":2}'],
    // a missing key of an object reads as null (copy adds null, test finds null equal)
    [[{ op: "copy", from: "/nope", path: "/c" }], '{"a":1,"l":["x","y"],"c":null}'],
    [[{ op: "test", path: "/nope", value: null }], '{"a":1,"l":["x","y"]}'],
    [[{ op: "test", path: "/nope", value: 1 }], "rejected"],
    [[{ op: "replace", path: "/nope", value: 2 }], '{"a":1,"l":["x","y"],"nope":2}'],
    // indices as strconv.Atoi reads them, negative ones from the end
    [[{ op: "replace", path: "/l/-1", value: "z" }], '{"a":1,"l":["x","z"]}'],
    [[{ op: "add", path: "/l/-3", value: "w" }], '{"a":1,"l":["w","x","y"]}'],
    [[{ op: "replace", path: "/l/+01", value: "v" }], '{"a":1,"l":["x","v"]}'],
    [[{ op: "remove", path: "/l/-3" }], "rejected"],
    // the text before the first "/" is not read; a path without "/" names nothing
    [[{ op: "replace", path: "q/a", value: 3 }], '{"a":3,"l":["x","y"]}'],
    [[{ op: "add", path: "a", value: 3 }], "rejected"],
  ];
  for (const [ops, want] of cases) assert.equal(apply(ops), want, JSON.stringify(ops));
});

test("without the handler's decoding (fieldValidation=Ignore) json-patch reads each operation: a field of the wrong type fails the patch", () => {
  const failure = (ops: unknown): string => {
    try {
      return `applied: ${JSON.stringify(jsonPatch({ a: 1 }, ops as never, { decodeOps: false }))}`;
    } catch (e) {
      if (e instanceof JsonPatchError) return `422: ${e.message}`;
      if (e instanceof JsonPatchDecodeError) return `400: ${e.message}`;
      throw e;
    }
  };
  assert.equal(failure([{ op: "replace", path: [1, "a"], value: 0 }]), "422: missing path");
  assert.equal(failure([{ op: 1, path: "/a" }]), "422: Unexpected kind: 1");
  assert.equal(failure([{ op: "add", path: "/b", value: 2 }, { op: "x", path: [1] }]), "422: Unexpected kind: x");
  // (a list that is no list is json-patch's own decoding error, answered by the handler before)
  assert.equal(failure({}), "400: error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp");
});
