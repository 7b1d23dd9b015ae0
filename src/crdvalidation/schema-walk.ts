/**
 * `SchemaHas` (validation.go): depth-first search of a predicate over every schema node (items, allOf,
 * anyOf, oneOf, not, properties, additionalProperties, patternProperties, additionalItems, definitions,
 * dependencies), iterative so that deep schemas cannot overflow the stack.
 */
import type { JSONSchemaProps } from "../crd/types.js";

/** Direct sub-schemas of a node, in Go's visiting order. */
export function subSchemas(s: JSONSchemaProps): JSONSchemaProps[] {
  const out: JSONSchemaProps[] = [];
  if (s.items !== undefined) {
    if (Array.isArray(s.items)) out.push(...s.items);
    else out.push(s.items);
  }
  if (s.allOf) out.push(...s.allOf);
  if (s.anyOf) out.push(...s.anyOf);
  if (s.oneOf) out.push(...s.oneOf);
  if (s.not) out.push(s.not);
  if (s.properties) out.push(...Object.values(s.properties));
  if (typeof s.additionalProperties === "object") out.push(s.additionalProperties);
  if (s.patternProperties) out.push(...Object.values(s.patternProperties));
  if (typeof s.additionalItems === "object") out.push(s.additionalItems);
  if (s.definitions) out.push(...Object.values(s.definitions));
  if (s.dependencies) for (const d of Object.values(s.dependencies)) if (!Array.isArray(d)) out.push(d);
  return out;
}

/** True when `pred` holds for some node of `s`. */
export function schemaHas(s: JSONSchemaProps | undefined, pred: (s: JSONSchemaProps) => boolean): boolean {
  if (!s) return false;
  const stack: JSONSchemaProps[] = [s];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (pred(n)) return true;
    const subs = subSchemas(n);
    for (let i = subs.length - 1; i >= 0; i--) stack.push(subs[i]!);
  }
  return false;
}

/** Visits every node (pre-order, Go's order). */
export function forEachSchema(s: JSONSchemaProps | undefined, fn: (s: JSONSchemaProps) => void): void {
  schemaHas(s, (n) => {
    fn(n);
    return false;
  });
}
