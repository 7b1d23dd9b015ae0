/** Shared helpers of the src/rules tests: CRDs around a schema, CRD checks with CEL, rule evaluation. */
import type { JSONSchemaProps } from "../crd/types.js";
import { errorString } from "../errors/field-error.js";
import { newStructural, StructuralError } from "../structural/new-structural.js";
import type { Structural } from "../structural/structural.js";
import type { JsonObject, JsonValue } from "../value/json-value.js";
import { checkCrd } from "./golden-harness.test-util.js";
import { type ValidateRulesOptions, validateRules } from "./validate.js";

/** A one-version CRD (`crontabs.stable.example.com`) with `schema`. */
export function crdFor(schema: unknown): JsonObject {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "crontabs.stable.example.com" },
    spec: {
      group: "stable.example.com",
      scope: "Namespaced",
      names: { plural: "crontabs", singular: "crontab", kind: "CronTab", listKind: "CronTabList" },
      versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: schema as JsonValue } }],
    },
  };
}

/** Error texts of the CRD checks (with CEL) for a CRD around `schema`. */
export function crdErrors(schema: unknown): string[] {
  return checkCrd(crdFor(schema)).errors.map(errorString);
}

/** The structural schema of `schema` (throws on a non-structural schema). */
export function structural(schema: unknown): Structural {
  const s = newStructural(schema as JSONSchemaProps);
  if (s instanceof StructuralError) throw new Error(s.message);
  return s;
}

function wrap(obj: JsonObject): JsonObject {
  return { apiVersion: "stable.example.com/v1", kind: "CronTab", metadata: { name: "my-new-cron-object" }, ...obj };
}

/** Evaluates the rules of `schema` on a CronTab with `obj`'s fields (and `old`'s on update). */
export function ruleErrors(schema: unknown, obj: JsonObject, old?: JsonObject, opts: ValidateRulesOptions = {}): { errors: string[]; warnings: string[] } {
  const r = validateRules(structural(schema), wrap(obj), old === undefined ? undefined : wrap(old), opts);
  return { errors: r.errors.map(errorString), warnings: r.warnings };
}
