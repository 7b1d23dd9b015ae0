/**
 * Where CEL (x-kubernetes-validations) compilation plugs into CRD validation (§1.4 step 16, §1.3 step 6).
 *
 * CRD validation calls {@link CelCompiler} once per schema node that carries `x-kubernetes-validations`,
 * reached through properties / items / additionalProperties (never inside allOf/anyOf/oneOf/not), and only
 * when (a) the schema is structural and its defaults are valid and (b) no schema error was found at that
 * node or below. Results are turned into Kubernetes' errors (cost, compile errors, messageExpression errors,
 * oldSelf misuse) here, after every schema error of the node. Without a compiler nothing is compiled and no
 * CEL error is produced.
 */
import type { ValidationRule } from "../crd/types.js";
import type { FieldPath } from "../errors/field-path.js";
import type { Structural } from "../structural/structural.js";

/** `celconfig.PerCallLimit`. */
export const PER_CALL_LIMIT = 1000000;
/** Per-expression estimated cost limit. */
export const STATIC_ESTIMATED_COST_LIMIT = 10000000;
/** Estimated cost limit for the rules of one schema. */
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100000000;

export interface CelCompileRequest {
  /** Structural schema of the node carrying the rules (type information for `self`). */
  structural: Structural;
  /** True at the schema root and at embedded resources (`apiVersion`/`kind`/`metadata` declared implicitly). */
  isResourceRoot: boolean;
  rules: readonly ValidationRule[];
  /** Path of the node (e.g. `spec.validation.openAPIV3Schema.properties[spec]`). */
  path: FieldPath;
  perCallLimit: number;
  /** Rules present anywhere in the old CRD on update: compile with the StoredExpressions environment. */
  preexistingRules: ReadonlySet<string>;
  preexistingMessageExpressions: ReadonlySet<string>;
}

export interface CelRuleResult {
  /** Estimated max cost of one evaluation (`CompilationResult.MaxCost`). */
  maxCost: number;
  /** Cardinality estimate of the compiler (used when the schema gives no bound), `CompilationResult.MaxCardinality`. */
  maxCardinality: number;
  /** Compile error of the rule: `Required` → `Required(.rule, detail)`, else `Invalid(.rule, rule, detail)`. */
  error?: { type: "Required" | "Invalid" | "Internal"; detail: string };
  /** Set when a messageExpression was compiled successfully. */
  hasMessageExpression?: boolean;
  messageExpressionError?: { detail: string };
  messageExpressionMaxCost?: number;
  usesOldSelf: boolean;
}

/** Compiles the rules of one node; returns one result per rule (same order), or an internal error text. */
export type CelCompiler = (req: CelCompileRequest) => CelRuleResult[] | { internalError: string };

/** `getCostErrorMessage`. */
export function costErrorMessage(name: string, cost: number, limit: number): string {
  const f = cost / limit;
  let factor: string;
  if (f > 100) factor = "more than 100x";
  else if (f < 1.5) factor = `${f.toFixed(6)}x`;
  else factor = `${f.toFixed(1)}x`;
  return `${name} exceeds budget by factor of ${factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

/** Max uint64 as a JS number (2^64, saturating arithmetic). */
export const MAX_UINT = 2 ** 64;

/** `multiplyWithOverflowGuard`. */
export function multiplyGuard(base: number, cardinality: number): number {
  if (base === 0) return 0;
  return Math.min(base * cardinality, MAX_UINT);
}

/** `TotalCost`: running total and the four most expensive expressions (≥ 1% of the CRD limit). */
export class TotalCost {
  total = 0;
  mostExpensive: { path: FieldPath; cost: number }[] = [];
  observe(path: FieldPath, cost: number): void {
    this.total = Math.min(MAX_UINT, this.total + cost);
    if (cost < STATIC_ESTIMATED_CRD_COST_LIMIT / 100) return;
    this.mostExpensive.push({ path, cost });
    this.mostExpensive.sort((a, b) => b.cost - a.cost);
    if (this.mostExpensive.length > 4) this.mostExpensive.length = 4;
  }
}
