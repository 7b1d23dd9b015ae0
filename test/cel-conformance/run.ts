/**
 * Runs one conformance test through crdkit's CEL engine: compile (parse + check) compared with
 * cel-go's recorded type or error text, then evaluation compared with the expected value/error.
 * @module
 */
import { Env, formatType, isCompileFailure } from "../../src/cel/env.js";
import { envOptionsFor } from "./convert-types.js";
import { evaluateTest } from "./evaluate.js";
import { CHECKING_SECTION, type ConformanceTest } from "./suite.js";

/** Outcome of one test. */
export interface TestOutcome {
  readonly pass: boolean;
  /** Why it failed (first mismatch). */
  readonly detail?: string;
}

/** Compiles and evaluates `t`. Never throws. */
export function runTest(t: ConformanceTest): TestOutcome {
  try {
    return runUnsafe(t);
  } catch (e) {
    return { pass: false, detail: `crash: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}` };
  }
}

function runUnsafe(t: ConformanceTest): TestOutcome {
  const checkOnly = t.section === CHECKING_SECTION;
  const env = new Env(envOptionsFor(t.original, checkOnly));
  const compiled = env.compile(t.original.expr);
  if (t.error !== undefined && !isExtractionArtifact(t.error, env)) {
    if (!isCompileFailure(compiled)) {
      return { pass: false, detail: `cel-go rejects (${t.error.split("\n")[0]}) but crdkit compiled to ${formatType(compiled.outputType)}` };
    }
    if (compiled.issues !== t.error) {
      return { pass: false, detail: `error text differs:\n--- cel-go\n${t.error}\n--- crdkit\n${compiled.issues}` };
    }
    if (t.original.disableCheck !== true) return { pass: true };
    // cel-go's checker rejects it but the test evaluates it unchecked.
    const parsed = env.parseOnly(t.original.expr);
    if ("issues" in parsed) return { pass: false, detail: `parse failed: ${parsed.issues}` };
    return evaluateTest(t, env, parsed.ast, undefined);
  }
  if (isCompileFailure(compiled)) {
    if (t.type === undefined) return { pass: true }; // cel-go recorded neither type nor error
    return { pass: false, detail: `cel-go type ${t.type} but crdkit failed:\n${compiled.issues}` };
  }
  if (t.type !== undefined && formatType(compiled.outputType) !== t.type) {
    return { pass: false, detail: `type differs: cel-go ${t.type}, crdkit ${formatType(compiled.outputType)}` };
  }
  if (t.original.checkOnly === true || checkOnly) return { pass: true };
  return evaluateTest(t, env, compiled.ast, compiled.checked);
}

const EXTENSION_MACROS = new Set(["all", "exists", "existsOne", "transformList", "transformMap", "transformMapEntry", "optMap", "optFlatMap", "sortBy"]);

/**
 * Whether cel-go's recorded error only reflects the environment the data was extracted with
 * lacking an extension Kubernetes enables (optional syntax, two-variable comprehensions, ...).
 */
function isExtractionArtifact(error: string, env: Env): boolean {
  if (error.includes("unsupported syntax '")) return true;
  const names = [...error.matchAll(/undeclared reference to '([^']+)'/g)].map((m) => m[1] as string);
  return names.some((n) => EXTENSION_MACROS.has(n) || env.decls.functions.has(n));
}
