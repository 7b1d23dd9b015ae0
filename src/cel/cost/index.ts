/**
 * Static cost estimation (cel-go `checker/cost.go`).
 * @module
 */
export * from "./estimates.js";
export * from "./estimator.js";
export * from "./lists-ext.js";
