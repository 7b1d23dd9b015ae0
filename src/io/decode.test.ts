import * as assert from "node:assert/strict";
import { test } from "node:test";
import { Float64, type JsonValue } from "../value/json-value.js";
import { goJsonMarshal } from "../go/json.js";
import { decodeDocuments } from "./decode.js";

function one(text: string): JsonValue | undefined {
  const docs = decodeDocuments(text);
  assert.equal(docs.length, 1, `one document in ${JSON.stringify(text)}`);
  assert.equal(docs[0]!.problem, undefined);
  return docs[0]!.value;
}

// go-yaml v2 scalar resolution followed by sigs.k8s.io/yaml's JSON conversion and the server's decoding.
const scalars: [string, JsonValue][] = [
  ["yes", true], ["Yes", true], ["YES", true], ["y", true], ["Y", true], ["on", true], ["ON", true], ["True", true],
  ["no", false], ["n", false], ["N", false], ["off", false], ["Off", false], ["FALSE", false],
  ["yEs", "yEs"], ["oN", "oN"], ["'yes'", "yes"], ['"no"', "no"],
  ["~", null], ["null", null], ["Null", null], ["NULL", null], ["", null], ["nULL", "nULL"],
  ["1", 1], ["+1", 1], ["-1", -1], ["0x1F", 31], ["-0x1F", -31], ["017", 15], ["0o17", 15], ["0b101", 5], ["1_000", 1000],
  ["08", 8], ["1.0", 1], ["1.5", 1.5], ["1e3", 1000], ["1E3", 1000], ["-0.0", 0], [".5", 0.5], ["+.5", 0.5],
  ["1e400", "1e400"], ["1.", 1], ["0x", "0x"], ["1e21", new Float64(1e21)],
  ["9223372036854775807", 9223372036854775807n], ["-9223372036854775808", -9223372036854775808n],
  ["9223372036854775808", new Float64(2 ** 63)], ["18446744073709551616", new Float64(2 ** 64)],
  ["2024-01-01", "2024-01-01"], ["2024-01-01T10:00:00Z", "2024-01-01T10:00:00Z"], ["1:20", "1:20"],
  ["!!str 1", "1"], ["!!float 3", 3], ["!!int '7'", 7], ["!Ref foo", "foo"], ["! yes", "yes"], ["!!binary aGVsbG8=", "hello"],
  ["0.1", 0.1], ["1.23e-7", 1.23e-7], [".inf_", ".inf_"],
];
for (const [src, want] of scalars) {
  test(`YAML scalar ${JSON.stringify(src)}`, () => assert.deepEqual((one(`v: ${src}\n`) as { v: JsonValue }).v, want));
}

const keys: [string, string][] = [
  ["1", "1"], ["0x10", "16"], ["1.5", "1.5"], ["0.1", "0.1"], ["1e10", "1e+10"], ["3.0", "3"], ["true", "true"],
  ["yes", "true"], ["n", "false"], [".inf", ".inf"], ["-.inf", "-.inf"], ["'1'", "1"], ["1e6", "1e+06"], ["123456.7", "123456.7"],
];
for (const [src, want] of keys) {
  test(`YAML key ${src} becomes ${JSON.stringify(want)}`, () => assert.deepEqual(Object.keys(one(`${src}: x\n`) as object), [want]));
}

const problems: [string, string, number][] = [
  ["v: .nan\n", "json: unsupported value: NaN", 1],
  ["v: .inf\n", "json: unsupported value: +Inf", 1],
  ["v: -.Inf\n", "json: unsupported value: -Inf", 1],
  ["a: 1\nb: *nope\n", "yaml: unknown anchor 'nope' referenced", 2],
  ["v: !!int abc\n", "yaml: cannot decode !!str `abc` as a !!int", 1],
  ["a:\n  <<: 1\n", "yaml: map merge requires map or sequence of maps as the value", 2],
  ["a: 1\n--- x\nb: 2\n", "invalid Yaml document separator: x", 2],
];
for (const [src, want, line] of problems) {
  test(`YAML problem ${JSON.stringify(src)}`, () => {
    const p = decodeDocuments(src).find((d) => d.problem)?.problem;
    assert.equal(p?.message, want);
    assert.equal(p?.position.line, line);
  });
}

test("syntax errors carry file line and column", () => {
  const docs = decodeDocuments("a: 1\n---\nb:\n  c: 1\n d: 2\n");
  assert.equal(docs.length, 2);
  assert.deepEqual(docs[0]!.value, { a: 1 });
  assert.match(docs[1]!.problem!.message, /^yaml: line \d+: /);
  assert.equal(docs[1]!.problem!.position.line, 5);
});

test("duplicate keys: last value wins, go-yaml strict text (value line, chunk-relative)", () => {
  const docs = decodeDocuments("x: 0\n---\na: 1\nb:\n  c: 1\n  c: 2\na: 3\n");
  assert.deepEqual(docs[1]!.value, { a: 3, b: { c: 2 } });
  assert.deepEqual(docs[1]!.strictErrors, [
    'yaml: unmarshal errors:\n  line 4: key "c" already set in map\n  line 5: key "a" already set in map',
  ]);
  assert.deepEqual(docs[0]!.strictErrors, []);
});

test("duplicate keys compare resolved values (yes == true)", () => {
  const d = decodeDocuments("true: 1\nyes: 2\n")[0]!;
  assert.deepEqual(d.value, { true: 2 });
  assert.deepEqual(d.strictErrors, ["yaml: unmarshal errors:\n  line 2: key true already set in map"]);
});

test("merge keys and aliases are expanded into independent copies", () => {
  const v = one("base: &b {p: 1, q: 2}\nc:\n  <<: *b\n  q: 3\nd: *b\n") as Record<string, Record<string, number>>;
  assert.deepEqual(v, { base: { p: 1, q: 2 }, c: { p: 1, q: 3 }, d: { p: 1, q: 2 } });
  v.d!.p = 9;
  assert.equal(v.base!.p, 1);
});

test("self-referencing anchors and alias bombs are refused", () => {
  assert.equal(decodeDocuments("a: &a [*a]\n")[0]!.problem?.message, "yaml: anchor 'a' value contains itself");
  let bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (let i = 1; i < 9; i++) bomb += `a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(", ")}]\n`;
  assert.equal(decodeDocuments(bomb)[0]!.problem?.message, "yaml: document contains excessive aliasing");
});

test("empty and null documents are skipped", () => {
  assert.deepEqual(decodeDocuments("---\n# nothing\n---\nnull\n---\na: 1\n").map((d) => d.value), [{ a: 1 }]);
});

test("JSON: int64 vs float64, duplicates in Go order, streams", () => {
  const docs = decodeDocuments('{"a": 1.0, "b": [1, 2e3, 12345678901234567890, -0], "a": {"x": 1, "x": 2}}\n{"k": 1}');
  assert.equal(docs.length, 2);
  assert.deepEqual(docs[0]!.value, {
    a: { x: 2 },
    b: [1, new Float64(2000), new Float64(Number("12345678901234567890")), 0],
  });
  assert.deepEqual(docs[0]!.strictErrors, ['duplicate field "a"', 'duplicate field "a.x"']);
  assert.deepEqual(docs[0]!.locate("b[2]"), { line: 1, column: 26 });
  assert.deepEqual(docs[1]!.value, { k: 1 });
});

const jsonErrors: [string, string][] = [
  ['{"a": 1,, }', "invalid character ',' looking for beginning of object key string"],
  ['{"a" 1}', "invalid character '1' after object key"],
  ['{"a": 1 "b": 2}', "invalid character '\"' after object key:value pair"],
  ['{"a": [1 2]}', "invalid character '2' after array element"],
  ['{"a": ', "unexpected end of JSON input"],
  ['{"a": tru}', "invalid character '}' in literal true (expecting 'e')"], // checked with Go's encoding/json
];
for (const [src, want] of jsonErrors) {
  test(`JSON error ${src}`, () => {
    const docs = decodeDocuments(src, { format: "json" });
    assert.equal(docs.at(-1)!.problem?.message, want);
  });
}

test("positions of field paths point at values", () => {
  const d = decodeDocuments("apiVersion: v1\nkind: X\nspec:\n  replicas: 15\n  list:\n  - a: 1\n  - b: 2\n")[0]!;
  assert.deepEqual(d.locate("spec.replicas"), { line: 4, column: 13 });
  assert.deepEqual(d.locate(".spec.replicas"), { line: 4, column: 13 });
  assert.deepEqual(d.locate("spec.list[1].b"), { line: 7, column: 8 });
  assert.deepEqual(d.locate("spec.missing"), { line: 4, column: 3 });
  assert.deepEqual(d.locate("<nil>"), { line: 1, column: 1 });
});

test("deep nesting gives an error, not a stack overflow", () => {
  // YAML as go-yaml reads it (checked with the oracle): 10000 flow levels are fine, the 10001st fails
  const flow = (d: number) => "a: " + "[".repeat(d) + "]".repeat(d) + "\n";
  assert.equal(decodeDocuments(flow(9999))[0]!.problem, undefined);
  assert.equal(decodeDocuments(flow(10001))[0]!.problem?.message, "yaml: exceeded max depth of 10000");
  // 10000 flow levels under a mapping: go-yaml reads them, the API server's JSON decoding (10000 levels) does not
  assert.equal(decodeDocuments(flow(10000))[0]!.problem?.message, "invalid character '[' exceeded max depth");
  let block = "";
  for (let i = 0; i < 10001; i++) block += " ".repeat(i) + "- \n";
  assert.equal(decodeDocuments(block)[0]!.problem?.message, "yaml: line 10001: exceeded max depth of 10000");
  // JSON as encoding/json reads it (checked with the oracle): 10000 levels are fine, the 10001st fails
  const json = (d: number) => '{"a": ' + "[".repeat(d - 1) + "]".repeat(d - 1) + "}";
  assert.equal(decodeDocuments(json(10000))[0]!.problem, undefined);
  assert.equal(decodeDocuments(json(10001))[0]!.problem?.message, "invalid character '[' exceeded max depth");
});

// Cases from sigs.k8s.io/yaml's TestYAMLToJSON (translated: YAML in, the JSON the API server receives).
const sigsCases: [string, string][] = [
  ["t: a\n", '{"t":"a"}'],
  ["t: True\n", '{"t":true}'],
  ["t: no\n", '{"t":false}'],
  ["t: 9007199254740993\n", '{"t":9007199254740993}'],
  ["t: 1000000000000000000000000000000000000\n", '{"t":1e+36}'],
  [
    "t: this is very long line with spaces and it must be longer than 80 so we will repeat\n  that it must be longer that 80\n",
    '{"t":"this is very long line with spaces and it must be longer than 80 so we will repeat that it must be longer that 80"}',
  ],
  ["t: ", '{"t":null}'],
  ["True: a", '{"true":"a"}'],
  ["no: a", '{"false":"a"}'],
  ["1: a", '{"1":"a"}'],
  ["1.2: a", '{"1.2":"a"}'],
  ["1000000000000000000000000000000000000: a", '{"1e+36":"a"}'],
  ["1e+36: a", '{"1e+36":"a"}'],
  ['"1e+36": a\n', '{"1e+36":"a"}'],
  ["a: !!binary gIGC", '{"a":"\ufffd\ufffd\ufffd"}'],
  ["x: [{t: a}, {t: {b: 1, c: 2}}]", '{"x":[{"t":"a"},{"t":{"b":1,"c":2}}]}'],
];
for (const [src, want] of sigsCases) {
  test(`sigs.k8s.io/yaml case ${JSON.stringify(src)}`, () => assert.equal(goJsonMarshal(one(src)), want));
}

test("sigs.k8s.io/yaml: null keys are refused", () => {
  for (const src of ["~: a", "null: a"]) {
    // sigs.k8s.io/yaml's text (checked with the oracle)
    assert.equal(decodeDocuments(src)[0]!.problem!.message, 'unsupported map key of type: %!s(<nil>), key: <nil>, value: "a"');
  }
});

test("deep values inside go-yaml's error texts: no stack overflow", () => {
  const key = decodeDocuments(`? ${"[".repeat(9000)}${"]".repeat(9000)}\n: x\n`)[0]!.problem?.message ?? "";
  assert.ok(key.startsWith("yaml: invalid map key: []interface {}{[]interface {}{"), key.slice(0, 80));
  assert.equal(key.length, "yaml: invalid map key: ".length + 9000 * "[]interface {}{}".length);
  const nilKey = decodeDocuments(`~: ${"[".repeat(9000)}${"]".repeat(9000)}\n`)[0]!.problem?.message ?? "";
  assert.ok(nilKey.startsWith("unsupported map key of type: %!s(<nil>), key: <nil>, value: []interface {}{[]interface {}{"));
});

test("keys colliding after JSON conversion keep the value Go most likely keeps", () => {
  // Go ranges over a map of at most 8 entries from a random one of its 8 slots and keeps the value visited
  // last: measured with the oracle, neighbours keep the later value (18 runs of 24 at distance 2), keys six
  // slots apart the earlier one (21 of 24)
  assert.deepEqual(one('"true": 1\ntrue: 2\n'), { true: 2 });
  assert.deepEqual(one('"true": 1\na: 0\ntrue: 2\n'), { true: 2, a: 0 });
  assert.deepEqual(one('"true": 1\na: 0\nb: 0\nc: 0\nd: 0\ne: 0\ntrue: 2\n'), { true: 1, a: 0, b: 0, c: 0, d: 0, e: 0 });
  assert.deepEqual(one('1: a\n"1": b\n'), { "1": "b" });
});
