export * from "./structural.js";
export * from "./new-structural.js";
export * from "./validate-structural.js";
export * from "./unfold.js";
export * from "./for-version.js";
export * from "./facts-tree.js";
export * from "./lazy-structural.js";
