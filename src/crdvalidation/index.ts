/**
 * CRD checks as the API server runs them on create and update (`pkg/apis/apiextensions/validation` and the
 * CRD registry strategy): `validateCrdCreate(value)` / `validateCrdUpdate(newValue, oldValue)` take parsed
 * YAML/JSON values and return Kubernetes' field errors (exact text, path and order), the warnings, or the
 * decode error; `nonStructuralSchemaCondition(crd)` gives the NonStructuralSchema condition. CEL rule
 * compilation plugs in through `options.celCompiler` (see ./cel-hook.ts); default-value checks through
 * `options.defaultsHooks` (wired in src/pipeline/crd-hooks.ts).
 */
export * from "./validate-crd.js";
export * from "./cel-hook.js";
export * from "./nonstructural.js";
export type { DefaultsHooks } from "./defaults-validation.js";
export { validFieldPath } from "./field-path.js";
export { documentPath } from "./document-path.js";
