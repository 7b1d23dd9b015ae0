export { asBuiltinBundle, bundleReleases, type BuiltinBundle, type BundleRelease } from "./bundle.js";
export { BuiltinKind, CORE_GROUP, compileBuiltinKind, type BuiltinKindInfo } from "./builtin-kind.js";
export { BuiltinSchemas, BuiltinUnavailable } from "./builtin-schemas.js";
export { DefinitionResolver, RecursiveDefinitionError, UnresolvedReferenceError } from "./resolve-definition.js";
export { patchDefinition } from "./schema-patches.js";
