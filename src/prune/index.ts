export { prune, asResourceRoot, emptyStructural, type PruneOptions } from "./prune.js";
export { UnknownPathTracker } from "./unknown-paths.js";
export { st, type StructuralSpec } from "./structural-builder.js";
