/** The stored-object pane indents Go's JSON text without reparsing its numbers. */
import assert from "node:assert/strict";
import { it } from "node:test";
import { prettyJson } from "../../web/src/pretty-json.js";

it("indents without touching numbers or strings", () => {
  const go = '{"a":[1,9007199254740993,1e+06],"b":{},"c":[],"d":"x:{\\"y\\",[z]"}';
  assert.equal(prettyJson(go), '{\n  "a": [\n    1,\n    9007199254740993,\n    1e+06\n  ],\n  "b": {},\n  "c": [],\n  "d": "x:{\\"y\\",[z]"\n}');
  assert.deepEqual(JSON.parse(prettyJson(go)), JSON.parse(go));
});
