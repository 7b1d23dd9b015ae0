// Type model: cel-go's FormatCELType spelling, parsing of type notation, assignability.
import * as assert from "node:assert/strict";
import { test } from "node:test";
import { parseType } from "./parse-type.js";
import {
  DynType,
  formatFunctionType,
  formatType,
  IntType,
  isAssignableType,
  isExactType,
  listType,
  mapType,
  optionalType,
  StringType,
  structType,
  typeParamType,
} from "./types.js";

const roundTrips: [string, string][] = [
  ["int", "int"],
  ["uint", "uint"],
  ["null_type", "null"],
  ["timestamp", "timestamp"],
  ["google.protobuf.Duration", "duration"],
  ["list(int)", "list(int)"],
  ["map(string, list(dyn))", "map(string, list(dyn))"],
  ["map( string ,int )", "map(string, int)"],
  ["optional_type(int)", "optional_type(int)"],
  ["type(int)", "type(int)"],
  ["type", "type"],
  ["list(A)", "list(A)"],
  ["!error!", "!error!"],
];

for (const [src, want] of roundTrips) {
  test(`parseType/formatType: ${src}`, () => assert.equal(formatType(parseType(src)), want));
}

test("parseType: object names resolve through the lookup", () => {
  const t = parseType("list(my.Obj)", (n) => (n === "my.Obj" ? structType("my.Obj") : undefined));
  assert.equal(formatType(t), "list(my.Obj)");
  assert.equal(t.params[0]?.kind, "struct");
});

const bad: [string, RegExp][] = [
  ["list(", /invalid type/],
  ["list(int", /invalid type/],
  ["map(int)", /takes 2 parameter/],
  ["list()", /invalid type/],
  ["Nope", /unknown type "Nope"/],
  ["int int", /invalid type/],
  [`${"list(".repeat(100)}int${")".repeat(100)}`, /nests too deeply/],
];
for (const [src, re] of bad) {
  test(`parseType rejects ${src.slice(0, 30)}`, () => assert.throws(() => parseType(src), re));
}

test("formatFunctionType: cel-go signature spelling", () => {
  assert.equal(formatFunctionType(undefined, [IntType, StringType], false), "(int, string)");
  assert.equal(formatFunctionType(undefined, [StringType, IntType], true), "string.(int)");
  assert.equal(formatFunctionType(IntType, [], false), "() -> int");
});

test("exact and assignable types", () => {
  assert.ok(isExactType(listType(IntType), listType(IntType)));
  assert.ok(!isExactType(listType(IntType), listType(DynType)));
  assert.ok(isAssignableType(listType(DynType), listType(IntType)));
  assert.ok(!isAssignableType(listType(IntType), listType(DynType)));
  assert.ok(isAssignableType(mapType(StringType, DynType), mapType(StringType, optionalType(IntType))));
  assert.ok(!isExactType(typeParamType("A"), typeParamType("B")));
});
