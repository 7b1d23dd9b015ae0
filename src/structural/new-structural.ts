/**
 * `NewStructural` (`pkg/apiserver/schema/convert.go`): splits a JSONSchemaProps tree into the structural
 * "shape" and the nested value validations (allOf/anyOf/oneOf/not). Fails with the exact Kubernetes error
 * text for fields a structural schema cannot hold (id, $schema, $ref, patternProperties, dependencies,
 * additionalItems, definitions, items arrays, `x-kubernetes-preserve-unknown-fields: false`).
 *
 * Properties are visited in sorted key order (Go iterates its map randomly; the first error found wins).
 */
import type { JSONSchemaProps } from "../crd/types.js";
import { compareGoStrings } from "../go/fmt.js";
import type { NestedValueValidation, Structural, ValueValidation } from "./structural.js";
import { recordSubtreeFacts } from "./subtree-facts.js";

/** The error `NewStructural` returns (a plain Go `error`, not a field error). */
export class StructuralError {
  constructor(readonly message: string) {}
  toString(): string {
    return this.message;
  }
}

/** Sorted own keys (Go `sort.Strings` order). */
export function sortedKeys(o: object): string[] {
  return sortGoStrings(Object.keys(o));
}

/** Sorted keys of a map (Go `sort.Strings` order). */
export function sortedMapKeys(m: ReadonlyMap<string, unknown>): string[] {
  return sortGoStrings([...m.keys()]);
}

const SURROGATE = /[\ud800-\udfff]/;

/** Sorts `keys` in place in Go's byte order and returns it. */
function sortGoStrings(keys: string[]): string[] {
  if (keys.length < 2) return keys;
  // UTF-16 order equals Go's byte order unless a key holds a surrogate pair.
  for (const k of keys) if (SURROGATE.test(k)) return keys.sort(compareGoStrings);
  return keys.sort();
}

function unsupported(s: JSONSchemaProps): StructuralError | undefined {
  if (s.id) return new StructuralError("OpenAPIV3Schema 'id' is not supported");
  if (s.$schema) return new StructuralError("OpenAPIV3Schema 'schema' is not supported");
  if (s.$ref) return new StructuralError("OpenAPIV3Schema '$ref' is not supported");
  if (s.patternProperties && Object.keys(s.patternProperties).length > 0) return new StructuralError("OpenAPIV3Schema 'patternProperties' is not supported");
  if (s.dependencies && Object.keys(s.dependencies).length > 0) return new StructuralError("OpenAPIV3Schema 'dependencies' is not supported");
  if (s.additionalItems !== undefined) return new StructuralError("OpenAPIV3Schema 'additionalItems' is not supported");
  if (s.definitions && Object.keys(s.definitions).length > 0) return new StructuralError("OpenAPIV3Schema 'definitions' is not supported");
  return undefined;
}

const PRESERVE_FALSE = "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined";
const ITEMS_ARRAY = "OpenAPIV3Schema 'items' must be a schema, but is an array";

const COMBINATORS = ["allOf", "anyOf", "oneOf"] as const;

function newValueValidation(s: JSONSchemaProps): ValueValidation | StructuralError {
  const v: ValueValidation = {};
  if (s.not !== undefined) {
    const n = newNested(s.not);
    if (n instanceof StructuralError) return n;
    v.not = n;
  }
  if (s.format !== undefined) v.format = s.format;
  if (s.maximum !== undefined) v.maximum = s.maximum;
  if (s.exclusiveMaximum) v.exclusiveMaximum = true;
  if (s.minimum !== undefined) v.minimum = s.minimum;
  if (s.exclusiveMinimum) v.exclusiveMinimum = true;
  if (s.maxLength !== undefined) v.maxLength = s.maxLength;
  if (s.minLength !== undefined) v.minLength = s.minLength;
  if (s.pattern !== undefined) v.pattern = s.pattern;
  if (s.maxItems !== undefined) v.maxItems = s.maxItems;
  if (s.minItems !== undefined) v.minItems = s.minItems;
  if (s.uniqueItems) v.uniqueItems = true;
  if (s.multipleOf !== undefined) v.multipleOf = s.multipleOf;
  if (s.maxProperties !== undefined) v.maxProperties = s.maxProperties;
  if (s.minProperties !== undefined) v.minProperties = s.minProperties;
  if (s.required !== undefined) v.required = s.required;
  if (s.enum && s.enum.length > 0) v.enum = s.enum;
  for (const k of COMBINATORS) {
    const list = s[k];
    if (!list || list.length === 0) continue;
    const out: NestedValueValidation[] = [];
    for (const x of list) {
      const n = newNested(x);
      if (n instanceof StructuralError) return n;
      out.push(n);
    }
    v[k] = out;
  }
  return v;
}

function newNested(s: JSONSchemaProps): NestedValueValidation | StructuralError {
  const u = unsupported(s);
  if (u) return u;
  const vv = newValueValidation(s);
  if (vv instanceof StructuralError) return vv;
  if (s["x-kubernetes-preserve-unknown-fields"] === false) return new StructuralError(PRESERVE_FALSE);
  const n: NestedValueValidation = { valueValidation: vv, forbiddenGenerics: {}, forbiddenExtensions: {}, raw: s };
  if (s["x-kubernetes-validations"] !== undefined) n.xValidations = s["x-kubernetes-validations"];
  const g = n.forbiddenGenerics;
  if (s.type) g.type = s.type;
  if (s.description) g.description = s.description;
  if (s.title) g.title = s.title;
  if (s.nullable) g.nullable = true;
  if (s.default !== undefined) g.hasDefault = true;
  const x = n.forbiddenExtensions;
  if (s["x-kubernetes-preserve-unknown-fields"]) x.xPreserveUnknownFields = true;
  if (s["x-kubernetes-embedded-resource"]) x.xEmbeddedResource = true;
  if (s["x-kubernetes-int-or-string"]) x.xIntOrString = true;
  if (s["x-kubernetes-list-map-keys"] !== undefined) x.xListMapKeys = s["x-kubernetes-list-map-keys"];
  if (s["x-kubernetes-list-type"] !== undefined) x.xListType = s["x-kubernetes-list-type"];
  if (s["x-kubernetes-map-type"] !== undefined) x.xMapType = s["x-kubernetes-map-type"];
  if (s.items !== undefined) {
    if (Array.isArray(s.items)) return new StructuralError(ITEMS_ARRAY);
    const it = newNested(s.items);
    if (it instanceof StructuralError) return it;
    n.items = it;
  }
  if (s.properties !== undefined) {
    n.properties = new Map();
    for (const k of sortedKeys(s.properties)) {
      const p = newNested(s.properties[k]!);
      if (p instanceof StructuralError) return p;
      n.properties.set(k, p);
    }
  }
  if (s.additionalProperties !== undefined) {
    if (typeof s.additionalProperties === "object") {
      const ap = newNested(s.additionalProperties);
      if (ap instanceof StructuralError) return ap;
      n.additionalProperties = ap;
    } else if (s.additionalProperties) {
      n.additionalProperties = { valueValidation: {}, forbiddenGenerics: {}, forbiddenExtensions: {}, raw: {} };
    }
  }
  return n;
}

/** Results of {@link newStructural} by schema node, for callers that convert the subtrees of one schema again. */
export type StructuralMemo = WeakMap<JSONSchemaProps, Structural | StructuralError>;

/**
 * `NewStructural(s)`: the structural schema, or the {@link StructuralError} Kubernetes reports.
 * Recursion depth is bounded by the decoder's nesting limit. With `memo`, nodes converted before (by this
 * call or an earlier one on an enclosing schema) are reused: the CRD checks convert the subtree of every
 * node that carries rules, quadratic in the depth without it. Only for schemas not changed in between.
 */
export function newStructural(s: JSONSchemaProps, memo?: StructuralMemo): Structural | StructuralError {
  if (memo === undefined) return convert(s, undefined);
  const hit = memo.get(s);
  if (hit !== undefined) return hit;
  const r = convert(s, memo);
  memo.set(s, r);
  return r;
}

const byRoot = new WeakMap<JSONSchemaProps, Structural | StructuralError>();

/**
 * {@link newStructural} of a whole schema, converted once for every caller: the CRD checks and the
 * compilation of the same decoded CRD share the result (the checks reach a node's structural form through
 * the tree's `properties` / `items` / `additionalProperties`). Only for schema objects never changed after
 * decoding (as `decodeCrd` returns them); the result must not be changed either.
 */
export function cachedStructural(s: JSONSchemaProps): Structural | StructuralError {
  let r = byRoot.get(s);
  if (r === undefined) {
    r = convert(s, undefined);
    byRoot.set(s, r);
  }
  return r;
}

/**
 * A schema node's structural form without its children (`items`, `properties`, `additionalProperties`),
 * or the error of the node itself: shared by the conversion here and the lazy one (./lazy-structural.ts).
 */
export function structuralNode(s: JSONSchemaProps): Structural | StructuralError {
  const u = unsupported(s);
  if (u) return u;
  const vv = newValueValidation(s);
  if (vv instanceof StructuralError) return vv;
  if (s["x-kubernetes-preserve-unknown-fields"] === false) return new StructuralError(PRESERVE_FALSE);
  const out: Structural = {
    type: s.type ?? "",
    hasDefault: s.default !== undefined,
    nullable: s.nullable === true,
    xPreserveUnknownFields: s["x-kubernetes-preserve-unknown-fields"] === true,
    xEmbeddedResource: s["x-kubernetes-embedded-resource"] === true,
    xIntOrString: s["x-kubernetes-int-or-string"] === true,
    valueValidation: vv,
    raw: s,
  };
  if (s.default !== undefined) out.default = s.default;
  if (s.description) out.description = s.description;
  if (s.title) out.title = s.title;
  if (s.externalDocs !== undefined) out.externalDocs = s.externalDocs;
  if (s.example !== undefined) out.example = s.example;
  if (s["x-kubernetes-list-map-keys"] !== undefined) out.xListMapKeys = s["x-kubernetes-list-map-keys"];
  if (s["x-kubernetes-list-type"] !== undefined) out.xListType = s["x-kubernetes-list-type"];
  if (s["x-kubernetes-map-type"] !== undefined) out.xMapType = s["x-kubernetes-map-type"];
  if (s["x-kubernetes-validations"] !== undefined) out.xValidations = s["x-kubernetes-validations"];
  if (s.items !== undefined && Array.isArray(s.items)) return new StructuralError(ITEMS_ARRAY);
  return out;
}

function convert(s: JSONSchemaProps, memo: StructuralMemo | undefined): Structural | StructuralError {
  const out = structuralNode(s);
  if (out instanceof StructuralError) return out;
  if (s.items !== undefined) {
    const it = newStructural(s.items as JSONSchemaProps, memo);
    if (it instanceof StructuralError) return it;
    out.items = it;
  }
  const props = s.properties;
  const keys = props !== undefined ? Object.keys(props) : [];
  if (keys.length > 0) {
    out.properties = new Map();
    for (const k of keys) out.properties.set(k, undefined as unknown as Structural);
    for (const k of sortGoStrings(keys)) {
      const p = newStructural(props![k]!, memo);
      if (p instanceof StructuralError) return p;
      out.properties.set(k, p);
    }
  }
  if (s.additionalProperties !== undefined) {
    if (typeof s.additionalProperties === "object") {
      const ap = newStructural(s.additionalProperties, memo);
      if (ap instanceof StructuralError) return ap;
      out.additionalProperties = { schema: ap, allows: true };
    } else {
      out.additionalProperties = { allows: s.additionalProperties };
    }
  }
  recordSubtreeFacts(out);
  return out;
}
