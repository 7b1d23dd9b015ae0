import * as assert from "node:assert/strict";
import { test } from "node:test";
import { getParsingSuite } from "@bufbuild/cel-spec/testdata/tests.js";
import { KindAdorner, toDebugString } from "@bufbuild/cel-spec/testdata/to-debug-string.js";
import { toProtoLike } from "./debug-proto.test-util.js";
import type { Macro } from "./macros.js";
import { EXISTS_ONE_MACRO, LISTS_MACROS, OPTIONAL_MACROS, STANDARD_MACROS, TWO_VAR_MACROS } from "./macros.js";
import type { ParseOptions } from "./parser.js";
import { parse as parseWith } from "./parser.js";

// The suite was recorded with cel-go's parser package defaults (parser.AllMacros, which include
// the two-argument existsOne).
const SUITE_MACROS: Macro[] = [...STANDARD_MACROS, EXISTS_ONE_MACRO, ...TWO_VAR_MACROS, ...OPTIONAL_MACROS, ...LISTS_MACROS];
const parse = (expr: string, opts: ParseOptions = {}) => parseWith(expr, { macros: SUITE_MACROS, ...opts });

// Cases where the cel-go suite ran with non-default parser options (recursion limit 32,
// optional syntax or macros disabled, error-recovery limits): our defaults differ.
const OPTION_DEPENDENT = [/^\[\[\[\[/, /^-\[-1/, /unsupported syntax/, /error recovery/, /recursion/];

test("cel-go parsing suite: accepted inputs give identical debug ASTs", () => {
  const suite = getParsingSuite();
  let same = 0;
  const diffs: string[] = [];
  for (const t of suite.tests) {
    if (!t.ast) continue;
    const r = parse(t.original.expr);
    if (!r.ast) {
      diffs.push(`${t.original.expr}: unexpected error ${r.errorText}`);
      continue;
    }
    // biome-ignore lint/suspicious/noExplicitAny: protobuf-like test object
    const got = toDebugString(toProtoLike(r.ast.expr) as any, KindAdorner.singleton);
    if (got === t.ast) same++;
    else diffs.push(`${t.original.expr}:\n${got}\n--- want\n${t.ast}`);
  }
  assert.deepEqual(diffs, []);
  assert.ok(same > 100);
});

test("cel-go parsing suite: rejected inputs are rejected", () => {
  const suite = getParsingSuite();
  const wrong: string[] = [];
  for (const t of suite.tests) {
    if (t.ast || !t.error) continue;
    // checker errors (undeclared reference, no matching overload) are not parse errors
    if (!/^ERROR: :/.test(t.error)) continue;
    if (OPTION_DEPENDENT.some((re) => re.test(t.error ?? "") || re.test(t.original.expr))) continue;
    const r = parse(t.original.expr);
    if (r.ast) wrong.push(`${t.original.expr}: accepted, want ${t.error}`);
  }
  assert.deepEqual(wrong, []);
});

test("cel-go parsing suite: syntax error texts are identical to cel-go's", () => {
  const suite = getParsingSuite();
  let same = 0;
  const diffs: string[] = [];
  for (const t of suite.tests) {
    if (!t.error || !/^ERROR: :/.test(t.error)) continue;
    // the suite ran some inputs with optional syntax disabled or a recursion limit of 32
    const opts: {
      description: string;
      enableOptionalSyntax?: boolean;
      enableIdentEscapeSyntax?: boolean;
      maxRecursionDepth?: number;
    } = { description: "" };
    if (t.error.includes("unsupported syntax: '`'")) opts.enableIdentEscapeSyntax = false;
    if (/unsupported syntax '/.test(t.error)) opts.enableOptionalSyntax = false;
    if (/limit exceeded: 32|max recursion depth/.test(t.error)) opts.maxRecursionDepth = 32;
    const r = parse(t.original.expr, opts);
    if (r.errorText === t.error) same++;
    else diffs.push(t.original.expr);
  }
  // Remaining differences are later errors of ANTLR's multi-error recovery (the first error matches).
  assert.ok(same >= 76, `only ${same} identical; differing: ${diffs.join(" | ")}`);
  assert.ok(diffs.length <= 10, diffs.join(" | "));
});
