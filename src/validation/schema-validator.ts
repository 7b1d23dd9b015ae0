/**
 * The API server's custom-resource value validation (`pkg/apiserver/validation/validation.go` +
 * `ratcheting.go`): compile a CRD schema once, validate objects on create and update (with ratcheting),
 * and convert kube-openapi errors to `field.Error`s (`kubeOpenAPIResultToFieldErrors`).
 */
import type { JSONSchemaProps } from "../crd/types.js";
import { type FieldError, fieldError } from "../errors/field-error.js";
import { type FieldPath, childOf } from "../errors/field-path.js";
import type { JsonValue } from "../value/json-value.js";
import { goJsonMarshal } from "../go/json.js";
import { type CompileOptions, type SchemaNode, compileSchemaNode } from "./compile.js";
import { CorrelatedObject } from "./correlation.js";
import { Evaluation } from "./evaluate.js";
import { Code, type VErr } from "./messages.js";

/** A compiled OpenAPI value validator (kube-openapi `SchemaValidator` + ratcheting). */
export interface SchemaValidator {
  /** The compiled root node (an empty schema when the CRD had none). */
  readonly root: SchemaNode;
}

/** Options of {@link compileSchemaValidator}. */
export type SchemaValidatorOptions = CompileOptions;

/**
 * `NewSchemaValidator(internalSchema)`: converts and compiles a CRD's openAPIV3Schema (or a sub-schema
 * such as `properties.status`) once. `undefined`/`null` gives a validator that accepts everything.
 * Throws CrdkitError only for schemas Kubernetes cannot build a validator for (`$ref`).
 */
export function compileSchemaValidator(
  schema: JSONSchemaProps | null | undefined,
  opts: SchemaValidatorOptions = {},
): SchemaValidator {
  return { root: compileSchemaNode(schema ?? {}, opts) };
}

/** De-duplicates by message text (kube-openapi `Result.AddErrors`), first occurrence wins. */
function dedupe(errs: VErr[]): VErr[] {
  if (errs.length < 2) return errs;
  const seen = new Set<string>();
  const out: VErr[] = [];
  for (const e of errs) {
    if (seen.has(e.message)) continue;
    seen.add(e.message);
    out.push(e);
  }
  return out;
}

/** Runs kube-openapi validation and returns its (de-duplicated) raw errors. */
export function validateValue(validator: SchemaValidator, value: JsonValue): VErr[] {
  const acc: VErr[] = [];
  new Evaluation().validate(validator.root, value, acc, null);
  return dedupe(acc);
}

/** Ratcheting validation of `newValue` against `oldValue`; returns the remaining raw errors. */
export function validateValueUpdate(
  validator: SchemaValidator,
  newValue: JsonValue,
  oldValue: JsonValue,
  correlation?: CorrelatedObject | null,
): VErr[] {
  const acc: VErr[] = [];
  const corr = correlation ?? new CorrelatedObject(newValue, oldValue, validator.root);
  new Evaluation().validate(validator.root, newValue, acc, corr);
  return dedupe(acc);
}

/** `kubeOpenAPIResultToFieldErrors(fldPath, result)`. */
export function toFieldErrors(fldPath: FieldPath | null, errs: readonly VErr[]): FieldError[] {
  const out: FieldError[] = [];
  for (const e of errs) {
    if (!e.validation) {
      out.push(fieldError.invalid(fldPath, "", e.message));
      continue;
    }
    const errPath = e.name.length > 0 && e.name !== "." ? childOf(fldPath, e.name.startsWith(".") ? e.name.slice(1) : e.name) : fldPath;
    const value = e.value === undefined ? "" : e.value;
    switch (e.code) {
      case Code.Required:
        out.push(fieldError.required(errPath, ""));
        break;
      case Code.Enum:
        out.push(
          fieldError.notSupported(
            errPath,
            e.value === undefined ? null : e.value,
            (e.values ?? []).map((v) => (typeof v === "string" ? v : goJsonMarshal(v))),
          ),
        );
        break;
      case Code.TooLong:
        out.push(fieldError.tooLong(errPath, e.valid ?? -1));
        break;
      case Code.MaxItems:
      case Code.TooManyProperties:
        out.push(fieldError.tooMany(errPath, typeof e.value === "number" ? e.value : -1, e.valid ?? -1));
        break;
      case Code.InvalidType:
        out.push(fieldError.typeInvalid(errPath, value, e.message));
        break;
      default:
        out.push(fieldError.invalid(errPath, value, e.message));
    }
  }
  return out;
}

/**
 * `ValidateCustomResource(fldPath, obj, validator)`: OpenAPI value validation on create (and of
 * defaults). Names inside messages are relative to the validated value; `fldPath` prefixes field paths
 * (nil for a whole custom resource, `status` for a /status sub-schema validator).
 */
export function validateCustomResource(
  fldPath: FieldPath | null,
  obj: JsonValue,
  validator: SchemaValidator | null | undefined,
): FieldError[] {
  if (!validator) return [];
  const errs = validateValue(validator, obj);
  return errs.length === 0 ? [] : toFieldErrors(fldPath, errs);
}

/**
 * `ValidateCustomResourceUpdate(fldPath, new, old, validator, WithRatcheting(correlation))`: errors of
 * subtrees whose old and new values are equal under correlation (object keys, list-type=map keys) are
 * dropped; root `apiVersion`/`kind` are never ratcheted on their own. `opts.correlation` (a
 * {@link CorrelatedObject} over `newObj`/`oldObj` and `validator.root`) may be shared with other
 * ratcheting layers; by default a fresh one is built. Pass `oldObj = null` when there is no old value
 * (e.g. a /status update of an object that had no status).
 */
export function validateCustomResourceUpdate(
  fldPath: FieldPath | null,
  newObj: JsonValue,
  oldObj: JsonValue,
  validator: SchemaValidator | null | undefined,
  opts: { correlation?: CorrelatedObject | null } = {},
): FieldError[] {
  if (!validator) return [];
  const errs = validateValueUpdate(validator, newObj, oldObj, opts.correlation);
  return errs.length === 0 ? [] : toFieldErrors(fldPath, errs);
}
