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
export { ParseCache } from "./parser/parse-cache.js";
export type { CelIssue } from "./parser/issues.js";
export { formatIssue, formatIssues } from "./parser/issues.js";
export type { Macro, MacroExprHelper, MacroResult, MacroError } from "./parser/macros.js";
export { EXISTS_ONE_MACRO, LISTS_MACROS, OPTIONAL_MACROS, STANDARD_MACROS, TWO_VAR_MACROS } from "./parser/macros.js";
export * from "./values/values.js";
export { celCompare, celEquals, codePointLength, tagOf, typeOf } from "./values/ops.js";
export type { CallCostFn, CallCostShape, OverloadImpl } from "./interpreter/functions.js";
export { FunctionRegistry } from "./interpreter/functions.js";
export type { Activation, CheckedInfo, EvalOptions, EvalResult, PlanOptions, Program } from "./interpreter/planner.js";
export { COST_LIMIT_MESSAGE, ProgramInstantiationError, plan } from "./interpreter/planner.js";
export { checkInstantiation, planOnFirstEval } from "./interpreter/lazy-program.js";
export { actualSize, COST, defaultCallCost } from "./interpreter/runtime-cost.js";
export type { StandardFunctionsOptions } from "./stdlib-impl/index.js";
export { standardFunctions } from "./stdlib-impl/index.js";
export { nativeToCel } from "./values/native.js";

// --- CEL-B: (types, checker, cost estimator, env) — add exports below
export type { CelType as CheckedType, TypeKind } from "./types/types.js";
export {
  AnyType,
  BoolType,
  BytesType,
  DoubleType,
  DurationType,
  DynType,
  ErrorType,
  formatFunctionType,
  formatType,
  IntType,
  isAssignableType,
  isExactType,
  listType,
  mapType,
  NullType,
  opaqueType,
  optionalType,
  StringType,
  structType,
  TimestampType,
  TypeType,
  typeParamType,
  typeTypeWithParam,
  UintType,
} from "./types/types.js";
export { parseType, TypeSyntaxError } from "./types/parse-type.js";
export type { ObjectTypeSource, TypeProvider } from "./types/provider.js";
export { TypeRegistry } from "./types/provider.js";
export type { FunctionDecl, OverloadDecl, VariableDecl } from "./decls/decl.js";
export { fn, memberOverload, mergeFunctions, overload } from "./decls/decl.js";
export { STANDARD_FUNCTIONS, STANDARD_TYPE_NAMES } from "./decls/standard.js";
export {
  LISTS_EXT_V3,
  OPTIONAL_LIB,
  SETS_EXT,
  STRINGS_EXT_V2,
  TWO_VAR_COMPREHENSIONS,
} from "./decls/extensions.js";
export type { CheckOptions, CheckResult, Reference } from "./checker/checker.js";
export { check } from "./checker/checker.js";
export type { CheckerDecls } from "./checker/env.js";
export type { AstValidator, ValidationContext } from "./checker/validators/validator.js";
export { validateHomogeneousAggregateLiterals } from "./checker/validators/homogeneous.js";
export {
  validateDurationLiterals,
  validateRegexLiterals,
  validateTimestampLiterals,
} from "./checker/validators/literals.js";
export { validateStringFormat } from "./checker/validators/string-format.js";
export * from "./cost/index.js";
export type {
  CelProgram,
  CompileFailure,
  Compiled,
  CustomFunction,
  CustomOverload,
  DerivedEnvOptions,
  EnvOptions,
  LibraryOptions,
  ProgramOptions,
  TypeSpec,
} from "./env.js";
export { Env, EnvError, isCompileFailure, runtimeFunctions } from "./env.js";
