/**
 * x-kubernetes-validations on top of the generic CEL engine (apiextensions `pkg/apiserver/schema/cel`,
 * apiserver `pkg/cel`). Re-exports only.
 * @module
 */
export * from "./escaping.js";
export * from "./decl-type.js";
export { KubeMap, kubeAddLists, kubeEquals, toCelValue } from "./values.js";
export { type EnvFlavor, ruleEnvs } from "./env.js";
export { type CompiledRule, type CompileNodeOptions, compileNodeRules, crdCelCompiler, PER_CALL_LIMIT } from "./compile.js";
export { newRuleValidator, type RuleValidator } from "./validator.js";
export {
  celBlockedBy,
  celBlockedError,
  MAX_MESSAGE_EXPRESSION_BYTES,
  RUNTIME_CEL_COST_BUDGET,
  ruleErrorString,
  ruleMessageOrDefault,
  type ValidateRulesOptions,
  type RuleTrace,
  type ValidateRulesResult,
  validateDefaultRules,
  validateRules,
} from "./validate.js";
export { Correlation } from "./correlation.js";
export { kubeCallCost, kubeCostEstimator, declSizeEstimator } from "./costs.js";
export { evaluateExpression, formatCelValue, type ExpressionResult } from "./evaluate-expression.js";
