/**
 * The browser entry (`crdkit/browser`, and the `browser` condition of `crdkit`): the whole engine API —
 * it uses no Node APIs — plus the playground's verdict and the CEL expression evaluator. Re-exports only.
 */
export * from "./index.js";
export { analyze, type Diagnostic, type Pane, type PlaygroundInput, type PlaygroundResult } from "./playground/analyze.js";
export { evaluateExpression, formatCelValue, type ExpressionResult } from "./rules/evaluate-expression.js";
export type { RuleTrace } from "./rules/validate.js";
export type { Structural } from "./structural/structural.js";
