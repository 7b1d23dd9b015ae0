/**
 * Evaluating one CEL expression against a custom resource as an x-kubernetes-validations rule on the
 * schema's root would see it: `self` (and `oldSelf`) typed by the structural schema, Kubernetes' libraries
 * and cost model. The expression may have any result type (tools show the value), unlike a rule.
 */
import {
  type Activation,
  CelDuration,
  CelError,
  CelMap,
  CelOpaque,
  CelOptional,
  CelSpecial,
  CelTimestamp,
  CelType,
  CelUint,
  type CelValue,
  formatType,
  isCompileFailure,
  plan,
} from "../cel/index.js";
import type { Structural } from "../structural/structural.js";
import { goQuote } from "../go/fmt.js";
import type { JsonValue } from "../value/json-value.js";
import { PER_CALL_LIMIT } from "./compile.js";
import { declSizeEstimator, kubeCallCost, kubeCostEstimator } from "./costs.js";
import { KUBE_TYPE_VALUES } from "./library/kube-values.js";
import { schemaDeclType, withTypeAndObjectMeta } from "./decl-type.js";
import { ruleEnvs } from "./env.js";
import { toCelValue } from "./values.js";

/** The outcome of {@link evaluateExpression}. */
export type ExpressionResult =
  | {
      ok: true;
      /** The value in CEL literal notation (`"abc"`, `3`, `3u`, `[1, 2]`, `{"a": true}`). */
      value: string;
      /** The checked result type, e.g. `bool`, `list(string)`. */
      type: string;
      /** Runtime cost (cel-go cost units). */
      cost: number;
      /** Estimated maximum cost from the checker, as Kubernetes computes it for rules. */
      estimatedMaxCost: number;
    }
  | { ok: false; stage: "compile" | "eval"; error: string; cost?: number };

/**
 * Compiles and evaluates `expression` with `self` = `obj` (and `oldSelf` = `oldObj` when given) against the
 * root `schema` of a custom resource. Never throws for user input.
 */
export function evaluateExpression(schema: Structural | undefined, expression: string, obj: JsonValue, oldObj?: JsonValue): ExpressionResult {
  if (!schema) return { ok: false, stage: "compile", error: "the version has no schema: CEL needs a structural schema" };
  const root = withTypeAndObjectMeta(schema);
  const declType = schemaDeclType(root, true);
  if (!declType) return { ok: false, stage: "compile", error: "failed to convert to declType for CEL validation rules" };
  const envs = ruleEnvs(declType, "stored");
  const c = envs.env.compile(expression);
  if (isCompileFailure(c)) return { ok: false, stage: "compile", error: `compilation failed: ${c.issues}` };
  let estimatedMaxCost = 0;
  try {
    estimatedMaxCost = Number(envs.env.estimateCost(c, kubeCostEstimator(declSizeEstimator(declType)), { presenceTestHasCost: false }).max);
  } catch (e) {
    return { ok: false, stage: "compile", error: `cost estimation failed: ${e instanceof Error ? e.message : String(e)}` };
  }
  const program = plan(c.ast, { functions: envs.registry, checked: c.checked, callCost: kubeCallCost, presenceTestHasCost: false, typeValues: KUBE_TYPE_VALUES });
  const self = toCelValue(obj, root);
  const activation: Activation = oldObj !== undefined && oldObj !== null ? { self, oldSelf: toCelValue(oldObj, root) } : { self };
  const res = program.eval(activation, { costLimit: PER_CALL_LIMIT });
  if (res.value instanceof CelSpecial) {
    const msg = res.value instanceof CelError ? res.value.message : "unknown value";
    return { ok: false, stage: "eval", error: msg, cost: res.cost };
  }
  return { ok: true, value: formatCelValue(res.value), type: formatType(c.outputType), cost: res.cost, estimatedMaxCost };
}

/** Renders a CEL value in CEL literal notation (for display). */
export function formatCelValue(v: CelValue, depth = 0): string {
  if (depth > 100) return "…";
  if (v === null) return "null";
  if (typeof v === "boolean" || typeof v === "bigint") return String(v);
  if (typeof v === "number") return Number.isInteger(v) ? `${v}.0` : String(v);
  if (typeof v === "string") return goQuote(v);
  if (v instanceof Uint8Array) return `b${goQuote(String.fromCharCode(...v))}`;
  if (v instanceof CelUint) return v.toString();
  if (Array.isArray(v)) return `[${v.map((x: CelValue) => formatCelValue(x, depth + 1)).join(", ")}]`;
  if (v instanceof CelMap) return `{${v.entries().map(([k, x]) => `${formatCelValue(k, depth + 1)}: ${formatCelValue(x, depth + 1)}`).join(", ")}}`;
  if (v instanceof CelDuration) return `duration("${Number(v.nanos) / 1e9}s")`;
  if (v instanceof CelTimestamp) return `timestamp("${new Date(Number(v.nanos / 1_000_000n)).toISOString()}")`;
  if (v instanceof CelType) return v.toString();
  if (v instanceof CelOptional) return v.hasValue() ? `optional.of(${formatCelValue(v.value as CelValue, depth + 1)})` : "optional.none()";
  if (v instanceof CelOpaque) return `${v.celType.toString()}(${String(v)})`;
  return String(v);
}
