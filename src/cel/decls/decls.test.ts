// Declarations: cel-go overload ids are unique per environment and signatures are well-formed.
import * as assert from "node:assert/strict";
import { test } from "node:test";
import { formatFunctionType } from "../types/types.js";
import { mergeFunctions } from "./decl.js";
import { LISTS_EXT_V3, OPTIONAL_LIB, SETS_EXT, STRINGS_EXT_V2, TWO_VAR_COMPREHENSIONS } from "./extensions.js";
import { STANDARD_FUNCTIONS } from "./standard.js";

const all = mergeFunctions(STANDARD_FUNCTIONS, STRINGS_EXT_V2, SETS_EXT, LISTS_EXT_V3, OPTIONAL_LIB, TWO_VAR_COMPREHENSIONS);

test("decls: overload ids are unique across the Kubernetes libraries", () => {
  const seen = new Map<string, string>();
  for (const f of all.values()) {
    for (const o of f.overloads) {
      assert.ok(!seen.has(o.id), `${o.id} declared by ${seen.get(o.id)} and ${f.name}`);
      seen.set(o.id, f.name);
    }
  }
  assert.ok(seen.size > 200);
});

test("decls: member overloads have a receiver", () => {
  for (const f of all.values()) for (const o of f.overloads) if (o.member) assert.ok(o.args.length >= 1, o.id);
});

const spotChecks: [string, string, string][] = [
  ["_+_", "add_int64", "(int, int) -> int"],
  ["size", "string_size", "string.() -> int"],
  ["size", "size_string", "(string) -> int"],
  ["contains", "contains_string", "string.(string) -> bool"],
  ["matches", "matches_string", "string.(string) -> bool"],
  ["getFullYear", "timestamp_to_year", "timestamp.() -> int"],
  ["getSeconds", "timestamp_to_seconds_tz", "timestamp.(string) -> int"],
  ["_<_", "less_int64_double", "(int, double) -> bool"],
  ["_[_]", "optional_map_index_value", "(optional_type(map(K, V)), K) -> optional_type(V)"],
  ["charAt", "string_char_at_int", "string.(int) -> string"],
  ["format", "string_format", "string.(list(dyn)) -> string"],
  ["strings.quote", "strings_quote", "(string) -> string"],
  ["sets.contains", "list_sets_contains_list", "(list(T), list(T)) -> bool"],
  ["sort", "list_google.protobuf.Duration_sort", "list(duration).() -> list(duration)"],
  ["cel.@mapInsert", "@mapInsert_map_key_value", "(map(K, V), K, V) -> map(K, V)"],
];
for (const [fn, id, sig] of spotChecks) {
  test(`decls: ${fn} ${id}`, () => {
    const o = all.get(fn)?.overloads.find((x) => x.id === id);
    assert.ok(o !== undefined, `${id} missing`);
    assert.equal(formatFunctionType(o.result, o.args, o.member), sig);
  });
}
