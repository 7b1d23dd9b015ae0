import * as assert from "node:assert/strict";
import { test } from "node:test";
import { errorString } from "../errors/field-error.js";
import { FieldPath } from "../errors/field-path.js";
import { parseGoJson } from "../io/json-decode.js";
import { st } from "../prune/structural-builder.js";
import type { Structural } from "../structural/structural.js";
import { Float64, type JsonObject } from "../value/json-value.js";
import { validateListSetsAndMaps } from "./validate.js";

const DUP_MAP = "must be an object for an array of list-type map";
const set = (items?: Structural, nullable = false) => st({ type: "array", listType: "set", items, nullable });
const map = (keys: string[], items?: Structural) => st({ type: "array", listType: "map", listMapKeys: keys, items });
const root = (properties: Record<string, Structural>) => st({ type: "object", properties });
const str = st({ type: "string" });
const nstr = st({ type: "string", nullable: true });
const strMap = st({ type: "object", additionalProperties: str });
const nstrMap = st({ type: "object", additionalProperties: nstr });

interface Case {
  name: string;
  schema?: Structural;
  obj?: string | JsonObject;
  errors?: string[];
}

// pkg/apiserver/schema/listtype/validation_test.go TestValidateListSetsAndMaps (full messages added)
const cases: Case[] = [
  { name: "nil" },
  { name: "no schema", obj: "{}" },
  { name: "no object", schema: st() },
  { name: "list without schema", obj: `{"array":["a","b","a"]}` },
  { name: "list without items", obj: `{"array":["a","b","a"]}`, schema: root({ array: st({ type: "array" }) }) },
  { name: "set list with one item", obj: `{"array":["a"]}`, schema: root({ array: set() }) },
  {
    name: "set list with two equal items",
    obj: `{"array":["a","a"]}`,
    schema: root({ array: set() }),
    errors: [`root.array[1]: Duplicate value: "a"`],
  },
  { name: "set list with two different items", obj: `{"array":["a","b"]}`, schema: root({ array: set() }) },
  {
    name: "set list with multiple duplicated items",
    obj: `{"array":["a","a","b","c","d","c"]}`,
    schema: root({ array: set() }),
    errors: [`root.array[1]: Duplicate value: "a"`, `root.array[5]: Duplicate value: "c"`],
  },
  {
    name: "normal list with items",
    obj: `{"array":["a","b","a"]}`,
    schema: root({ array: st({ type: "array", items: str }) }),
  },
  {
    name: "set list with items",
    obj: `{"array":["a","b","a"]}`,
    schema: root({ array: set(str) }),
    errors: [`root.array[2]: Duplicate value: "a"`],
  },
  {
    name: "set list with items under additionalProperties",
    obj: `{"array":["a","b","a"]}`,
    schema: st({ type: "object", additionalProperties: set(str) }),
    errors: [`root[array][2]: Duplicate value: "a"`],
  },
  {
    name: "set list with items under items",
    obj: `{"array":[["a","b","a"],["b","b","a"]]}`,
    schema: root({ array: st({ type: "array", items: set(str) }) }),
    errors: [`root.array[0][2]: Duplicate value: "a"`, `root.array[1][1]: Duplicate value: "b"`],
  },
  {
    name: "nested set lists",
    obj: `{"array":["a","b","a",["b","b","a"]]}`,
    schema: root({ array: st({ type: "array", listType: "set", items: set() }) }),
    errors: [`root.array[2]: Duplicate value: "a"`, `root.array[3][1]: Duplicate value: "b"`],
  },
  {
    name: "set list with compound map items",
    obj: {
      ...(parseGoJson(`{"strings":["a","b","a"],"integers":[1,2,1],"booleans":[false,true,true]}`) as JsonObject),
      float64: [new Float64(1), new Float64(2), new Float64(2)],
      ...(parseGoJson(`{"nil":["a",null,null],"empty maps":[{"a":"b"},{},{}],"map values":[{"a":"b"},{"a":"c"},{"a":"b"}],
        "nil values":[{"a":null},{"b":"c","a":null}],"array":[[],["a"],["b"],["a"]],"nil array":[[],[null],[null,null],[null],["a"]],
        "multiple duplicates":[{"a":"b"},{"a":"c"},{"a":"b"},{"a":"c"},{"a":"c"}]}`) as JsonObject),
    },
    schema: root({
      strings: set(str),
      integers: set(st({ type: "integer" })),
      booleans: set(st({ type: "boolean" })),
      float64: set(st({ type: "number" })),
      nil: set(nstr),
      "empty maps": set(strMap),
      "map values": set(strMap),
      "nil values": set(nstrMap),
      array: set(st({ type: "array", items: str })),
      "nil array": set(st({ type: "array", items: nstr })),
      "multiple duplicates": set(strMap),
    }),
    errors: [
      `root.strings[2]: Duplicate value: "a"`,
      "root.integers[2]: Duplicate value: 1",
      "root.booleans[2]: Duplicate value: true",
      "root.float64[2]: Duplicate value: 2",
      "root.nil[2]: Duplicate value: null",
      "root.empty maps[2]: Duplicate value: {}",
      `root.map values[2]: Duplicate value: {"a":"b"}`,
      `root.array[3]: Duplicate value: ["a"]`,
      "root.nil array[3]: Duplicate value: [null]",
      `root.multiple duplicates[2]: Duplicate value: {"a":"b"}`,
      `root.multiple duplicates[3]: Duplicate value: {"a":"c"}`,
    ],
  },
  {
    name: "set list with compound array items",
    obj: `{"array":[[],["a"],["a"]]}`,
    schema: root({ array: set(str) }),
    errors: [`root.array[2]: Duplicate value: ["a"]`],
  },
  {
    name: "map list with compound map items",
    obj: {
      ...(parseGoJson(`{"strings":["a"],"integers":[1],"booleans":[false]}`) as JsonObject),
      float64: [new Float64(1)],
      ...(parseGoJson(`{"nil":[null],"array":[["a"]],
        "one key":[{"a":"0","c":"2"},{"a":"1","c":"1"},{"a":"1","c":"2"},{}],
        "two keys":[{"a":"1","b":"1","c":"1"},{"a":"1","b":"2","c":"2"},{"a":"1","b":"2","c":"3"},{}],
        "undefined key":[{"a":"1","b":"1","c":"1"},{"a":"1","c":"2"},{"a":"1","c":"3"},{}],
        "compound key":[{"a":[],"c":"1"},{"a":null,"c":"1"},{"a":["a"],"c":"1"},{"a":["a",42],"c":"2"},{"a":["a",42],"c":["3"]}],
        "nil key":[{"a":[],"c":"1"},{"a":null,"c":"1"},{"c":"1"},{"a":null}],
        "nil item":[null,{"a":"0","c":"1"},{"a":null},{"c":"1"}],
        "nil item multiple keys":[null,{"b":"0","c":"1"},{"a":null},{"c":"1"}],
        "multiple duplicates":[{"a":[],"c":"1"},{"a":null,"c":"1"},{"a":["a"],"c":"1"},{"a":["a",42],"c":"2"},{"a":["a",42],"c":["3"]},{"a":["a"],"c":"1","d":"1"},{"a":["a"],"c":"1","d":"2"}]}`) as JsonObject),
    },
    schema: (() => {
      const nilKeyItem = (withB: boolean) =>
        st({
          type: "object",
          properties: {
            a: st({ type: "array", nullable: true, items: str }),
            ...(withB ? { b: str } : {}),
            c: str,
          },
        });
      return root({
        strings: map(["a"], str),
        integers: map(["a"], st({ type: "integer" })),
        booleans: map(["a"], st({ type: "boolean" })),
        float64: map(["a"], st({ type: "number" })),
        nil: map(["a"], nstr),
        array: map(["a"], st({ type: "array", items: str })),
        "one key": map(["a"], strMap),
        "two keys": map(["a", "b"], strMap),
        "undefined key": map(["a", "b"], strMap),
        "compound key": map(["a"], nstrMap),
        "nil key": map(["a"], nilKeyItem(false)),
        "nil item": map(["a"], nilKeyItem(false)),
        "nil item multiple keys": map(["a", "b"], nilKeyItem(true)),
        "multiple duplicates": map(["a"], nstrMap),
      });
    })(),
    errors: [
      `root.strings[0]: Invalid value: "a": ${DUP_MAP}`,
      `root.integers[0]: Invalid value: 1: ${DUP_MAP}`,
      `root.booleans[0]: Invalid value: false: ${DUP_MAP}`,
      `root.float64[0]: Invalid value: 1: ${DUP_MAP}`,
      `root.array[0]: Invalid value: ["a"]: ${DUP_MAP}`,
      `root.one key[2]: Duplicate value: {"a":"1"}`,
      `root.two keys[2]: Duplicate value: {"a":"1","b":"2"}`,
      `root.undefined key[2]: Duplicate value: {"a":"1"}`,
      `root.compound key[4]: Duplicate value: {"a":["a",42]}`,
      `root.nil key[3]: Duplicate value: {"a":null}`,
      "root.nil item[3]: Duplicate value: {}",
      "root.nil item multiple keys[3]: Duplicate value: {}",
      `root.multiple duplicates[4]: Duplicate value: {"a":["a",42]}`,
      `root.multiple duplicates[5]: Duplicate value: {"a":["a"]}`,
    ],
  },
];

for (const c of cases) {
  test(`TestValidateListSetsAndMaps: ${c.name}`, () => {
    const obj = typeof c.obj === "string" ? (parseGoJson(c.obj) as JsonObject) : c.obj;
    const errs = validateListSetsAndMaps(FieldPath.of("root"), c.schema, obj);
    assert.deepEqual(errs.map(errorString), c.errors ?? []);
  });
}

test("int64 1 and float64 1.0 are distinct set elements; float64 1.0 and 1.0 are not", () => {
  const s = root({ a: set() });
  assert.deepEqual(validateListSetsAndMaps(null, s, { a: [1, new Float64(1)] }).map(errorString), []);
  assert.deepEqual(validateListSetsAndMaps(null, s, { a: [new Float64(1), new Float64(1), 1.5, 1.5] }).map(errorString), [
    "a[1]: Duplicate value: 1",
    "a[3]: Duplicate value: 1.5",
  ]);
  // inside compound values Go compares JSON texts, where 1 and 1.0 both print as 1
  assert.deepEqual(validateListSetsAndMaps(null, s, { a: [[1], [new Float64(1)]] }).map(errorString), [
    "a[1]: Duplicate value: [1]",
  ]);
});

test("map list: first non-object element is the only error; nil path renders like Go", () => {
  const s = st({ type: "object", additionalProperties: map(["k"]) });
  assert.deepEqual(validateListSetsAndMaps(null, s, { x: [{ k: 1 }, "s", 3] }).map(errorString), [
    `[x][1]: Invalid value: "s": ${DUP_MAP}`,
  ]);
  assert.deepEqual(validateListSetsAndMaps(null, s, { x: [{ k: 1 }, { k: 1 }, {}, null] }).map(errorString), [
    `[x][1]: Duplicate value: {"k":1}`,
    "[x][3]: Duplicate value: {}",
  ]);
});
