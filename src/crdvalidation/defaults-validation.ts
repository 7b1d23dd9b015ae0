/**
 * `defaulting.ValidateDefaults` (§3.2.3), isolated here: every `default` of the structural schema must be
 * pruned (no unknown fields), give valid metadata where it applies to an embedded resource, and pass the
 * OpenAPI value validation and the CEL rules of its node.
 *
 * Pruning uses src/prune. ObjectMeta coercion/validation, OpenAPI value validation and CEL evaluation are
 * provided through {@link DefaultsHooks} (wired by the caller from src/objectmeta, src/validation and
 * src/rules); a missing hook skips that step.
 */
import { type FieldError, fieldError } from "../errors/field-error.js";
import type { FieldPath } from "../errors/field-path.js";
import { prune } from "../prune/prune.js";
import type { Structural } from "../structural/structural.js";
import { sortedMapKeys } from "../structural/new-structural.js";
import { deepClone, deepEqual, type JsonObject, type JsonValue } from "../value/json-value.js";

/** The steps that validate one default value (each optional). */
export interface DefaultsHooks {
  /** `objectmeta.Coerce(path, obj, s, isResourceRoot, dropInvalidFields=false)`: the first error or undefined. */
  coerceMeta?: (path: FieldPath | null, obj: JsonValue, s: Structural, isResourceRoot: boolean) => FieldError | undefined;
  /** `objectmeta.Validate(ctx, path, obj, s, isResourceRoot)`. */
  validateMeta?: (path: FieldPath | null, obj: JsonValue, s: Structural, isResourceRoot: boolean) => FieldError[];
  /** `ValidateCustomResource(path, value, NewSchemaValidatorFromOpenAPI(s.ToKubeOpenAPI()))`. */
  validateValue?: (path: FieldPath, value: JsonValue, s: Structural) => FieldError[];
  /**
   * CEL rules of `s` and below on the default (old = value, then old = nil), from `budget` (what is left of
   * the one runtime budget all defaults of a CRD share): the errors and the remaining budget.
   */
  validateCel?: (path: FieldPath, s: Structural, value: JsonValue, isResourceRoot: boolean, budget: number) => { errors: FieldError[]; remaining: number };
}

/** `celconfig.RuntimeCELCostBudget`: the one CEL cost budget of all the defaults of a schema. */
export const DEFAULTS_CEL_COST_BUDGET = 10000000;

type Step = { key: string } | { index: true };

/** `SurroundingObjectFunc`: wraps a value into `{apiVersion: validation/v1, kind: Validation, ...path}`. */
function surround(steps: Step[], v: JsonValue): JsonObject | string {
  let cur: JsonValue = v;
  for (let i = steps.length - 1; i >= 0; i--) {
    const s = steps[i]!;
    if ("index" in s) cur = [cur];
    else {
      const o: JsonObject = {};
      Object.defineProperty(o, s.key, { value: cur, enumerable: true, writable: true, configurable: true });
      cur = o;
    }
  }
  if (typeof cur !== "object" || cur === null || Array.isArray(cur)) return "object root default value must be of object type";
  return { apiVersion: "validation/v1", kind: "Validation", ...cur };
}

function aggregate(errs: FieldError[], text: (e: FieldError) => string): string {
  const seen = new Set<string>();
  const t: string[] = [];
  for (const e of errs) {
    const s = text(e);
    if (!seen.has(s)) {
      seen.add(s);
      t.push(s);
    }
  }
  return t.length === 1 ? t[0]! : `[${t.join(", ")}]`;
}

/**
 * Where the walk is below the root: one link per level (`key` undefined for array items). The field path
 * and the steps of the surrounding object are built from it only for a node with a default.
 */
interface Trail {
  readonly up: Trail | null;
  readonly key: string | undefined;
}

/** The field path of the node at `t` below `root`. */
function pathOf(root: FieldPath, t: Trail | null): FieldPath {
  const links: Trail[] = [];
  for (let x = t; x !== null; x = x.up) links.push(x);
  let p = root;
  for (let i = links.length - 1; i >= 0; i--) {
    const k = links[i]!.key;
    p = k === undefined ? p.child("items") : p.child("properties").key(k);
  }
  return p;
}

/** The steps from the embedded-resource root at `from` (null: the schema root) down to `t`. */
function stepsOf(from: Trail | null, t: Trail | null): Step[] {
  const steps: Step[] = [];
  for (let x = t; x !== from && x !== null; x = x.up) steps.push(x.key === undefined ? { index: true } : { key: x.key });
  return steps.reverse();
}

/** One run of the walk. */
interface Walk {
  path: FieldPath;
  requirePruned: boolean;
  hooks: DefaultsHooks;
  text: (e: FieldError) => string;
  out: FieldError[];
  /** What is left of the CEL budget, shared by every default in walk order. */
  remaining: number;
}

/** Validates every default of `s` (root treated as an embedded resource when `isResourceRoot`). */
export function validateDefaults(path: FieldPath, s: Structural, isResourceRoot: boolean, requirePrunedDefaults: boolean, hooks: DefaultsHooks, errorText: (e: FieldError) => string): FieldError[] {
  const root = isResourceRoot && !s.xEmbeddedResource ? { ...s, xEmbeddedResource: true } : s;
  const w: Walk = { path, requirePruned: requirePrunedDefaults, hooks, text: errorText, out: [], remaining: DEFAULTS_CEL_COST_BUDGET };
  walk(w, root, null, root, null, false);
  return w.out;
}

/**
 * Visits `s` at `trail`; `root` is the enclosing embedded resource (or the schema root), reached at
 * `rootTrail`. Once the CEL budget is exhausted nothing more is validated (returns false).
 */
function walk(w: Walk, s: Structural, trail: Trail | null, rootIn: Structural, rootTrailIn: Trail | null, insideMetaIn: boolean): boolean {
  let root = rootIn;
  let rootTrail = rootTrailIn;
  let insideMeta = insideMetaIn;
  if (s.xEmbeddedResource) {
    insideMeta = false;
    rootTrail = trail;
    root = s;
  }
  if (s.hasDefault && s.default !== undefined && s.default !== null) {
    validateDefault(w, s, s.default, pathOf(w.path, trail).child("default"), root, s === root, insideMeta ? stepsOf(rootTrail, trail) : undefined);
    if (w.remaining < 0) return false;
  }
  if (s.items) {
    if (!walk(w, s.items, { up: trail, key: undefined }, root, rootTrail, insideMeta)) return false;
  }
  if (s.properties) {
    // Go iterates the properties map in random order; crdkit uses sorted keys (matters only when the
    // budget runs out)
    for (const k of sortedMapKeys(s.properties)) {
      const sub = s.properties.get(k)!;
      const subInside = insideMeta || (s.xEmbeddedResource && (k === "metadata" || k === "apiVersion" || k === "kind"));
      if (!walk(w, sub, { up: trail, key: k }, root, rootTrail, subInside)) return false;
    }
  }
  return true;
}

/** The checks of one default `d` of `s` at `dp`; `steps` (inside metadata) lead from `root` to `s`. */
function validateDefault(w: Walk, s: Structural, d: JsonValue, dp: FieldPath, root: Structural, isResourceRoot: boolean, steps: Step[] | undefined): void {
  const { hooks, out, text } = w;
  const cel = (): void => {
    if (!hooks.validateCel) return;
    const r = hooks.validateCel(dp, s, d, isResourceRoot, w.remaining);
    out.push(...r.errors);
    w.remaining = r.remaining;
  };
  if (steps) {
    const obj = surround(steps, deepClone(d));
    if (typeof obj === "string") {
      out.push(fieldError.invalid(dp, d, `failed to validate default value inside metadata: ${obj}`));
    } else {
      const cerr = hooks.coerceMeta?.(null, obj, root, true);
      const verrs = cerr ? [] : (hooks.validateMeta?.(null, obj, root, true) ?? []);
      if (cerr) out.push(fieldError.invalid(dp, d, `must result in valid metadata: ${text(cerr)}`));
      else if (verrs.length > 0) out.push(fieldError.invalid(dp, d, `must result in valid metadata: ${aggregate(verrs, text)}`));
      else {
        const vv = hooks.validateValue?.(dp, d, s) ?? [];
        if (vv.length > 0) out.push(...vv);
        else cel();
      }
    }
  } else {
    if (w.requirePruned) {
      const pruned = deepClone(d);
      prune(pruned, s, s.xEmbeddedResource, { trackUnknownFieldPaths: false });
      if (!deepEqual(pruned, d)) out.push(fieldError.invalid(dp, d, "must not have unknown fields"));
    }
    const cerr = hooks.coerceMeta?.(dp, d, s, s.xEmbeddedResource);
    if (cerr) out.push(cerr);
    else {
      const merrs = hooks.validateMeta?.(dp, d, s, s.xEmbeddedResource) ?? [];
      if (merrs.length > 0) out.push(...merrs);
      else {
        const vv = hooks.validateValue?.(dp, d, s) ?? [];
        if (vv.length > 0) out.push(...vv);
        else cel();
      }
    }
  }
}
