/**
 * Turns a built-in kind's OpenAPI definition into one self-contained schema, the way kubectl-validate
 * does before building a structural schema (`infoForGVK` in `pkg/validator/validator.go`): every `$ref`
 * — or lone `allOf: [{$ref}]`, which kube-openapi writes when a reference carries a default or a
 * description — is replaced by a copy of the referenced definition, with the referring node's `default`,
 * `type`, `nullable` (or-ed) and `x-kubernetes-*` extensions on top. Resolved definitions are shared
 * between the places that refer to them (the result is a DAG; nothing downstream mutates schemas).
 */
import type { JSONSchemaProps } from "../crd/types.js";

/** A definition that refers to itself (directly or not): such kinds cannot get a structural schema. */
export class RecursiveDefinitionError {
  constructor(readonly definition: string) {}
  get message(): string {
    return `schema of ${this.definition} is recursive`;
  }
}

/** A `$ref` to a definition the bundle does not have. */
export class UnresolvedReferenceError {
  constructor(
    readonly reference: string,
    readonly from: string,
  ) {}
  get message(): string {
    return `cannot resolve reference ${this.reference} in ${this.from}`;
  }
}

function referenceOf(s: JSONSchemaProps): string {
  if (typeof s.$ref === "string" && s.$ref !== "") return s.$ref;
  const a = s.allOf;
  if (a && a.length === 1 && typeof a[0]!.$ref === "string" && a[0]!.$ref !== "") return a[0]!.$ref;
  return "";
}

/** Resolves definitions by name, memoising each. */
export class DefinitionResolver {
  private readonly done = new Map<string, JSONSchemaProps>();
  private readonly active = new Set<string>();

  /** `lookup(name)` gives the (patched) definition body or undefined. */
  constructor(private readonly lookup: (name: string) => JSONSchemaProps | undefined) {}

  /** The definition with every reference resolved; throws the errors above (caught by the caller). */
  resolve(name: string, from = name): JSONSchemaProps {
    const hit = this.done.get(name);
    if (hit) return hit;
    if (this.active.has(name)) throw new RecursiveDefinitionError(name);
    const def = this.lookup(name);
    if (!def) throw new UnresolvedReferenceError(name, from);
    this.active.add(name);
    try {
      const out = this.node(def, name);
      this.done.set(name, out);
      return out;
    } finally {
      this.active.delete(name);
    }
  }

  private node(s: JSONSchemaProps, owner: string): JSONSchemaProps {
    const ref = referenceOf(s);
    if (ref !== "") {
      const out: JSONSchemaProps = { ...this.resolve(ref, owner) };
      if (s.default !== undefined) out.default = s.default;
      if (s.nullable === true) out.nullable = true;
      if (typeof s.type === "string" && s.type !== "") out.type = s.type;
      for (const k of Object.keys(s)) {
        if (k.startsWith("x-")) (out as Record<string, unknown>)[k] = (s as Record<string, unknown>)[k];
      }
      return out;
    }
    const out: JSONSchemaProps = { ...s };
    const map = (m: Record<string, JSONSchemaProps>) => {
      const r: Record<string, JSONSchemaProps> = {};
      for (const k of Object.keys(m)) r[k] = this.node(m[k]!, owner);
      return r;
    };
    if (s.properties) out.properties = map(s.properties);
    if (s.patternProperties) out.patternProperties = map(s.patternProperties);
    if (s.allOf) out.allOf = s.allOf.map((x) => this.node(x, owner));
    if (s.anyOf) out.anyOf = s.anyOf.map((x) => this.node(x, owner));
    if (s.oneOf) out.oneOf = s.oneOf.map((x) => this.node(x, owner));
    if (s.not) out.not = this.node(s.not, owner);
    if (Array.isArray(s.items)) out.items = s.items.map((x) => this.node(x, owner));
    else if (s.items) out.items = this.node(s.items, owner);
    if (typeof s.additionalProperties === "object") out.additionalProperties = this.node(s.additionalProperties, owner);
    if (typeof s.additionalItems === "object") out.additionalItems = this.node(s.additionalItems, owner);
    return out;
  }
}
