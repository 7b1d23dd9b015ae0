import * as assert from "node:assert/strict";
import { test } from "node:test";
import { parse } from "../parser/parser.js";
import { standardFunctions } from "../stdlib-impl/index.js";
import { CelError } from "../values/values.js";
import { COST_LIMIT_MESSAGE, plan } from "./planner.js";

const functions = standardFunctions();

/** Parses and evaluates; returns the error text, or the value as a string. Must never throw. */
function run(src: string, costLimit = 1_000_000): string {
  const r = parse(src);
  if (!r.ast) return `parse: ${r.errorText.split("\n")[0]}`;
  const v = plan(r.ast, { functions }).eval({}, { costLimit }).value;
  return v instanceof CelError ? `error: ${v.message}` : `value: ${String(v).slice(0, 40)}`;
}

const CASES: { name: string; src: string; want: RegExp }[] = [
  { name: "50k nested parens", src: `${"(".repeat(49_000)}1${")".repeat(49_000)}`, want: /^parse: .*expression recursion limit exceeded: 250/ },
  { name: "deep list nesting", src: `${"[".repeat(5000)}${"]".repeat(5000)}`, want: /^parse: .*recursion limit exceeded/ },
  { name: "deep map nesting", src: `${"{".repeat(3000)}${"}".repeat(3000)}`, want: /^parse: .*recursion limit exceeded/ },
  { name: "long + chain", src: Array(30_000).fill("1").join("+"), want: /^parse: .*max recursion depth exceeded/ },
  { name: "long select chain", src: `a${".b".repeat(30_000)}`, want: /^parse: .*max recursion depth exceeded/ },
  { name: "long index chain", src: `a${"[0]".repeat(20_000)}`, want: /^parse: .*max recursion depth exceeded/ },
  { name: "nested calls", src: `${"f(".repeat(20_000)}${")".repeat(20_000)}`, want: /^parse: .*recursion limit exceeded/ },
  { name: "10k literals in ||", src: Array(10_000).fill("false").join("||"), want: /^value: false$/ },
  { name: "huge list literal", src: `[${Array(30_000).fill("1").join(",")}].size()`, want: /^value: 30000$/ },
  { name: "too long", src: "1".repeat(100_001), want: /^parse: .*code point size exceeds limit/ },
  { name: "many syntax errors", src: "$ ".repeat(5000), want: /^parse: .*token recognition error/ },
  { name: "lone surrogates", src: "'\uD800' + '\uDC00a' == 'x'", want: /^value: false$/ },
  { name: "regex bomb (RE2 is linear)", src: `'${"a".repeat(5000)}!'.matches('(a+)+$')`, want: /^value: false$/ },
  { name: "regex nested repeats", src: "'aaaa'.matches('((a{1,100}){1,100}){1,100}')", want: /^(value|error)/ },
  {
    name: "exponential macro nesting hits the cost limit",
    src: `lists.range(50).all(a, lists.range(50).all(b, lists.range(50).all(c, lists.range(50).all(d, true))))`,
    want: new RegExp(`^error: ${COST_LIMIT_MESSAGE}$`),
  },
  { name: "quadratic accumulation stays linear", src: "lists.range(50000).map(x, x).size()", want: /^(value: 50000|error: operation cancelled)/ },
];

for (const c of CASES) {
  test(`hostile: ${c.name}`, () => {
    assert.match(run(c.src), c.want);
  });
}

test("hostile: unbounded comprehension with a cost limit stops promptly", () => {
  const r = parse("lists.range(1000).map(x, lists.range(1000).map(y, x * y)).size()");
  assert.ok(r.ast);
  const out = plan(r.ast, { functions }).eval({}, { costLimit: 50_000 });
  assert.ok(out.value instanceof CelError && out.value.message === COST_LIMIT_MESSAGE);
  assert.ok(out.cost <= 51_100);
});
