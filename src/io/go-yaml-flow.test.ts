import * as assert from "node:assert/strict";
import { test } from "node:test";
import { goJsonMarshal } from "../go/json.js";
import { decodeDocuments } from "./decode.js";
import { goYamlFlowCompat } from "./go-yaml-flow.js";

// Each expectation was produced by sigs.k8s.io/yaml v1.6.0 (go-yaml v2.4.4) YAMLToJSON, as kubectl reads files.
const cases: [string, string][] = [
  ["a: [1.2.3.4, 001:db8::]\n", '{"a":["1.2.3.4","001:db8::"]}'],
  ["a: {x:: 1, y: b:}\n", '{"a":{"true":"b:","x:":1}}'],
  ['args: [\n  "curl -X POST\n  data",\n  "b"\n]\n', '{"args":["curl -X POST data","b"]}'],
  ['k:\n  args: [\n    "--x"  # c\n  ]\n', '{"k":{"args":["--x"]}}'],
  ["a: [\n  {k: v,\n l: m}\n]\n", '{"a":[{"k":"v","l":"m"}]}'],
  ['a: "it\\\'s"\n', '{"a":"it\'s"}'],
  ["a: 'x\\/y'\n", '{"a":"x\\\\/y"}'],
  ['a: |\n  [ b:]\n  "x\\/y"\nc: [d:]\n', '{"a":"[ b:]\\n\\"x\\\\/y\\"\\n","c":["d:"]}'],
  ["a: x:[y]\nb: [p:, q]\n", '{"a":"x:[y]","b":["p:","q"]}'],
  ['# c: [x:]\na: "q # [r:]"\n', '{"a":"q # [r:]"}'],
  ['{"image":"[::]:80"}', '{"image":"[::]:80"}'],
  ['{"a":"x:]","b":"y:}","c":"z:,"}', '{"a":"x:]","b":"y:}","c":"z:,"}'],
  ["a: [?x, ?y: 1]\n", '{"a":[{"x":null},{"true":1}]}'],
];
for (const [src, want] of cases) {
  test(`go-yaml v2 flow leniency: ${JSON.stringify(src)}`, () => {
    const docs = decodeDocuments(src, { format: "yaml" });
    assert.equal(docs.length, 1);
    assert.equal(docs[0]!.problem, undefined);
    assert.equal(goJsonMarshal(docs[0]!.value!), want);
  });
}

const errors: [string, string][] = [
  ['a: "x\\/y"\n', "yaml: found unknown escape character"],
  ['a: b\nc: "x\\/y"\n', "yaml: line 2: found unknown escape character"],
];
for (const [src, want] of errors) {
  test(`go-yaml v2 refuses: ${JSON.stringify(src)}`, () => {
    const docs = decodeDocuments(src, { format: "yaml" });
    assert.equal(docs[0]!.problem?.message, want);
  });
}

test("goYamlFlowCompat leaves ordinary YAML alone", () => {
  assert.deepEqual(goYamlFlowCompat("a: [1, 2]\nb: {c: d}\n", true), {});
});
