/**
 * The `NonStructuralSchema` condition (`pkg/controller/nonstructuralschema`): computed from the v1 form
 * (per-version schemas, paths `spec.versions[i].schema.openAPIV3Schema…`), plus
 * `spec.preserveUnknownFields: Invalid value: true: must be false` for legacy pruning-disabled CRDs.
 */
import type { CustomResourceDefinition } from "../crd/types.js";
import { aggregateMessage, type FieldError, fieldError } from "../errors/field-error.js";
import { FieldPath } from "../errors/field-path.js";
import { newStructural, StructuralError } from "../structural/new-structural.js";
import { validateStructural } from "../structural/validate-structural.js";

export interface NonStructuralCondition {
  type: "NonStructuralSchema";
  status: "True";
  reason: "Violations" | "StructuralError";
  message: string;
}

/** The condition the API server would set, or null when the CRD's schemas are structural. */
export function nonStructuralSchemaCondition(crd: CustomResourceDefinition): NonStructuralCondition | null {
  const errs: FieldError[] = [];
  if (crd.spec.preserveUnknownFields === true) {
    errs.push(fieldError.invalid(FieldPath.of("spec", "preserveUnknownFields"), true, "must be false"));
  }
  for (let i = 0; i < crd.spec.versions.length; i++) {
    const v = crd.spec.versions[i]!;
    const schema = v.schema?.openAPIV3Schema;
    if (!schema) continue;
    const s = newStructural(schema);
    if (s instanceof StructuralError) {
      return {
        type: "NonStructuralSchema",
        status: "True",
        reason: "StructuralError",
        message: `failed to check validation schema for version ${v.name}: ${s.message}`,
      };
    }
    errs.push(...validateStructural(FieldPath.of("spec", "versions").index(i).child("schema", "openAPIV3Schema"), s));
  }
  if (errs.length === 0) return null;
  return { type: "NonStructuralSchema", status: "True", reason: "Violations", message: aggregateMessage(errs) };
}
