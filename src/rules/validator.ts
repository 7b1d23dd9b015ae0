/**
 * The validator tree (apiextensions `cel.NewValidator` / `validator`): one node per schema node carrying
 * rules (directly, in allOf, or below), with the node's compiled rules.
 */
import type { ValidationRule } from "../crd/types.js";
import type { NestedValueValidation, Structural } from "../structural/structural.js";
import { type CompiledRule, compileNodeRules } from "./compile.js";
import { type DeclType, schemaDeclType } from "./decl-type.js";
import { escapeProperty } from "./escaping.js";
import { compileNodeRulesForEntry, restoreNodeRules } from "./program-entry.js";
import { type RuleProgramStore, ruleProgramStoreOf } from "./rule-program-store.js";
import { ALLOF_RULES, XVALIDATIONS, hasXValidations, subtreeFacts } from "../structural/subtree-facts.js";

/** A validator node. */
export interface RuleValidator {
  /** The node schema (type information). */
  schema: Structural;
  rules: readonly ValidationRule[];
  /** The compiled rules (compiled on first read: a node no object reaches costs nothing). */
  readonly compiled: CompiledRule[];
  readonly compilationErr?: string | undefined;
  isResourceRoot: boolean;
  items?: RuleValidator;
  additionalProperties?: RuleValidator;
  properties?: Map<string, RuleValidator>;
  allOf: RuleValidator[];
}

/** The rule-carrying view of a Structural or NestedValueValidation node. */
interface VSchema {
  xValidations?: ValidationRule[] | undefined;
  items?: VSchema | undefined;
  properties?: Map<string, VSchema> | undefined;
  additionalProperties?: VSchema | undefined;
  allOf?: VSchema[] | undefined;
}

const NO_RULES: VSchema = {};

/**
 * True when `s` or a schema below it has x-kubernetes-validations (the allOf of value validations
 * included): the structural model's subtree facts, found in one walk per schema and shared with the
 * other walks that skip subtrees.
 */
function structuralHasRules(s: Structural): boolean {
  return (subtreeFacts(s) & (XVALIDATIONS | ALLOF_RULES)) !== 0;
}

/** The rule-carrying view of `s`; subtrees without any rule are left empty (they get no validator either way). */
function fromStructural(s: Structural): VSchema {
  if (!structuralHasRules(s)) return NO_RULES;
  return {
    xValidations: s.xValidations,
    items: s.items ? fromStructural(s.items) : undefined,
    properties: s.properties ? new Map([...s.properties].map(([k, v]) => [k, fromStructural(v)])) : undefined,
    additionalProperties: s.additionalProperties?.schema ? fromStructural(s.additionalProperties.schema) : undefined,
    allOf: s.valueValidation?.allOf?.map(fromNested),
  };
}

function fromNested(n: NestedValueValidation): VSchema {
  return {
    xValidations: n.xValidations,
    items: n.items ? fromNested(n.items) : undefined,
    properties: n.properties ? new Map([...n.properties].map(([k, v]) => [k, fromNested(v)])) : undefined,
    additionalProperties: n.additionalProperties ? fromNested(n.additionalProperties) : undefined,
    allOf: n.valueValidation.allOf?.map(fromNested),
  };
}

const withRules = new WeakMap<VSchema, boolean>();

/** True when `v` or a schema below it (allOf included) has x-kubernetes-validations. */
function vHasRules(v: VSchema | undefined, depth = 0): boolean {
  if (!v || depth > 10000) return false;
  const hit = withRules.get(v);
  if (hit !== undefined) return hit;
  let r = (v.xValidations?.length ?? 0) > 0 || vHasRules(v.items, depth + 1) || vHasRules(v.additionalProperties, depth + 1);
  if (!r) for (const p of v.properties?.values() ?? []) if (vHasRules(p, depth + 1)) r = true;
  if (!r) for (const a of v.allOf ?? []) if (vHasRules(a, depth + 1)) r = true;
  withRules.set(v, r);
  return r;
}

/** Where compiled programs are kept across processes, and the node's key there (./rule-program-store.ts). */
interface StoreAt {
  store: RuleProgramStore;
  key: string;
}

const at = (s: StoreAt | undefined, step: string): StoreAt | undefined => (s ? { store: s.store, key: s.key + step } : undefined);

function build(v: VSchema, node: Structural, isResourceRoot: boolean, declType: DeclType | undefined, depth: number, store: StoreAt | undefined): RuleValidator | undefined {
  // a subtree without rules has no validator (skipping it saves its CEL types)
  if (depth > 10000 || !vHasRules(v, depth)) return undefined;
  const rules = v.xValidations ?? [];
  const elemType = declType?.elem;
  let items: RuleValidator | undefined;
  if (v.items && node.items) items = build(v.items, node.items, node.items.xEmbeddedResource, elemType, depth + 1, at(store, "[]"));
  let properties: Map<string, RuleValidator> | undefined;
  if (v.properties && v.properties.size > 0) {
    properties = new Map();
    for (const [k, vp] of v.properties) {
      const np = node.properties?.get(k);
      if (!np || !vHasRules(vp, depth + 1)) continue;
      let fieldType: DeclType | undefined;
      const esc = escapeProperty(k);
      if (esc !== undefined) {
        if (!declType) continue;
        fieldType = declType.propertyType ? declType.propertyType(k) : declType.fields?.get(esc)?.type;
        if (!fieldType) continue;
      } else {
        fieldType = schemaDeclType(np, np.xEmbeddedResource);
        if (!fieldType) continue;
      }
      const p = build(vp, np, np.xEmbeddedResource, fieldType, depth + 1, at(store, `.${k.length}:${k}`));
      if (p) properties.set(k, p);
    }
  }
  let additionalProperties: RuleValidator | undefined;
  const nap = node.additionalProperties?.schema;
  if (v.additionalProperties && nap) additionalProperties = build(v.additionalProperties, nap, nap.xEmbeddedResource, elemType, depth + 1, at(store, "{}"));
  const allOf: RuleValidator[] = [];
  const allOfs = v.allOf ?? [];
  for (let i = 0; i < allOfs.length; i++) {
    const av = build(allOfs[i] as VSchema, node, isResourceRoot, declType, depth + 1, at(store, `&${i}`));
    if (av) allOf.push(av);
  }
  // a node with rules has compile results (one per rule, or a compile-level error)
  if (rules.length > 0 || items || additionalProperties || (properties && properties.size > 0) || allOf.length > 0) {
    const out: RuleValidator = new LazyNode(node, rules, declType, isResourceRoot, allOf, store);
    if (items) out.items = items;
    if (additionalProperties) out.additionalProperties = additionalProperties;
    if (properties && properties.size > 0) out.properties = properties;
    return out;
  }
  return undefined;
}

/**
 * A validator node whose rules are compiled when first needed: Kubernetes compiles every rule of a CRD
 * when it loads it, but compiling is pure and its results (errors included) are only ever reported when an
 * object reaches the node, so compiling on first use gives the same answers; rules of fields no validated
 * object has are never compiled.
 */
class LazyNode implements RuleValidator {
  items?: RuleValidator;
  additionalProperties?: RuleValidator;
  properties?: Map<string, RuleValidator>;
  private state: { compiled: CompiledRule[]; err?: string } | undefined;

  constructor(
    readonly schema: Structural,
    readonly rules: readonly ValidationRule[],
    private readonly declType: DeclType | undefined,
    readonly isResourceRoot: boolean,
    readonly allOf: RuleValidator[],
    private readonly store: StoreAt | undefined,
  ) {}

  get compiled(): CompiledRule[] {
    return this.compile().compiled;
  }

  get compilationErr(): string | undefined {
    return this.compile().err;
  }

  private compile(): { compiled: CompiledRule[]; err?: string } {
    if (!this.state) {
      const st = this.store;
      // compiled in an earlier process: read back (a missing, stale or malformed entry is compiled afresh)
      const restored = st && this.rules.length > 0 ? restoreNodeRules(this.schema, this.rules, this.declType, st.store.get(st.key)) : undefined;
      if (restored) return (this.state = { compiled: restored });
      let r: CompiledRule[] | { internalError: string };
      if (st) {
        const c = compileNodeRulesForEntry(this.schema, this.rules, this.declType);
        if (c.entry) st.store.put(st.key, c.entry);
        r = c.compiled;
      } else r = compileNodeRules(this.schema, this.rules, this.declType, { flavor: "stored", costs: "lazy" });
      this.state = Array.isArray(r) ? { compiled: r } : { compiled: [], err: r.internalError };
    }
    return this.state;
  }
}

const caches = [new WeakMap<Structural, { v: RuleValidator | undefined }>(), new WeakMap<Structural, { v: RuleValidator | undefined }>()];

/** `NewValidator(s, isResourceRoot)`: undefined when the schema carries no rules (cached per schema). */
export function newRuleValidator(s: Structural, isResourceRoot = true): RuleValidator | undefined {
  const cache = caches[isResourceRoot ? 1 : 0]!;
  const hit = cache.get(s);
  if (hit) return hit.v;
  const store = ruleProgramStoreOf(s);
  const v = hasXValidations(s)
    ? build(fromStructural(s), s, isResourceRoot, schemaDeclType(s, isResourceRoot), 0, store ? { store, key: isResourceRoot ? "r" : "n" } : undefined)
    : undefined;
  cache.set(s, { v });
  return v;
}
