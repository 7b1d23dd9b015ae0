/** OpenAPI value validation, string formats, Go regexps and ratcheting (`pkg/apiserver/validation`). */
export {
  compileSchemaValidator,
  toFieldErrors,
  validateCustomResource,
  validateCustomResourceUpdate,
  validateValue,
  validateValueUpdate,
  type SchemaValidator,
  type SchemaValidatorOptions,
} from "./schema-validator.js";
export {
  type CompatibilityVersion,
  type FormatValidator,
  NEWEST_COMPATIBILITY_VERSION,
  effectiveFormat,
  formatRegistry,
  getUnrecognizedFormats,
  getUnrecognizedFormatsInSchema,
  lookupFormat,
  normalizeFormatName,
  supportedFormats,
  validatesFormat,
} from "./formats.js";
export { type SchemaNode, compileSchemaNode } from "./compile.js";
export { CorrelatedObject } from "./correlation.js";
export { Code, type VErr } from "./messages.js";
export { enumContains, isFloat64AJSONInteger } from "./evaluate.js";
