/**
 * Evaluation half of a conformance test: plans the (checked or unchecked) AST, binds the test's
 * bindings and compares the result with the expected value or error.
 * @module
 */
import type { ParsedAst } from "../../src/cel/ast.js";
import type { CheckResult } from "../../src/cel/checker/checker.js";
import type { Env } from "../../src/cel/env.js";
import { type CelValue, CelError, CelSpecial, CelUnknown } from "../../src/cel/values/values.js";
import { jsonToValue, UnsupportedValue, valuesEqual } from "./convert-values.js";
import type { TestOutcome } from "./run.js";
import type { ConformanceTest, Json } from "./suite.js";

function render(v: CelValue): string {
  try {
    if (v instanceof CelError) return `error(${v.message})`;
    return JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? `${x}n` : x instanceof Map ? [...x] : x)) ?? String(v);
  } catch {
    return String(v);
  }
}

/** Evaluates `ast` and compares with the expected result. */
export function evaluateTest(
  t: ConformanceTest,
  env: Env,
  ast: ParsedAst,
  checked: CheckResult | undefined,
): TestOutcome {
  let bindings: Record<string, CelValue>;
  let expected: CelValue | undefined;
  try {
    bindings = {};
    for (const [name, b] of Object.entries(t.original.bindings ?? {})) bindings[name] = jsonToValue(b.value);
    const want: Json | undefined = t.original.value ?? t.original.typedResult?.result;
    expected = want === undefined ? undefined : jsonToValue(want);
  } catch (e) {
    if (e instanceof UnsupportedValue) return { pass: false, detail: `unsupported test data: ${e.message}` };
    throw e;
  }
  const prog = checked === undefined ? env.programUnchecked(ast) : env.program({ ast, checked, outputType: checked.types.get(ast.expr.id) ?? (undefined as never) });
  const result = prog.eval(bindings).value;
  if (t.original.evalError !== undefined) {
    if (result instanceof CelError) return { pass: true };
    return { pass: false, detail: `expected an evaluation error, got ${render(result)}` };
  }
  if (result instanceof CelSpecial) {
    const what = result instanceof CelUnknown ? "unknown" : render(result);
    return { pass: false, detail: `unexpected ${what}` };
  }
  if (expected === undefined) return { pass: true };
  if (!valuesEqual(result, expected)) {
    return { pass: false, detail: `value differs: expected ${render(expected)}, got ${render(result)}` };
  }
  return { pass: true };
}
