/**
 * `Structural.Unfold()` (`pkg/apiserver/schema/unfold.go`): every `x-kubernetes-int-or-string` node that does
 * not already carry one of the two canonical patterns gets `anyOf: [{type: integer}, {type: string}]`, or
 * `allOf: [{anyOf: [...]}, ...]` prepended when anyOf is already used. Returns a new tree (input untouched).
 */
import { isIntOrStringAllOfPattern, isIntOrStringAnyOfPattern } from "./validate-structural.js";
import type { NestedValueValidation, Structural } from "./structural.js";

function typeOnly(type: string): NestedValueValidation {
  return { valueValidation: {}, forbiddenGenerics: { type }, forbiddenExtensions: {}, raw: { type } };
}

/** The canonical int-or-string anyOf. */
export function intOrStringAnyOf(): NestedValueValidation[] {
  return [typeOnly("integer"), typeOnly("string")];
}

/** Unfolds int-or-string vendor extensions (copy-on-write). */
export function unfold(s: Structural): Structural {
  const out: Structural = { ...s };
  if (s.items) out.items = unfold(s.items);
  if (s.properties) {
    out.properties = new Map();
    for (const [k, v] of s.properties) out.properties.set(k, unfold(v));
  }
  if (s.additionalProperties?.schema) out.additionalProperties = { schema: unfold(s.additionalProperties.schema), allows: true };
  if (s.xIntOrString && !isIntOrStringAnyOfPattern(s) && !isIntOrStringAllOfPattern(s)) {
    const vv = { ...(s.valueValidation ?? {}) };
    if (vv.anyOf === undefined) vv.anyOf = intOrStringAnyOf();
    else {
      const wrapper: NestedValueValidation = { valueValidation: { anyOf: intOrStringAnyOf() }, forbiddenGenerics: {}, forbiddenExtensions: {}, raw: {} };
      vv.allOf = [wrapper, ...(vv.allOf ?? [])];
    }
    out.valueValidation = vv;
  }
  return out;
}
