/**
 * Differences with go-yaml v2 (sigs.k8s.io/yaml `YAMLToJSON` / `YAMLToJSONStrict`) that the YAML fuzzer
 * found, each pinned with Go's answer as the engine oracle (tools/k8s-oracle `decode-yaml`) gives it.
 */
import * as assert from "node:assert/strict";
import { test } from "node:test";
import { goJsonMarshal } from "../../go/json.js";
import { decodeDocuments } from "../decode.js";
import { decodeGoYamlDocument } from "./decode-document.js";

/** The document as the API server reads a request body: JSON text or the error, and the strict error. */
function goAnswer(text: string): { json?: string; error?: string; line?: number; strict?: string[] } {
  const d = decodeDocuments(text, { format: "yaml", whole: true })[0];
  if (!d) return { json: "null" };
  if (d.problem) return { error: d.problem.message, line: d.problem.position.line };
  return { json: goJsonMarshal(d.value!), strict: d.strictErrors };
}

test("a simple key's 1024-character limit counts characters (runes), not UTF-16 units", () => {
  // 1023 + one astral character: 1024 runes, 1025 UTF-16 units
  assert.deepEqual(goAnswer(`a: 1\n${"k".repeat(1023)}😀: v\n`), {
    json: `{"a":1,"${"k".repeat(1023)}😀":"v"}`,
    strict: [],
  });
  assert.deepEqual(goAnswer(`a: 1\n${"😀".repeat(1024)}: v\n`), { json: `{"a":1,"${"😀".repeat(1024)}":"v"}`, strict: [] });
  // one rune more: no key
  assert.deepEqual(goAnswer(`a: 1\n${"k".repeat(1024)}😀: v\n`), { error: "yaml: line 2: could not find expected ':'", line: 2 });
  assert.deepEqual(goAnswer(`a: 1\n${"😀".repeat(1025)}: v\n`), { error: "yaml: line 2: could not find expected ':'", line: 2 });
  // two-byte characters count once too
  assert.deepEqual(goAnswer(`${"é".repeat(1025)}: v\n`).error, "yaml: mapping values are not allowed in this context");
  assert.deepEqual(goAnswer(`${"é".repeat(1024)}: v\n`).json, `{"${"é".repeat(1024)}":"v"}`);
  // in a flow mapping (not required: the key is dropped, `:` starts an empty key)
  assert.deepEqual(goAnswer(`{${"k".repeat(1023)}😀: v}\n`).json, `{"${"k".repeat(1023)}😀":"v"}`);
  assert.deepEqual(goAnswer(`{${"k".repeat(1024)}😀: v}\n`).error, "yaml: did not find expected ',' or '}'");
});

test("NaN keys are never equal in Go's map: no duplicate-key error, and their JSON keys collide (Go's value is random)", () => {
  assert.deepEqual(goAnswer(".nan: 1\n.nan: 2\n"), { json: '{".nan":2}', strict: [] });
  assert.deepEqual(goAnswer(".nan: 1\n.NaN: 2\n.nan: 3\n"), { json: '{".nan":3}', strict: [] });
  assert.deepEqual(goAnswer("a: &a {.nan: 1}\n<<: *a\n.nan: 2\n"), { json: '{".nan":2,"a":{".nan":1}}', strict: [] });
  assert.equal(decodeGoYamlDocument(".nan: 1\n.nan: 2\n").keyCollision, true);
  // a NaN value is still refused by encoding/json
  assert.deepEqual(goAnswer(".nan: 1\nb: [.nan]\n").error, "json: unsupported value: NaN");
});

test("-0 and 0 are one key in Go's map, which keeps the key set last", () => {
  assert.deepEqual(goAnswer("-0.0: 1\n0.0: 2\n"), { json: '{"0":2}', strict: ["yaml: unmarshal errors:\n  line 2: key 0 already set in map"] });
  assert.deepEqual(goAnswer("0.0: 1\n-0.0: 2\n"), { json: '{"-0":2}', strict: ["yaml: unmarshal errors:\n  line 2: key -0 already set in map"] });
  assert.deepEqual(goAnswer("a: {-0.0: 1, 0.0: 2}\n"), { json: '{"a":{"0":2}}', strict: ["yaml: unmarshal errors:\n  line 1: key 0 already set in map"] });
  assert.deepEqual(goAnswer("<<: {-0.0: 1}\n0.0: 2\n"), { json: '{"0":2}', strict: ["yaml: unmarshal errors:\n  line 2: key 0 already set in map"] });
  // an int 0 is another key
  assert.deepEqual(goAnswer("-0.0: 1\n0: 2\n"), { json: '{"-0":1,"0":2}', strict: [] });
});

// go-yaml checks a merge value is a map (or a sequence of maps, item by item from the last) before decoding it
const mergeOrder: [string, string][] = [
  ["<<: !!int ON\n", "yaml: map merge requires map or sequence of maps as the value"],
  ["<<: !!int\n", "yaml: map merge requires map or sequence of maps as the value"],
  ["a: {<<: !!float x}\n", "yaml: map merge requires map or sequence of maps as the value"],
  ["<<: &x !!int ON\nb: *x\n", "yaml: map merge requires map or sequence of maps as the value"],
  ["<<: [!!int ON]\n", "yaml: map merge requires map or sequence of maps as the value"],
  ["<<: [{a: 1}, !!int ON]\n", "yaml: map merge requires map or sequence of maps as the value"],
  ["<<: [[!!int ON]]\n", "yaml: map merge requires map or sequence of maps as the value"],
  ["<<: [[{[a]: 1}]]\n", "yaml: map merge requires map or sequence of maps as the value"],
  ["<<: [{a: !!int x}, ON]\n", "yaml: map merge requires map or sequence of maps as the value"],
  ["m: &m [1]\n<<: [{a: !!int x}, *m]\n", "yaml: map merge requires map or sequence of maps as the value"],
  ["<<: [{<<: [{a: !!int x}, ON]}, {b: 1}]\n", "yaml: map merge requires map or sequence of maps as the value"],
  ["a:\n  <<:\n    - x: !!int q\n    - y\n  z: 1\n", "yaml: map merge requires map or sequence of maps as the value"],
  // the last item is decoded first
  ["<<: [ON, {a: !!int x}]\n", "yaml: cannot decode !!str `x` as a !!int"],
  ["<<: [{a: !!int x}, {b: !!int y}]\n", "yaml: cannot decode !!bool `y` as a !!int"],
  ["<<: [&x !!int ON, {a: *x}]\n", "yaml: cannot decode !!bool `ON` as a !!int"],
  ["<<: [{a: &y {b: !!int x}}, {c: *y}]\n", "yaml: cannot decode !!str `x` as a !!int"],
  ["<<: [{a: [1, {[x]: 2}]}, {b: 1}]\n", 'yaml: invalid map key: []interface {}{"x"}'],
  ["<<: [{b: 1}, &a {c: *a}]\n", "yaml: anchor 'a' value contains itself"],
  // an alias item's node kind is checked before it is decoded
  ["<<: [&x !!int ON, *x]\n", "yaml: map merge requires map or sequence of maps as the value"],
  ["<<: [{a: &y {b: !!int x}}, *y, ON]\n", "yaml: map merge requires map or sequence of maps as the value"],
  ["<<: [ON, {a: &y {b: !!int x}}, *y]\n", "yaml: cannot decode !!str `x` as a !!int"],
  // anchors after the failure in an item are still there for later items
  ["<<: [{a: !!int x, b: &z 1}, {c: *z}]\n", "yaml: cannot decode !!str `x` as a !!int"],
  ["<<: [{b: !!int x, c: &m [2]}, {d: {<<: *m}}]\n", "yaml: map merge requires map or sequence of maps as the value"],
  ["<<: [[&a0 !!bool 3, {a: 1}], *a0]\n", "yaml: map merge requires map or sequence of maps as the value"],
];
for (const [text, want] of mergeOrder) {
  test(`merge value checked before it is decoded: ${JSON.stringify(text)}`, () => assert.equal(goAnswer(text).error, want));
}

/** The first problem of `text` read as kubectl reads a file (split at `---` lines) and whole, as the API server does. */
function problems(text: string): { message: string; position: { line: number; column: number } }[] {
  return [false, true].map((whole) => decodeDocuments(text, { format: "yaml", whole }).find((d) => d.problem)!.problem!);
}

// go-yaml's reader checks characters a 512-byte read at a time, when the scanner needs them
const pad = (n: number) => `# ${"x".repeat(n)}\n`;
const MAPPING_VALUES = { message: "yaml: mapping values are not allowed in this context", position: { line: 1, column: 5 } };
const CONTROL = { message: "yaml: control characters are not allowed", position: { line: 3, column: 1 } };
const readerChunks: [string, string, typeof CONTROL][] = [
  ["a control character in the first 512 bytes comes first", `a: b: c\n${pad(500)}\u0007\n`, CONTROL],
  ["a syntax error before the read that holds the control character comes first", `a: b: c\n${pad(501)}\u0007\n`, MAPPING_VALUES],
  ["far after the syntax error", `a: b: c\n# ${"x".repeat(2000)}\u0007\n`, { ...MAPPING_VALUES }],
  ["a byte-order mark counts (3 bytes)", `\ufeffa: b: c\n${pad(497)}\u0007\n`, CONTROL],
  ["a byte-order mark counts, one byte later", `\ufeffa: b: c\n${pad(498)}\u0007\n`, MAPPING_VALUES],
  ["bytes, not characters, are counted", `a: b: c\n# ${"é".repeat(250)}\u0007\n`, { ...CONTROL, position: { line: 2, column: 253 } }],
  ["bytes, not characters, one character later", `a: b: c\n# ${"é".repeat(251)}\u0007\n`, MAPPING_VALUES],
  ["a two-byte control character ending at byte 512", `a: b: c\n# ${"é".repeat(250)}\u0080\n`, { ...CONTROL, position: { line: 2, column: 253 } }],
];
for (const [name, text, want] of readerChunks) {
  test(`control characters after a syntax error: ${name}`, () => assert.deepEqual(problems(text), [want, want]));
}

test("a control character in a later read is not seen when the document ends before it", () => {
  assert.deepEqual(goAnswer(`a: 1\n---\nb: ${"x".repeat(600)}\u0007\n`), { json: '{"a":1}', strict: [] });
});

test("a character cut by the end of a read is read whole by the next one, which ends 512 bytes after its start", () => {
  // the last é is at bytes 511-512: the second read is bytes 511-1022, the control character (byte 1023) is
  // in the third, after the multi-line quoted key's error
  const cut = (k: number) => `a: 1\n"x${"é".repeat(253)}\n${"y".repeat(k)}": v\n\u007f`;
  assert.equal(goAnswer(cut(504)).error, "yaml: line 3: could not find expected ':'");
  assert.equal(goAnswer(cut(503)).error, "yaml: control characters are not allowed");
});

test("go-yaml reads 4 characters at the start of every token (the longest indicators, `--- `)", () => {
  // the second `:` at byte 508: its 4 characters end before the second read; at byte 509 they need it
  assert.equal(goAnswer(`${pad(501)}a: b: cccc\u0007\n`).error, "yaml: line 2: mapping values are not allowed in this context");
  assert.equal(goAnswer(`${pad(502)}a: b: cccc\u0007\n`).error, "yaml: control characters are not allowed");
});
