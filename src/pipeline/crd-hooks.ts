/**
 * The engine steps CRD validation needs to check `default` values (ObjectMeta coercion and validation,
 * OpenAPI value validation, CEL rules on defaults), wired from src/objectmeta, src/validation and src/rules,
 * and the CRD-time CEL compiler ({@link crdValidationOptions}).
 */
import type { DefaultsHooks } from "../crdvalidation/defaults-validation.js";
import type { CrdValidationOptions } from "../crdvalidation/validate-crd.js";
import { crdCelCompiler, validateDefaultRules } from "../rules/index.js";
import { coerce } from "../objectmeta/coerce.js";
import { validateEmbedded } from "../objectmeta/validate-embedded.js";
import type { Structural } from "../structural/structural.js";
import { type SchemaValidator, compileSchemaValidator, validateCustomResource } from "../validation/schema-validator.js";

const validators = new WeakMap<Structural, SchemaValidator>();

function validatorFor(s: Structural): SchemaValidator {
  let v = validators.get(s);
  if (!v) {
    // `NewSchemaValidatorFromOpenAPI(s.ToKubeOpenAPI())`
    v = compileSchemaValidator(s.raw, { toKubeOpenAPI: true });
    validators.set(s, v);
  }
  return v;
}

export const defaultsHooks: DefaultsHooks = {
  coerceMeta: (path, obj, s, isResourceRoot) => coerce(path, obj, s, isResourceRoot, {}).error ?? undefined,
  validateMeta: (path, obj, s, isResourceRoot) => validateEmbedded(path, obj, s, isResourceRoot),
  validateValue: (path, value, s) => validateCustomResource(path, value, validatorFor(s)),
  validateCel: validateDefaultRules,
};

/** The options that make CRD validation complete: default-value checks and CEL rule compilation with costs. */
export const crdValidationOptions: CrdValidationOptions = { defaultsHooks, celCompiler: crdCelCompiler };
