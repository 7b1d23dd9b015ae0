/** KubeMap: CEL keys of schema-typed objects and maps, their answers remembered per key. */
import * as assert from "node:assert/strict";
import { test } from "node:test";
import { structural } from "./test-helpers.test-util.js";
import { KubeMap, toCelValue } from "./values.js";

const schema = structural({
  type: "object",
  properties: {
    "a-b": { type: "string" },
    plain: { type: "object", properties: { x: { type: "integer" } } },
    nothing: { type: "string" },
    labels: { type: "object", additionalProperties: { type: "string" } },
  },
});

test("KubeMap: escaped, plain, absent and null keys, asked repeatedly", () => {
  const v = toCelValue({ "a-b": "dash", plain: { x: 1 }, nothing: null, extra: "no schema", labels: { "a-b": "v" } }, schema);
  assert.ok(v instanceof KubeMap);
  for (let round = 0; round < 2; round++) {
    // object properties are reached by their escaped CEL names (an unescaped key is its own name, as
    // apiserver's cel.Unescape leaves it)
    assert.equal(v.get("a__dash__b"), "dash");
    assert.equal(v.has("a__dash__b"), true);
    assert.equal(v.get("a-b"), "dash");
    assert.equal(v.has("a__bad__b"), false);
    // null and unknown fields are absent
    assert.equal(v.has("nothing"), false);
    assert.equal(v.get("extra"), undefined);
    assert.equal(v.get("missing"), undefined);
    assert.equal(v.get(1n), undefined);
    // the converted value is kept: the same object every time
    const p = v.get("plain");
    assert.ok(p instanceof KubeMap);
    assert.equal(v.get("plain"), p);
    assert.equal(p.get("x"), 1n);
    // additionalProperties keys are not escaped
    const labels = v.get("labels");
    assert.ok(labels instanceof KubeMap);
    assert.equal(labels.get("a-b"), "v");
    assert.equal(labels.get("a__dash__b"), undefined);
  }
});
