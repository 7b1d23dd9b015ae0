/**
 * `ValidateCustomResourceDefinitionOpenAPISchema` (§1.4): the recursive per-node checks of a CRD schema
 * (forbidden keywords, uniqueItems, additionalProperties vs properties, list/map types, map keys,
 * x-kubernetes-validations static checks) and the CEL compilation hook. Schema errors and CEL errors are
 * kept apart and concatenated at the end (schema errors first), as Kubernetes does.
 *
 * Go iterates `properties` / `definitions` / `dependencies` maps in random order; crdkit visits keys in
 * sorted (Go `sort.Strings`) order.
 */
import type { JSONSchemaProps } from "../crd/types.js";
import { type FieldError, fieldError } from "../errors/field-error.js";
import type { FieldPath } from "../errors/field-path.js";
import { newStructural, sortedKeys, StructuralError, type StructuralMemo } from "../structural/new-structural.js";
import type { Structural } from "../structural/structural.js";
import {
  type CelCompiler, costErrorMessage, MAX_UINT, multiplyGuard, PER_CALL_LIMIT, STATIC_ESTIMATED_COST_LIMIT, type TotalCost,
} from "./cel-hook.js";
import { validFieldPath } from "./field-path.js";
import { goJsonValue, goItems, goValidationRule } from "./go-marshal.js";
import { RawJson } from "../errors/field-error.js";

const OPENAPI_V3_TYPES = ["array", "boolean", "integer", "number", "object", "string"];
const SUPPORTED_REASONS = ["FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"];
const META_FIELDS = new Set(["metadata", "kind", "apiVersion"]);

/** Options of one CRD validation run (`validationOptions`). */
export interface SchemaOptions {
  allowDefaults: boolean;
  requireValidPropertyType: boolean;
  requireAtomicSetType: boolean;
  requireMapListKeysMapSetValidation: boolean;
  suppressPerExpressionCost: boolean;
  preexistingRules: ReadonlySet<string>;
  preexistingMessageExpressions: ReadonlySet<string>;
  celCompiler?: CelCompiler | undefined;
}

/** `specStandardValidatorV3` state. */
interface Ssv {
  allowDefaults: boolean;
  disallowDefaultsReason: string;
  insideResourceMeta: boolean;
  requireValidPropertyType: boolean;
  uncorrelatablePath: FieldPath | null;
}

/** CEL schema context (`CELSchemaContext`): cardinality and total cost; null = no CEL compilation. */
export interface CelContext {
  schema: JSONSchemaProps | undefined;
  /** null = unbounded. */
  maxCardinality: number | null;
  total: TotalCost;
  isResourceRoot: boolean;
}

function maxElements(s: JSONSchemaProps): number | null {
  switch (s.type) {
    case "object":
      if (s.additionalProperties !== undefined) return s.maxProperties !== undefined ? Math.max(0, s.maxProperties) : null;
      return 1;
    case "array":
      return s.maxItems !== undefined ? Math.max(0, s.maxItems) : null;
    default:
      return 1;
  }
}

function childCel(c: CelContext | null, child: JSONSchemaProps | undefined): CelContext | null {
  if (!c) return null;
  let card: number | null = null;
  if (c.schema && c.maxCardinality !== null) {
    const me = maxElements(c.schema);
    if (me !== null) card = multiplyGuard(c.maxCardinality, me);
  }
  return { schema: child, maxCardinality: card, total: c.total, isResourceRoot: child?.["x-kubernetes-embedded-resource"] === true };
}

function withForbiddenDefaults(v: Ssv, reason: string): Ssv {
  return { ...v, allowDefaults: false, disallowDefaultsReason: reason };
}

function withForbidOldSelf(v: Ssv, p: FieldPath): Ssv {
  return v.uncorrelatablePath ? v : { ...v, uncorrelatablePath: p };
}

/** `specStandardValidatorV3.validate`. */
function ssvValidate(v: Ssv, s: JSONSchemaProps, p: FieldPath, out: FieldError[]): void {
  if (v.requireValidPropertyType && s.type && !OPENAPI_V3_TYPES.includes(s.type)) out.push(fieldError.notSupported(p.child("type"), s.type, OPENAPI_V3_TYPES));
  if (s.default !== undefined && !v.allowDefaults) {
    out.push(fieldError.forbidden(p.child("default"), v.disallowDefaultsReason ? `must not be set ${v.disallowDefaultsReason}` : "must not be set"));
  }
  if (s.id) out.push(fieldError.forbidden(p.child("id"), "id is not supported"));
  if (s.additionalItems !== undefined) out.push(fieldError.forbidden(p.child("additionalItems"), "additionalItems is not supported"));
  if (s.patternProperties && Object.keys(s.patternProperties).length > 0) out.push(fieldError.forbidden(p.child("patternProperties"), "patternProperties is not supported"));
  if (s.definitions && Object.keys(s.definitions).length > 0) out.push(fieldError.forbidden(p.child("definitions"), "definitions is not supported"));
  if (s.dependencies !== undefined) out.push(fieldError.forbidden(p.child("dependencies"), "dependencies is not supported"));
  if (s.$ref !== undefined) out.push(fieldError.forbidden(p.child("$ref"), "$ref is not supported"));
  if (s.type === "null") out.push(fieldError.forbidden(p.child("type"), "type cannot be set to null, use nullable as an alternative"));
  if (Array.isArray(s.items) && s.items.length > 0) out.push(fieldError.forbidden(p.child("items"), "items must be a schema object and not an array"));
  if (v.insideResourceMeta && s["x-kubernetes-embedded-resource"]) {
    out.push(fieldError.forbidden(p.child("x-kubernetes-embedded-resource"), "must not be used inside of resource meta"));
  }
}

/** `validateMapListKeysMapSet`. */
export function validateMapListKeysMapSet(s: JSONSchemaProps, p: FieldPath | null, out: FieldError[]): void {
  const items = s.items;
  if (items === undefined || Array.isArray(items)) return;
  const lt = s["x-kubernetes-list-type"];
  if (lt !== "set" && lt !== "map") return;
  const at = (name: string) => (p ? p.child(name) : null);
  const itemsPath = at("items");
  const child = (x: FieldPath | null, name: string): FieldPath | null => (x ? x.child(name) : null);
  if (items.nullable) out.push(fieldError.forbidden(child(itemsPath, "nullable"), `cannot be nullable when x-kubernetes-list-type is ${lt}`));
  if (lt === "map") {
    const required = new Set(items.required ?? []);
    for (const k of s["x-kubernetes-list-map-keys"] ?? []) {
      if (!items.properties || !Object.hasOwn(items.properties, k)) continue;
      const prop = items.properties[k]!;
      const kp = itemsPath ? itemsPath.child("properties").key(k) : null;
      if (!required.has(k) && prop.default === undefined) {
        out.push(fieldError.required(child(kp, "default"), "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"));
      }
      if (prop.nullable) out.push(fieldError.forbidden(child(kp, "nullable"), "this property is in x-kubernetes-list-map-keys, so it cannot be nullable"));
    }
  }
}

const NEWLINES = /[\n\r]+/;

/**
 * One run of the walk: schema errors and CEL errors (each in visiting order, concatenated at the end),
 * and the memo of structural conversions for nodes without a structural form from the enclosing tree.
 */
interface Walk {
  opts: SchemaOptions;
  schemaErrors: FieldError[];
  celErrors: FieldError[];
  memo: StructuralMemo | undefined;
}

/**
 * Entry point: validates `schema` at `p` (the `openAPIV3Schema` path) with a root CEL context or null.
 * `structural` is `newStructural(schema)` when the caller has it: the nodes reached through properties,
 * items and additionalProperties then take their structural form from it instead of converting again.
 */
export function validateOpenAPISchema(schema: JSONSchemaProps, p: FieldPath, opts: SchemaOptions, cel: CelContext | null, structural?: Structural): FieldError[] {
  const ssv: Ssv = {
    allowDefaults: opts.allowDefaults, disallowDefaultsReason: "", insideResourceMeta: false,
    requireValidPropertyType: opts.requireValidPropertyType, uncorrelatablePath: null,
  };
  const w: Walk = { opts, schemaErrors: [], celErrors: [], memo: undefined };
  walk(w, schema, p, ssv, true, cel, structural);
  return [...w.schemaErrors, ...w.celErrors];
}

function walk(w: Walk, s: JSONSchemaProps | undefined, p: FieldPath, ssv: Ssv, isRoot: boolean, cel: CelContext | null, ss: Structural | undefined): void {
  if (!s) return;
  const opts = w.opts;
  const se = w.schemaErrors;
  const before = se.length;
  ssvValidate(ssv, s, p, se);
  if (s.uniqueItems) se.push(fieldError.forbidden(p.child("uniqueItems"), "uniqueItems cannot be set to true since the runtime complexity becomes quadratic"));
  const props = s.properties;
  const hasProps = props !== undefined && hasOwnKeys(props);
  const ap = s.additionalProperties;
  if (ap !== undefined) {
    if (hasProps && (ap === false || typeof ap === "object")) {
      se.push(fieldError.forbidden(p.child("additionalProperties"), "additionalProperties and properties are mutual exclusive"));
    }
    const sub = ssv.insideResourceMeta ? withForbiddenDefaults(ssv, "inside additionalProperties applying to object metadata") : ssv;
    const apSchema = typeof ap === "object" ? ap : undefined;
    walk(w, apSchema, p.child("additionalProperties"), sub, false, childCel(cel, apSchema), ss?.additionalProperties?.schema);
  }
  if (hasProps) {
    // cel.MapIsCorrelatable: an unknown map type is assumed not correlatable (granular is the default).
    const mt = s["x-kubernetes-map-type"];
    const uncorrelatable = mt !== undefined && mt !== "granular" && mt !== "atomic";
    const pp = p.child("properties");
    for (const name of sortedKeys(props)) {
      let sub = ssv;
      if (uncorrelatable) sub = withForbidOldSelf(sub, p);
      if ((isRoot || s["x-kubernetes-embedded-resource"]) && META_FIELDS.has(name)) {
        sub = { ...sub, insideResourceMeta: true };
        if (isRoot) sub = withForbiddenDefaults(sub, `in top-level ${name}`);
      }
      walk(w, props[name]!, pp.key(name), sub, false, childCel(cel, props[name]), ss?.properties?.get(name));
    }
  }
  if (s.not) walk(w, s.not, p.child("not"), ssv, false, null, undefined);
  s.allOf?.forEach((x, i) => {
    walk(w, x, p.child("allOf").index(i), ssv, false, null, undefined);
  });
  s.oneOf?.forEach((x, i) => {
    walk(w, x, p.child("oneOf").index(i), ssv, false, null, undefined);
  });
  s.anyOf?.forEach((x, i) => {
    walk(w, x, p.child("anyOf").index(i), ssv, false, null, undefined);
  });
  if (s.definitions) for (const k of sortedKeys(s.definitions)) walk(w, s.definitions[k], p.child("definitions").key(k), ssv, false, null, undefined);
  if (s.items !== undefined) {
    const sub = s["x-kubernetes-list-type"] !== "map" ? withForbidOldSelf(ssv, p) : ssv;
    if (Array.isArray(s.items)) {
      walk(w, undefined, p.child("items"), sub, false, childCel(cel, undefined), undefined);
      s.items.forEach((x, i) => {
        walk(w, x, p.child("items").index(i), sub, false, childCel(cel, x), undefined);
      });
    } else {
      walk(w, s.items, p.child("items"), sub, false, childCel(cel, s.items), ss?.items);
    }
  }
  if (s.dependencies) {
    for (const k of sortedKeys(s.dependencies)) {
      const d = s.dependencies[k]!;
      if (!Array.isArray(d)) walk(w, d, p.child("dependencies").key(k), ssv, false, null, undefined);
    }
  }
  if (s["x-kubernetes-preserve-unknown-fields"] === false) {
    se.push(fieldError.invalid(p.child("x-kubernetes-preserve-unknown-fields"), false, "must be true or undefined"));
  }
  const mapType = s["x-kubernetes-map-type"];
  const type = s.type ?? "";
  if (mapType !== undefined && type !== "object") {
    if (type === "") se.push(fieldError.required(p.child("type"), "must be object if x-kubernetes-map-type is specified"));
    else se.push(fieldError.invalid(p.child("type"), type, "must be object if x-kubernetes-map-type is specified"));
  }
  if (mapType !== undefined && mapType !== "atomic" && mapType !== "granular") se.push(fieldError.notSupported(p.child("x-kubernetes-map-type"), mapType, ["atomic", "granular"]));
  const listType = s["x-kubernetes-list-type"];
  const itemSchema = s.items !== undefined && !Array.isArray(s.items) ? s.items : undefined;
  if (listType !== undefined && type !== "array") {
    if (type === "") se.push(fieldError.required(p.child("type"), "must be array if x-kubernetes-list-type is specified"));
    else se.push(fieldError.invalid(p.child("type"), type, "must be array if x-kubernetes-list-type is specified"));
  } else if (opts.requireAtomicSetType && listType === "set" && itemSchema) {
    if (itemSchema.type === "array") {
      const ilt = itemSchema["x-kubernetes-list-type"];
      if (ilt !== undefined && ilt !== "atomic") {
        se.push(fieldError.invalid(p.child("items").child("x-kubernetes-list-type"), goJsonValue(ilt), "must be atomic as item of a list with x-kubernetes-list-type=set"));
      }
    } else if (itemSchema.type === "object") {
      if (itemSchema["x-kubernetes-map-type"] !== "atomic") {
        // Kubernetes passes the items' list type (not map type) as the bad value.
        se.push(fieldError.invalid(p.child("items").child("x-kubernetes-map-type"), goJsonValue(itemSchema["x-kubernetes-list-type"]), "must be atomic as item of a list with x-kubernetes-list-type=set"));
      }
    }
  }
  if (listType !== undefined && listType !== "atomic" && listType !== "set" && listType !== "map") {
    se.push(fieldError.notSupported(p.child("x-kubernetes-list-type"), listType, ["atomic", "set", "map"]));
  }
  const keys = s["x-kubernetes-list-map-keys"];
  if (keys && keys.length > 0) {
    if (listType === undefined) se.push(fieldError.required(p.child("x-kubernetes-list-type"), "must be map if x-kubernetes-list-map-keys is non-empty"));
    else if (listType !== "map") se.push(fieldError.invalid(p.child("x-kubernetes-list-type"), listType, "must be map if x-kubernetes-list-map-keys is non-empty"));
  }
  if (listType === "map") {
    if (!keys || keys.length === 0) se.push(fieldError.required(p.child("x-kubernetes-list-map-keys"), "must not be empty if x-kubernetes-list-type is map"));
    if (s.items === undefined) se.push(fieldError.required(p.child("items"), "must have a schema if x-kubernetes-list-type is map"));
    if (Array.isArray(s.items)) se.push(fieldError.invalid(p.child("items"), new RawJson(goItems(s.items)), "must only have a single schema if x-kubernetes-list-type is map"));
    if (itemSchema && itemSchema.type !== "object") {
      se.push(fieldError.invalid(p.child("items").child("type"), itemSchema.type ?? "", "must be object if parent array's x-kubernetes-list-type is map"));
    }
    if (itemSchema && itemSchema.type === "object") {
      const seen = new Set<string>();
      for (const k of keys ?? []) {
        const prop = itemSchema.properties && Object.hasOwn(itemSchema.properties, k) ? itemSchema.properties[k] : undefined;
        if (prop) {
          if (prop.type === "array" || prop.type === "object") {
            // Kubernetes passes the items' type as the bad value.
            se.push(fieldError.invalid(p.child("items").child("properties").key(k).child("type"), itemSchema.type, "must be a scalar type if parent array's x-kubernetes-list-type is map"));
          }
        } else {
          se.push(fieldError.invalid(p.child("x-kubernetes-list-map-keys"), keys, "entries must all be names of item properties"));
        }
        if (seen.has(k)) se.push(fieldError.invalid(p.child("x-kubernetes-list-map-keys"), keys, "must not contain duplicate entries"));
        seen.add(k);
      }
    }
  }
  if (opts.requireMapListKeysMapSetValidation) validateMapListKeysMapSet(s, p, se);
  const rules = s["x-kubernetes-validations"];
  if (rules && rules.length > 0) {
    rules.forEach((rule, i) => {
      const rp = p.child("x-kubernetes-validations").index(i);
      const trimmedRule = rule.rule.trim();
      const msg = rule.message ?? "";
      const trimmedMsg = msg.trim();
      const me = rule.messageExpression ?? "";
      if (trimmedRule.length === 0) se.push(fieldError.required(rp.child("rule"), "rule is not specified"));
      else if (msg.length > 0 && trimmedMsg.length === 0) se.push(fieldError.invalid(rp.child("message"), msg, "must be non-empty if specified"));
      else if (NEWLINES.test(trimmedMsg)) se.push(fieldError.invalid(rp.child("message"), msg, "must not contain line breaks"));
      else if (NEWLINES.test(trimmedRule) && trimmedMsg.length === 0) se.push(fieldError.required(rp.child("message"), "message must be specified if rule contains line breaks"));
      if (me.length > 0 && me.trim().length === 0) se.push(fieldError.required(rp.child("messageExpression"), "messageExpression must be non-empty if specified"));
      if (rule.reason !== undefined && !SUPPORTED_REASONS.includes(rule.reason)) se.push(fieldError.notSupported(rp.child("reason"), rule.reason, SUPPORTED_REASONS));
      const fp = rule.fieldPath ?? "";
      if (fp.length > 0 && fp.trim().length === 0) se.push(fieldError.invalid(rp.child("fieldPath"), fp, "must be non-empty if specified"));
      if (NEWLINES.test(fp)) se.push(fieldError.invalid(rp.child("fieldPath"), fp, "must not contain line breaks"));
      if (fp.length > 0 && !pathValid(structuralOf(w, s, ss), fp)) se.push(fieldError.invalid(rp.child("fieldPath"), fp, "must be a valid path"));
    });
    // the node's and its subtree's schema errors
    if (se.length === before && cel && opts.celCompiler) compileRules(s, structuralOf(w, s, ss), p, ssv, opts, cel, w.celErrors);
  }
}

/** True when the object has an own enumerable key (`len(map) > 0`), without listing the keys. */
function hasOwnKeys(o: object): boolean {
  for (const k in o) if (Object.hasOwn(o, k)) return true;
  return false;
}

/** `NewStructural(s)`: from the enclosing tree when there is one, else converted (memoised for the run). */
function structuralOf(w: Walk, s: JSONSchemaProps, ss: Structural | undefined): Structural | StructuralError {
  if (ss !== undefined) return ss;
  w.memo ??= new WeakMap();
  return newStructural(s, w.memo);
}

function pathValid(ss: Structural | StructuralError, path: string): boolean {
  if (ss instanceof StructuralError) return true;
  return !("error" in validFieldPath(path, ss, true));
}

function compileRules(s: JSONSchemaProps, ss: Structural | StructuralError, p: FieldPath, ssv: Ssv, opts: SchemaOptions, cel: CelContext, out: FieldError[]): void {
  const rules = s["x-kubernetes-validations"]!;
  const xv = p.child("x-kubernetes-validations");
  if (ss instanceof StructuralError) {
    out.push(fieldError.internal(xv, `internal error: failed to construct type information for x-kubernetes-validations rules: ${ss.message}`));
    return;
  }
  let results: ReturnType<CelCompiler>;
  try {
    results = opts.celCompiler!({
      structural: ss, isResourceRoot: cel.isResourceRoot, rules, path: p, perCallLimit: PER_CALL_LIMIT,
      preexistingRules: opts.preexistingRules, preexistingMessageExpressions: opts.preexistingMessageExpressions,
    });
  } catch (e) {
    if (e instanceof RangeError) throw e;
    // A failing compiler must not take CRD validation down: report it as Kubernetes reports Compile errors.
    results = { internalError: `internal error: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (!Array.isArray(results)) {
    out.push(fieldError.internal(xv, results.internalError));
    return;
  }
  results.forEach((cr, i) => {
    const rp = xv.index(i);
    const card = cel.maxCardinality !== null ? cel.maxCardinality : cr.maxCardinality;
    const cost = multiplyGuard(cr.maxCost, card);
    if (!opts.suppressPerExpressionCost && cost > STATIC_ESTIMATED_COST_LIMIT) {
      out.push(fieldError.forbidden(rp.child("rule"), costErrorMessage("estimated rule cost", cost, STATIC_ESTIMATED_COST_LIMIT)));
    }
    cel.total.observe(rp.child("rule"), Math.min(cost, MAX_UINT));
    const rule = rules[i]!;
    if (cr.error) {
      if (cr.error.type === "Required") out.push(fieldError.required(rp.child("rule"), cr.error.detail));
      else out.push(fieldError.invalid(rp.child("rule"), new RawJson(goValidationRule(rule)), cr.error.detail));
    }
    if (cr.messageExpressionError) {
      out.push(fieldError.invalid(rp.child("messageExpression"), new RawJson(goValidationRule(rule)), cr.messageExpressionError.detail));
    } else if (cr.hasMessageExpression) {
      const mc = cr.messageExpressionMaxCost ?? 0;
      if (!opts.suppressPerExpressionCost && mc > STATIC_ESTIMATED_COST_LIMIT) {
        out.push(fieldError.forbidden(rp.child("messageExpression"), costErrorMessage("estimated messageExpression cost", mc, STATIC_ESTIMATED_COST_LIMIT)));
      }
      cel.total.observe(rp.child("messageExpression"), mc);
    }
    if (cr.usesOldSelf) {
      if (ssv.uncorrelatablePath) {
        out.push(fieldError.invalid(rp.child("rule"), rule.rule, `oldSelf cannot be used on the uncorrelatable portion of the schema within ${ssv.uncorrelatablePath.toString()}`));
      }
    } else if (rule.optionalOldSelf !== undefined) {
      out.push(fieldError.invalid(rp.child("optionalOldSelf"), rule.optionalOldSelf, "may not be set if oldSelf is not used in rule"));
    }
  });
}
