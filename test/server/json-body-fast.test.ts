/**
 * The JSON body fast path (src/server/endpoints/json-body-fast.ts) answers exactly what the full decoder
 * answers, or leaves the text to it: compared on every document of the shared corpus (as compact and as
 * indented JSON) and on texts built to need the full decoder (floats, long integers, -0, escapes, duplicate
 * keys at any depth, invalid JSON).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decodeJsonStream } from "../../src/io/json-decode.js";
import { goJsonMarshal } from "../../src/go/json.js";
import { parseSimpleJsonBody } from "../../src/server/endpoints/json-body-fast.js";
import { deepEqual, type JsonValue } from "../../src/value/json-value.js";
import { corpusDocuments } from "../corpus-documents.js";
import { corpusRoot } from "../corpus-root.js";

/** The fast path's answer must be the full decoder's value, with no duplicate fields. */
function agrees(text: string): "fast" | "full" {
  const fast = parseSimpleJsonBody(text);
  if (fast === undefined) return "full";
  const r = decodeJsonStream(text);
  assert.equal(r.problem, undefined, text);
  assert.equal(r.documents.length, 1, text);
  assert.deepEqual(r.documents[0]!.duplicateFields, [], text);
  assert.ok(deepEqual(fast, r.documents[0]!.value), text);
  assert.deepEqual(Object.keys(fast as object), Object.keys(r.documents[0]!.value as object));
  return "fast";
}

describe("JSON body fast path", () => {
  it("agrees with the full decoder on the corpus documents", () => {
    let fast = 0;
    let total = 0;
    for (const { value } of corpusDocuments(corpusRoot())) {
      for (const text of [goJsonMarshal(value), JSON.stringify(value as JsonValue, null, 2)]) {
        total++;
        if (agrees(text) === "fast") fast++;
      }
    }
    assert.ok(total > 1000, `corpus documents: ${total}`);
    // Most real objects qualify (no floats, no escapes).
    assert.ok(fast > total / 2, `${fast} of ${total} on the fast path`);
  });

  it("takes the plain request objects", () => {
    for (const text of [
      '{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"a","namespace":"default"},"spec":{"replicas":1,"cronSpec":"* * * * */5"}}',
      ' {\n\t"a" : [1, -2, 3, {"b": null, "c": true, "d": false}], "__proto__": {"x": 1}, "e": "1.5:2e3,-0" }\r\n',
      '{"n":123456789012345,"m":-123456789012345,"s":"ünïcödé ✓","empty":{},"list":[]}',
      "[]",
      '"text"',
      "7",
    ]) {
      assert.equal(agrees(text), "fast", text);
    }
  });

  it("leaves to the full decoder what JSON.parse would get wrong or words differently", () => {
    for (const text of [
      '{"a":1.0}',
      '{"a":1e3}',
      '{"a":[0.5]}',
      '{"a":1E3}',
      '{"a":1234567890123456}',
      '{"a":-9223372036854775808}',
      '{"a":-0}',
      '{"a":"x\\"y"}',
      '{"a":"\\u00e9"}',
      '{"a":1,"a":2}',
      '{"a":{"b":1,"b":1}}',
      '{"a":[{"k":1},{"k":1,"k":2}]}',
      '{"__proto__":1,"__proto__":2}',
      "{} {}",
      '{"a":1',
      "",
      '{"a":01}',
      '\ufeff{"a":1}',
      '{"a":"tab\there"}',
    ]) {
      assert.equal(parseSimpleJsonBody(text), undefined, text);
    }
  });
});
