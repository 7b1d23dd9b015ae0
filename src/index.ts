/**
 * crdkit's library API: compile a CustomResourceDefinition once, then create / update / status-update
 * custom resources through the same pipeline as the Kubernetes API server (prune, default, validate),
 * getting back the stored object, the errors (exact `field.Error` texts) and the warnings.
 *
 * ```ts
 * import { compileCrd, decodeDocuments, errorString } from "crdkit";
 * const crd = compileCrd(decodeDocuments(crdYaml)[0].value);
 * const r = crd.create(decodeDocuments(crYaml)[0].value);
 * r.errors.map(errorString);
 * ```
 */
export {
  compileCrd,
  tryCompileCrd,
  CompiledCrdImpl,
  PIPELINE_GAPS,
  type CompileResult,
  type CompiledCrd,
  type CompiledVersion,
  type FieldValidationMode,
  type PipelineResult,
  type RequestOptions,
} from "./pipeline/index.js";
export { decodeDocuments, type DecodedDocument, type DecodeOptions, type Position } from "./io/index.js";
export {
  aggregateMessage,
  errorBody,
  errorString,
  ErrorType,
  type FieldError,
} from "./errors/field-error.js";
export { FieldPath } from "./errors/field-path.js";
export { invalidStatus, type Status } from "./errors/status.js";
export { CrdkitError } from "./errors/crdkit-error.js";
export type { CustomResourceDefinition, JSONSchemaProps } from "./crd/types.js";
export { Float64, deepEqual, kindOf, type JsonObject, type JsonValue } from "./value/json-value.js";
export { goJsonMarshal } from "./go/json.js";
export {
  validateCrdCreate,
  validateCrdUpdate,
  type CrdValidationOptions,
  type CrdValidationResult,
} from "./crdvalidation/validate-crd.js";
export { nonStructuralSchemaCondition, type NonStructuralCondition } from "./crdvalidation/nonstructural.js";
export { crdValidationOptions } from "./pipeline/crd-hooks.js";
export {
  BuiltinKind,
  BuiltinSchemas,
  BuiltinUnavailable,
  asBuiltinBundle,
  type BuiltinBundle,
  type BuiltinKindInfo,
} from "./builtin/index.js";
