/**
 * crdkit's CEL engine (generic; no Kubernetes knowledge). Re-exports only.
 *
 * Sections are additive: CEL-A (AST, parser, values, interpreter, stdlib) and
 * CEL-B (types, checker, cost estimator, env).
 *
 * @module
 */

// --- CEL-A: AST, parser, values, interpreter, function implementations
export * from "./ast.js";
export type { ParseOptions, ParseResult } from "./parser/parser.js";
export { parse } from "./parser/parser.js";
export type { CelIssue } from "./parser/issues.js";
export { formatIssue, formatIssues } from "./parser/issues.js";
export type { Macro, MacroExprHelper, MacroResult, MacroError } from "./parser/macros.js";
export { STANDARD_MACROS, TWO_VAR_MACROS } from "./parser/macros.js";
export * from "./values/values.js";
export { celCompare, celEquals, codePointLength, tagOf, typeOf } from "./values/ops.js";
export type { CallCostFn, OverloadImpl } from "./interpreter/functions.js";
export { FunctionRegistry } from "./interpreter/functions.js";
export type { Activation, CheckedInfo, EvalOptions, EvalResult, PlanOptions, Program } from "./interpreter/planner.js";
export { COST_LIMIT_MESSAGE, plan } from "./interpreter/planner.js";
export { actualSize, COST, defaultCallCost } from "./interpreter/runtime-cost.js";
export { standardFunctions } from "./stdlib-impl/index.js";
export { nativeToCel } from "./values/native.js";

// --- CEL-B: (types, checker, cost estimator, env) — add exports below
