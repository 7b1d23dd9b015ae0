/**
 * The API server's complete CRD create checks. A module of its own: the CLI bundle's core calls it without
 * loading the checks, their hooks or the CEL compiler until a CRD is checked (scripts/bundle-split.mjs).
 */
import { type CrdValidationResult, validateCrdCreate } from "../crdvalidation/validate-crd.js";
import type { JsonValue } from "../value/json-value.js";
import { crdValidationOptions } from "./crd-hooks.js";

/** `validateCrdCreate(value, crdValidationOptions)`: decoding, validation, CEL compilation and cost limits. */
export function validateCrdCreateComplete(value: JsonValue): CrdValidationResult {
  return validateCrdCreate(value, crdValidationOptions);
}
