/** `cel.ValidFieldPath` (validation_test.go TestValidateFieldPath). */
import { strict as assert } from "node:assert";
import { test } from "node:test";
import { newStructural, StructuralError } from "../structural/new-structural.js";
import { validFieldPath } from "./field-path.js";

const s = newStructural({
  type: "object",
  properties: {
    foo: { type: "object", additionalProperties: { type: "object", properties: { f1: { type: "number" } } } },
    a: {
      type: "object",
      properties: {
        bbb: { type: "object", properties: { c: { type: "number" }, "34": { type: "number" } } },
        "bbb.c": { type: "object", properties: { "a-b34": { type: "number" } } },
      },
    },
    list: { type: "array", items: { type: "object", properties: { a: { type: "number" }, "a-b.34": { type: "number" } } } },
  },
});
if (s instanceof StructuralError) throw new Error(s.message);

const cases: [string, string, string | undefined][] = [
  ["Valid .a", ".a", undefined],
  ["Valid .a.b", ".a.bbb", undefined],
  ["Valid .foo.f1", ".foo.f1", undefined],
  ["Invalid map syntax .a.b", ".a['bbb']", undefined],
  ["Valid .a['bbb.c']", ".a['bbb.c']", undefined],
  ["Valid .a['bbb.c'].a-b34", ".a['bbb.c'].a-b34", undefined],
  ["Valid .a['bbb.c']['a-b34']", ".a['bbb.c']['a-b34']", undefined],
  ["Valid .a.bbb.c", ".a.bbb.c", undefined],
  ["Valid .a.bbb.34", ".a.bbb['34']", undefined],
  ["Invalid map key", ".a.foo", "does not refer to a valid field"],
  ["Malformed map key", ".a.bbb[0]", "expected single quoted string but got 0"],
  ["number in field names", ".a.bbb.34", undefined],
  ["Valid .list", ".list", undefined],
  ["Invalid .list[1]", ".list[1]", "expected single quoted string but got 1"],
  ["Unsupported .list.a", ".list.a", "does not refer to a valid field"],
  ["Unsupported .list['a-b.34']", ".list['a-b.34']", "does not refer to a valid field"],
  ["Invalid .list.a-b.34", ".list.a-b.34", "does not refer to a valid field"],
  ["Missing leading dot", "a", "expected [ or . but got: a"],
  ["Nonexistent field", ".c", "does not refer to a valid field"],
  ["Duplicate dots", ".a..b", "does not refer to a valid field"],
  ["Negative array index", ".list[-1]", "expected single quoted string but got -1"],
  ["Floating-point array index", ".list[1.0]", "expected single quoted string but got 1"],
  ["Unterminated bracket", ".a['bbb'", "unexpected end of JSON path"],
  ["Bad escape", ".a['b\\qb']", "invalid string literal: invalid escape char \\q"],
  ["Escaped quote", ".a['bbb\\'']", "does not refer to a valid field"],
];

for (const [name, path, err] of cases) {
  test(`ValidFieldPath: ${name}`, () => {
    const r = validFieldPath(path, s, true);
    assert.equal("error" in r ? r.error : undefined, err);
  });
}

test("ValidFieldPath: map keys become [key] path elements, array notation can be forbidden", () => {
  const r = validFieldPath(".foo['k'].f1", s, true);
  assert.ok(!("error" in r));
  if (!("error" in r)) {
    assert.equal(r.path?.toString(), "foo[k].f1");
    assert.equal(r.schema?.type, "number");
  }
  assert.deepEqual(validFieldPath(".a['bbb']", s, false), { error: "array notation is not allowed" });
});
