/**
 * Object-time evaluation of x-kubernetes-validations (apiextensions `Validator.Validate`): Kubernetes'
 * traversal order, per-call limit and per-object budget, messages, reasons, fieldPaths, transition rules,
 * ratcheting, and the "blocking" rule of the custom-resource strategy.
 */
import { type Activation, CelError, CelOptional, CelSpecial, type CelValue, COST_LIMIT_MESSAGE } from "../cel/index.js";
import type { ValidationRule } from "../crd/types.js";
import { type BadValue, errorString, type FieldError, fieldError, OMIT } from "../errors/field-error.js";
import { goQuote } from "../go/fmt.js";
import { FieldPath } from "../errors/field-path.js";
import type { Structural } from "../structural/structural.js";
import { isObject, type JsonValue } from "../value/json-value.js";
import { Correlation, makeMapList } from "./correlation.js";
import { type CompiledRule, PER_CALL_LIMIT } from "./compile.js";
import { withTypeAndObjectMeta } from "./decl-type.js";
import { newRuleValidator, type RuleValidator } from "./validator.js";
import { toCelValue } from "./values.js";

/** `celconfig.RuntimeCELCostBudget`. */
export const RUNTIME_CEL_COST_BUDGET = 10000000;
/** `celconfig.MaxEvaluatedMessageExpressionSizeBytes`. */
export const MAX_MESSAGE_EXPRESSION_BYTES = 5 * 1024;

/** Options of {@link validateRules}. */
export interface ValidateRulesOptions {
  /** Path of the object (default nil, as for a whole custom resource). */
  path?: FieldPath | null;
  /** True (default) at a custom resource's root; `apiVersion`/`kind`/`metadata.name` are then declared. */
  isResourceRoot?: boolean;
  perCallLimit?: number;
  /** Runtime cost budget for all rules (default 10,000,000). */
  budget?: number;
  /** Enable ratcheting (default: true when an old object is given). */
  ratcheting?: boolean;
  /** Called after each rule evaluation (for tools that show per-rule results and costs). */
  onRule?: (trace: RuleTrace) => void;
}

/** One evaluation of one rule, as reported to {@link ValidateRulesOptions.onRule}. */
export interface RuleTrace {
  /** The node's field path (`<root>` for the object itself), e.g. `spec.replicas`. */
  path: string;
  rule: string;
  /** `true` passed, `false` failed, `error` did not evaluate to a bool (message in `error`). */
  outcome: true | false | "error";
  error?: string;
  /** Runtime cost of this evaluation (cel-go cost units). */
  cost: number;
  /** The rule's estimated maximum cost from compilation. */
  estimatedMaxCost: number;
}

/** Result of {@link validateRules}. */
export interface ValidateRulesResult {
  errors: FieldError[];
  /** Ratcheted errors (texts of `field.Error`), returned by Kubernetes as HTTP warnings. */
  warnings: string[];
  /** Remaining budget (negative when evaluation stopped). */
  remainingBudget: number;
  /** Number of rule evaluations performed. */
  evaluated: number;
}

const BLOCKING = new Set(["FieldValueNotSupported", "FieldValueRequired", "FieldValueTooLong", "FieldValueTooMany", "FieldValueTypeInvalid"]);

/** True when earlier errors keep Kubernetes from running CEL rules (strategy `Validate`). */
export function celBlockedBy(errors: readonly FieldError[]): boolean {
  return errors.some((e) => BLOCKING.has(e.type));
}

/** The single error Kubernetes adds instead of running the rules. */
export function celBlockedError(): FieldError {
  return fieldError.invalid(
    null,
    null,
    "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
  );
}

interface Ratchet {
  current: Correlation | null;
  parent: Correlation | null;
}

function shouldRatchet(r: Ratchet): boolean {
  if (r.current) return r.current.cachedDeepEqual();
  return r.parent ? r.parent.cachedDeepEqual() : false;
}

function ratchetKey(r: Ratchet, field: string): Ratchet {
  if (!r.current) return r;
  if (!r.parent && (field === "apiVersion" || field === "kind")) return { current: null, parent: null };
  return { current: r.current.key(field), parent: r.current };
}

function ratchetIndex(r: Ratchet, i: number): Ratchet {
  if (!r.current) return r;
  return { current: r.current.index(i), parent: r.current };
}

const NO_KEYS: readonly string[] = [];
const childPath = (p: FieldPath | null, name: string) => (p ? p.child(name) : FieldPath.of(name));
const keyPath = (p: FieldPath | null, k: string) => (p ?? FieldPath.of("")).key(k);
const indexPath = (p: FieldPath | null, i: number) => (p ?? FieldPath.of("")).index(i);

class Run {
  errors: FieldError[] = [];
  warnings: string[] = [];
  evaluated = 0;
  /** The per-evaluation options of every program (one object for the run). */
  private readonly evalOpts: { readonly costLimit: number };
  constructor(
    readonly perCallLimit: number,
    readonly onRule?: (trace: RuleTrace) => void,
  ) {
    this.evalOpts = { costLimit: perCallLimit };
  }

  validate(v: RuleValidator, path: FieldPath | null, obj: JsonValue | undefined, old: JsonValue | undefined, r: Ratchet, budget: number, depth: number): number {
    if (obj === undefined || obj === null) return budget;
    if (depth > 1000) return budget;
    let remaining = this.expressions(v, path, obj, old, r, budget);
    if (remaining < 0) return remaining;
    // indexed loops: a for-of allocates an iterator per node in V8's lower tiers
    const allOf = v.allOf;
    for (let i = 0; i < allOf.length; i++) {
      remaining = this.validate(allOf[i] as RuleValidator, path, obj, old, { current: null, parent: r.parent }, remaining, depth + 1);
      if (remaining < 0) return remaining;
    }
    if (Array.isArray(obj)) {
      if (!v.items) return remaining;
      const oldList = Array.isArray(old) ? old : undefined;
      const ml = oldList === undefined ? undefined : makeMapList(v.schema, oldList);
      for (let i = 0; i < obj.length; i++) {
        const oldItem = ml === undefined ? undefined : ml(obj[i]);
        remaining = this.validate(v.items, indexPath(path, i), obj[i], oldItem, ratchetIndex(r, i), remaining, depth + 1);
        if (remaining < 0) return remaining;
      }
      return remaining;
    }
    if (isObject(obj)) {
      const oldMap = isObject(old) ? old : undefined;
      const mt = v.schema.xMapType;
      const correlatable = mt === undefined || mt === "granular" || mt === "atomic";
      const keys = v.additionalProperties || v.properties ? Object.keys(obj) : NO_KEYS;
      if (v.additionalProperties) {
        for (let i = 0; i < keys.length; i++) {
          const k = keys[i]!;
          const ov = correlatable && oldMap && Object.hasOwn(oldMap, k) ? oldMap[k] : undefined;
          remaining = this.validate(v.additionalProperties, keyPath(path, k), obj[k], ov, ratchetKey(r, k), remaining, depth + 1);
          if (remaining < 0) return remaining;
        }
      }
      if (v.properties) {
        for (let i = 0; i < keys.length; i++) {
          const k = keys[i]!;
          const sub = v.properties.get(k);
          if (!sub) continue;
          const ov = correlatable && oldMap && Object.hasOwn(oldMap, k) ? oldMap[k] : undefined;
          remaining = this.validate(sub, childPath(path, k), obj[k], ov, ratchetKey(r, k), remaining, depth + 1);
          if (remaining < 0) return remaining;
        }
      }
    }
    return remaining;
  }

  private expressions(v: RuleValidator, path: FieldPath | null, obj: JsonValue, oldIn: JsonValue | undefined, r: Ratchet, budget: number): number {
    let sts = v.schema;
    const old = oldIn === null ? undefined : oldIn;
    let remaining = budget;
    if (v.compilationErr !== undefined) {
      this.errors.push(fieldError.invalid(path, sts.type, `rule compiler initialization error: ${v.compilationErr}`));
      return remaining;
    }
    const compiled = v.compiled;
    if (compiled.length === 0) return remaining;
    if (remaining <= 0) {
      this.errors.push(fieldError.invalid(path, sts.type, "validation failed due to running out of cost budget, no further validation rules will be run"));
      return -1;
    }
    if (v.isResourceRoot) sts = withTypeAndObjectMeta(sts);
    let usesOld = false;
    for (let i = 0; i < compiled.length; i++) if ((compiled[i] as CompiledRule).usesOldSelf) usesOld = true;
    const self = toCelValue(obj, sts);
    const oldSelf = usesOld && old !== undefined ? toCelValue(old, sts) : undefined;
    const activation: Activation = oldSelf !== undefined ? { self, oldSelf } : { self };
    const optActivation: Activation = usesOld ? { self, oldSelf: oldSelf !== undefined ? CelOptional.of(oldSelf) : CelOptional.NONE } : activation;
    for (let i = 0; i < compiled.length; i++) {
      const c = compiled[i]!;
      const rule = v.rules[i]!;
      if (c.error) {
        this.errors.push(fieldError.invalid(path, sts.type, `rule compile error: ${compileErrorText(c.error)}`));
        continue;
      }
      if (!c.program) continue;
      const optional = rule.optionalOldSelf === true;
      if (c.usesOldSelf && old === undefined && !optional) continue;
      this.evaluated++;
      const res = c.program.eval(optional ? optActivation : activation, this.evalOpts);
      if (this.onRule) {
        const failed = res.value instanceof CelSpecial;
        this.onRule({
          path: path?.toString() || "<root>",
          rule: rule.rule,
          outcome: failed ? "error" : res.value === true,
          ...(failed ? { error: res.value instanceof CelError ? res.value.message : "unknown value" } : {}),
          cost: res.cost,
          estimatedMaxCost: c.maxCost,
        });
      }
      if (res.cost > remaining) {
        this.errors.push(fieldError.invalid(path, sts.type, "validation failed due to running out of cost budget, no further validation rules will be run"));
        return -1;
      }
      remaining -= res.cost;
      const val = res.value;
      if (val instanceof CelSpecial) {
        const msg = val instanceof CelError ? val.message : "unknown value";
        if (msg.startsWith("no such overload")) {
          this.errors.push(fieldError.invalid(path, sts.type, `'${msg}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(rule)}`));
        } else if (msg.startsWith(COST_LIMIT_MESSAGE)) {
          this.errors.push(fieldError.invalid(path, sts.type, `'${msg}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleErrorString(rule)}`));
          return -1;
        } else {
          this.errors.push(fieldError.invalid(path, sts.type, `${msg} evaluating rule: ${ruleErrorString(rule)}`));
        }
        continue;
      }
      if (val === true) continue;
      const cur = c.normalizedFieldPath ? childPath(path, c.normalizedFieldPath) : path;
      const add = (e: FieldError) => {
        if (!c.usesOldSelf && shouldRatchet(r)) this.warnings.push(errText(e));
        else this.errors.push(e);
      };
      let detail: string | undefined;
      if (c.messageProgram) {
        const m = this.message(c.messageProgram, rule.messageExpression ?? "", activation, remaining);
        if ("detail" in m) {
          detail = m.detail;
          remaining = m.remaining;
        } else if (m.kind === "internal") {
          add(fieldError.internal(cur, m.text));
          return -1;
        } else if (m.kind === "invalid") {
          add(fieldError.invalid(cur, sts.type, m.text));
          return -1;
        } else {
          remaining = m.remaining;
        }
      }
      if (detail === undefined) detail = ruleMessageOrDefault(rule);
      const value: BadValue = sts.type === "object" || sts.type === "array" ? OMIT : obj;
      add(fieldErrorForReason(cur, value, detail, rule.reason));
    }
    return remaining;
  }

  private message(
    prog: { eval(a?: Activation, o?: { costLimit?: number }): { value: CelValue; cost: number } },
    src: string,
    activation: Activation,
    remaining: number,
  ): { detail: string; remaining: number } | { kind: "internal" | "invalid" | "soft"; text: string; remaining: number } {
    this.evaluated++;
    const res = prog.eval(activation, this.evalOpts);
    if (res.cost > remaining) {
      return { kind: "invalid", text: "messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run", remaining: -1 };
    }
    const left = remaining - res.cost;
    const v = res.value;
    if (v instanceof CelSpecial) {
      const msg = v instanceof CelError ? v.message : "unknown value";
      if (msg.startsWith(COST_LIMIT_MESSAGE)) {
        return { kind: "invalid", text: `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${goQuote(src)}`, remaining: -1 };
      }
      return { kind: "soft", text: `messageExpression evaluation failed due to: ${msg}`, remaining: left };
    }
    if (typeof v !== "string") return { kind: "soft", text: "messageExpression failed to convert to string", remaining: left };
    const t = v.trim();
    if (new TextEncoder().encode(t).length > MAX_MESSAGE_EXPRESSION_BYTES) {
      return { kind: "soft", text: `messageExpression beyond allowable length of ${MAX_MESSAGE_EXPRESSION_BYTES}`, remaining: left };
    }
    if (t.includes("\n")) return { kind: "soft", text: "messageExpression should not contain line breaks", remaining: left };
    if (t.length === 0) return { kind: "soft", text: "messageExpression should evaluate to a non-empty string", remaining: left };
    return { detail: t, remaining: left };
  }
}

const errText = errorString;

/** `apiservercel.Error.Error()` is the detail. */
function compileErrorText(e: { type: string; detail: string }): string {
  return e.detail;
}

/** `ruleErrorString`: the trimmed message, else the trimmed rule. */
export function ruleErrorString(rule: ValidationRule): string {
  const m = rule.message ?? "";
  return m.length > 0 ? m.trim() : rule.rule.trim();
}

/** `ruleMessageOrDefault`. */
export function ruleMessageOrDefault(rule: ValidationRule): string {
  const m = rule.message ?? "";
  return m.length === 0 ? `failed rule: ${ruleErrorString(rule)}` : m.trim();
}

function fieldErrorForReason(path: FieldPath | null, value: BadValue, detail: string, reason: string | undefined): FieldError {
  switch (reason) {
    case "FieldValueForbidden":
      return fieldError.forbidden(path, detail);
    case "FieldValueRequired":
      return fieldError.required(path, detail);
    case "FieldValueDuplicate":
      return fieldError.duplicate(path, value);
    default:
      return fieldError.invalid(path, value, detail);
  }
}

/**
 * Evaluates every x-kubernetes-validations rule of `schema` on `obj` (with `oldObj` on update), as the
 * custom-resource strategy does. Never throws for data problems.
 */
export function validateRules(schema: Structural, obj: JsonValue, oldObj?: JsonValue, opts: ValidateRulesOptions = {}): ValidateRulesResult {
  const v = newRuleValidator(schema, opts.isResourceRoot ?? true);
  const budget = opts.budget ?? RUNTIME_CEL_COST_BUDGET;
  if (!v) return { errors: [], warnings: [], remainingBudget: budget, evaluated: 0 };
  const run = new Run(opts.perCallLimit ?? PER_CALL_LIMIT, opts.onRule);
  const ratcheting = opts.ratcheting ?? oldObj !== undefined;
  const r: Ratchet = { current: ratcheting && oldObj !== undefined ? new Correlation(obj, oldObj, schema) : null, parent: null };
  const remaining = run.validate(v, opts.path ?? null, obj, oldObj, r, budget, 0);
  return { errors: run.errors, warnings: run.warnings, remainingBudget: remaining, evaluated: run.evaluated };
}

/**
 * CEL rules on a schema default at CRD time (`defaulting.validate`): first with `oldSelf` = the default,
 * then, when that passed, as a create (no old value). `path` is the path of the default (`….default`);
 * `budget` is what is left of the budget all defaults of the CRD share. Plugs into `DefaultsHooks.validateCel`.
 */
export function validateDefaultRules(
  path: FieldPath,
  s: Structural,
  value: JsonValue,
  isResourceRoot: boolean,
  budget: number = RUNTIME_CEL_COST_BUDGET,
): { errors: FieldError[]; remaining: number } {
  const p = path;
  const first = validateRules(s, value, value, { path: p, isResourceRoot, ratcheting: false, budget });
  if (first.errors.length > 0) return { errors: first.errors, remaining: first.remainingBudget };
  // both runs start from the same budget; the one that leaves less is charged (defaulting.validate)
  const second = validateRules(s, value, undefined, { path: p, isResourceRoot, ratcheting: false, budget });
  return { errors: second.errors, remaining: Math.min(first.remainingBudget, second.remainingBudget) };
}
