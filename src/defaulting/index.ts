export { applyDefaults } from "./default.js";
export { pruneNonNullableNullsWithoutDefaults } from "./prune-nulls.js";
export { pruneDefaults, cloneStructuralForDefaults, type PruneDefaultsResult } from "./prune-defaults.js";
export { applySchemaCoercion, type SchemaCoercerOptions, type SchemaCoercerResult } from "./schema-coercer.js";
export { SurroundingObject, type AccessResult } from "./surrounding-object.js";
