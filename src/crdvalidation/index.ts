export * from "./validate-crd.js";
export * from "./cel-hook.js";
export * from "./nonstructural.js";
export type { DefaultsHooks } from "./defaults-validation.js";
