/**
 * `SchemaHas` (validation.go): depth-first search of a predicate over every schema node (items, allOf,
 * anyOf, oneOf, not, properties, additionalProperties, patternProperties, additionalItems, definitions,
 * dependencies), iterative so that deep schemas cannot overflow the stack.
 */
import type { JSONSchemaProps } from "../crd/types.js";

/** Pushes the values of a schema map in reverse order. */
function pushValues(stack: JSONSchemaProps[], m: Record<string, JSONSchemaProps> | undefined): void {
  if (m === undefined) return;
  const vs = Object.values(m);
  for (let i = vs.length - 1; i >= 0; i--) stack.push(vs[i]!);
}

function pushList(stack: JSONSchemaProps[], l: JSONSchemaProps[] | undefined): void {
  if (l === undefined) return;
  for (let i = l.length - 1; i >= 0; i--) stack.push(l[i]!);
}

/** Pushes the direct sub-schemas of `s` so that they pop in Go's visiting order. */
function pushSubSchemas(stack: JSONSchemaProps[], s: JSONSchemaProps): void {
  if (s.dependencies) {
    const ds = Object.values(s.dependencies);
    for (let i = ds.length - 1; i >= 0; i--) {
      const d = ds[i]!;
      if (!Array.isArray(d)) stack.push(d);
    }
  }
  pushValues(stack, s.definitions);
  if (typeof s.additionalItems === "object") stack.push(s.additionalItems);
  pushValues(stack, s.patternProperties);
  if (typeof s.additionalProperties === "object") stack.push(s.additionalProperties);
  pushValues(stack, s.properties);
  if (s.not) stack.push(s.not);
  pushList(stack, s.oneOf);
  pushList(stack, s.anyOf);
  pushList(stack, s.allOf);
  if (s.items !== undefined) {
    if (Array.isArray(s.items)) pushList(stack, s.items);
    else stack.push(s.items);
  }
}

/** True when `pred` holds for some node of `s`. */
export function schemaHas(s: JSONSchemaProps | undefined, pred: (s: JSONSchemaProps) => boolean): boolean {
  if (!s) return false;
  const stack: JSONSchemaProps[] = [s];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (pred(n)) return true;
    pushSubSchemas(stack, n);
  }
  return false;
}

/** Visits every node (pre-order, Go's order). */
export function forEachSchema(s: JSONSchemaProps | undefined, fn: (s: JSONSchemaProps) => void): void {
  if (!s) return;
  const stack: JSONSchemaProps[] = [s];
  while (stack.length > 0) {
    const n = stack.pop()!;
    fn(n);
    pushSubSchemas(stack, n);
  }
}
