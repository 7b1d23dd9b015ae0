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
import { compareGoStrings } from "../go/fmt.js";
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

/** Validates every default of `s` (root treated as an embedded resource when `isResourceRoot`). */
export function validateDefaults(path: FieldPath, s: Structural, isResourceRoot: boolean, requirePrunedDefaults: boolean, hooks: DefaultsHooks, errorText: (e: FieldError) => string): FieldError[] {
  const root = isResourceRoot && !s.xEmbeddedResource ? { ...s, xEmbeddedResource: true } : s;
  const out: FieldError[] = [];
  walk(path, root, root, [], false, requirePrunedDefaults, hooks, errorText, out, DEFAULTS_CEL_COST_BUDGET);
  return out;
}

function walk(
  p: FieldPath, s: Structural, rootIn: Structural, stepsIn: Step[], insideMetaIn: boolean, requirePruned: boolean, hooks: DefaultsHooks,
  text: (e: FieldError) => string, out: FieldError[], budget: number,
): number {
  // the CEL budget is shared by every default in walk order; once exhausted, nothing more is validated
  let remaining = budget;
  const cel = (dp: FieldPath, d: JsonValue, isResourceRoot: boolean): void => {
    if (!hooks.validateCel) return;
    const r = hooks.validateCel(dp, s, d, isResourceRoot, remaining);
    out.push(...r.errors);
    remaining = r.remaining;
  };
  let root = rootIn;
  let steps = stepsIn;
  let insideMeta = insideMetaIn;
  if (s.xEmbeddedResource) {
    insideMeta = false;
    steps = [];
    root = s;
  }
  const isResourceRoot = s === root;
  if (s.hasDefault && s.default !== undefined && s.default !== null) {
    const d = s.default;
    const dp = p.child("default");
    if (insideMeta) {
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
          else cel(dp, d, isResourceRoot);
        }
      }
    } else {
      if (requirePruned) {
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
          else cel(dp, d, isResourceRoot);
        }
      }
    }
    if (remaining < 0) return remaining;
  }
  if (s.items) {
    remaining = walk(p.child("items"), s.items, root, [...steps, { index: true }], insideMeta, requirePruned, hooks, text, out, remaining);
    if (remaining < 0) return remaining;
  }
  if (s.properties) {
    // Go iterates the properties map in random order; crdkit uses sorted keys (matters only when the
    // budget runs out)
    for (const k of [...s.properties.keys()].sort(compareGoStrings)) {
      const sub = s.properties.get(k)!;
      const subInside = insideMeta || (s.xEmbeddedResource && (k === "metadata" || k === "apiVersion" || k === "kind"));
      remaining = walk(p.child("properties").key(k), sub, root, [...steps, { key: k }], subInside, requirePruned, hooks, text, out, remaining);
      if (remaining < 0) return remaining;
    }
  }
  return remaining;
}
