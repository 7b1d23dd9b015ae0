import * as assert from "node:assert/strict";
import { test } from "node:test";
import { goJsonMarshal } from "../../go/json.js";
import { Float64, type JsonValue } from "../../value/json-value.js";
import { decodeDocuments } from "../decode.js";
import { firstControlCharacter } from "./chars.js";
import { compose } from "./compose.js";
import { documentEvents } from "./decode-document.js";
import { decodeDirect } from "./direct-json.js";
import { goToJson } from "./to-json.js";

/** The full path: go-yaml's value of the first document, converted as sigs.k8s.io/yaml does. */
function composed(text: string): JsonValue | undefined {
  const events = documentEvents(text);
  return events === undefined ? undefined : goToJson(compose(events).value);
}

/** go-yaml's value types survive: an int64 is a number or bigint, an integral float64 a Float64 box. */
function typed(v: JsonValue | undefined): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? `big:${x}` : x instanceof Float64 ? `F64:${x.value}` : x));
}

// documents the one-pass path decodes: the same value as the full path, to the type and the key order
const same: [string, string][] = [
  ["block mapping", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  labels: {a: b, c: 'd'}\ndata:\n  k: v\n"],
  ["block and indentless sequences", "a:\n- 1\n- b\nc:\n  - - x\n    - y\n  - {}\n  - []\n"],
  ["YAML 1.1 scalars", "[yes, No, on, OFF, y, ~, null, '', 012, 0o17, 0x1F, 1_000, +12, -0, 1.5, 1., .5, 1e3, 0.1.2, 2002-12-14, 1:20]\n"],
  ["big and unsigned integers", "[9223372036854775807, 9223372036854775808, -9223372036854775809, 18446744073709551616, 1e21, 3.0]\n"],
  ["keys of every kind", "1: a\n0x10: b\n1.5: c\n1e10: d\ntrue: e\nno: f\n.inf: g\n'x': h\n\"y z\": i\n"],
  ["quoted and block scalars", "a: 'it''s'\nb: \"\\u00e9\\t\\x41\"\nc: |\n  line\n   more\nd: >-\n  folded\n  text\n\n  para\ne: \"multi\n  line\"\n"],
  ["multi-line plain scalars", "description: first line of a\n  long description, with a:colon\n\n  and a#not-a-comment   \n  \n  end\nnext: v # a comment\n"],
  ["tags", "a: !!str 1\nb: !!float 3\nc: !!int '7'\nd: !Ref x\ne: ! yes\nf: !!binary aGVsbG8=\n"],
  ["__proto__ and constructor keys", "__proto__: 1\nconstructor: 2\nhasOwnProperty: [3]\n"],
  ["anchors without aliases", "a: &x 1\nb: &y {c: 2}\n"],
  ["unicode", "é: 日本\n\"\\U0001F600\": 😀\n"],
  ["a scalar document", "--- hello\n"],
  ["an empty document", "# only a comment\n"],
  ["explicit document markers", "%YAML 1.1\n---\na: 1\n...\n"],
];
for (const [name, text] of same) {
  test(`one-pass decoding equals the full path: ${name}`, () => {
    const d = decodeDirect(text);
    assert.ok(d !== undefined, "the one-pass path decodes it");
    assert.equal(typed(d.value), typed(composed(text)));
  });
}

// documents the one-pass path leaves to the full path, which reports them exactly
const fullPath: [string, string][] = [
  ["a duplicate key", "a: 1\na: 2\n"],
  ["keys colliding after conversion", "1: a\n'1': b\n"],
  ["an alias", "a: &x 1\nb: *x\n"],
  ["a merge key", "a: &x {b: 1}\nc:\n  <<: *x\n"],
  ["a merge key written inline", "c: {<<: {b: 1}}\n"],
  ["a float JSON refuses", "a: .nan\n"],
  ["a null key", "~: 1\n"],
  ["a uint64 key", "18446744073709551615: 1\n"],
  ["a collection as a key", "? [a]\n: 1\n"],
  ["a value go-yaml refuses", "a: !!int x\n"],
  ["a syntax error", "a: [1, 2\n"],
  ["an unknown alias", "a: *nope\n"],
];
for (const [name, text] of fullPath) {
  test(`one-pass decoding gives up on ${name}`, () => assert.equal(decodeDirect(text), undefined));
}

test("documents decoded in one pass still locate field paths (events parsed again on demand)", () => {
  const [d] = decodeDocuments("# head\nkind: X\nspec:\n  items:\n  - a\n  - name: b\n");
  assert.ok(d !== undefined && d.value !== undefined);
  assert.deepEqual(d.locate("spec.items[1].name"), { line: 6, column: 11 });
  assert.deepEqual(d.locate("spec.missing"), { line: 4, column: 3 });
  assert.equal(d.offset, 7);
});

test("a document nested deeper than encoding/json allows is reported as the API server decodes it", () => {
  // 6000 block sequences (the scanner's limit is 10000 of each kind), then flow sequences
  const deep = (flow: number) => `${"- ".repeat(6000)}${"[".repeat(flow)}${"]".repeat(flow)}\n`;
  assert.equal(decodeDirect(deep(4001)), undefined);
  const [d] = decodeDocuments(deep(4001));
  assert.deepEqual(d?.problem, { message: "invalid character '[' exceeded max depth", position: { line: 1, column: 16001 } });
  const [ok] = decodeDocuments(deep(4000));
  assert.equal(ok?.problem, undefined);
  assert.equal(goJsonMarshal(ok!.value!).length, 20000);
});

test("control characters: the first one go-yaml refuses, surrogate pairs allowed, lone surrogates refused", () => {
  const cases: [string, number][] = [
    ["plain text\tand tabs\r\n", -1],
    ["a: \u0085\u00a0\ud7ff\ue000\ufffd", -1],
    ["a: 😀 \ud83d\ude00", -1],
    ["a: \u0001", 3],
    ["ab\u007f", 2],
    ["a: \ud800x", 3],
    ["a: \ude00", 3],
    ["😀\ud83d", 2],
    ["a\ufffe", 1],
  ];
  for (const [s, want] of cases) assert.equal(firstControlCharacter(s), want, JSON.stringify(s));
});
