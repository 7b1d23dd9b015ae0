/**
 * Compiling the x-kubernetes-validations of one schema node (apiextensions `cel.Compile` / `compileRule`):
 * rules and messageExpressions with Kubernetes' error details, `oldSelf` use, estimated costs, and the
 * normalized fieldPath; plus the {@link CelCompiler} adapter for CRD validation.
 */
import { type Compiled, isCompileFailure, planOnFirstEval, ProgramInstantiationError, type Program } from "../cel/index.js";
import type { ValidationRule } from "../crd/types.js";
import type { CelCompiler, CelCompileRequest, CelRuleResult } from "../crdvalidation/cel-hook.js";
import { validFieldPath } from "../crdvalidation/field-path.js";
import type { Structural } from "../structural/structural.js";
import { declSizeEstimator, kubeCallCost, kubeCostEstimator } from "./costs.js";
import { KUBE_REGEX_FUNCTIONS, KUBE_TYPE_VALUES } from "./library/kube-values.js";
import { type DeclType, MAX_REQUEST_SIZE_BYTES, schemaDeclType } from "./decl-type.js";
import { type EnvFlavor, type RuleEnvs, ruleEnvs } from "./env.js";

/** `celconfig.PerCallLimit`. */
export const PER_CALL_LIMIT = 1000000;

/** One compiled rule (`CompilationResult`). */
export interface CompiledRule {
  rule: ValidationRule;
  program?: Program;
  messageProgram?: Program;
  usesOldSelf: boolean;
  /** Estimated max cost (uint64 as a number, saturating at 2^64). */
  maxCost: number;
  maxCardinality: number;
  error?: { type: "Invalid" | "Internal" | "Required"; detail: string };
  messageExpressionError?: { type: "Invalid" | "Internal"; detail: string };
  messageExpressionMaxCost: number;
  /** `ValidFieldPath(rule.fieldPath).String()`, when set and valid. */
  normalizedFieldPath?: string;
}

/** Options of {@link compileNodeRules}. */
export interface CompileNodeOptions {
  /** `stored` (default; the runtime validator) or `new` (CRD create/update of new expressions). */
  flavor?: EnvFlavor;
  /** Per-rule flavor override (CRD update: preexisting expressions use the stored environment). */
  flavorOf?: (expression: string, kind: "rule" | "messageExpression") => EnvFlavor;
  /**
   * `eager` (default): estimate costs while compiling, as Kubernetes does. `lazy`: estimate a rule's
   * cost when its `maxCost` / `messageExpressionMaxCost` is first read — for the runtime validator,
   * where only rule traces read the estimate (the CRD checks' cost limits use the eager estimate, and
   * cel-go's estimation of a checked expression cannot fail).
   */
  costs?: "eager" | "lazy";
  /**
   * Told each rule's (`rule`) and messageExpression's compiled expression that became a program (for the
   * compiled-program cache, ./program-entry.ts): `i` is the rule's index.
   */
  onProgram?: (i: number, kind: "rule" | "messageExpression", c: Compiled) => void;
}

/** Defines `res[key]` as computed on first read (then kept as a plain value). */
export function lazyNumber(res: CompiledRule, key: "maxCost" | "messageExpressionMaxCost" | "maxCardinality", compute: () => number): void {
  Object.defineProperty(res, key, {
    configurable: true,
    enumerable: true,
    get(): number {
      const v = compute();
      Object.defineProperty(res, key, { value: v, writable: true, configurable: true, enumerable: true });
      return v;
    },
    set(v: number): void {
      Object.defineProperty(res, key, { value: v, writable: true, configurable: true, enumerable: true });
    },
  });
}

const envCache = new WeakMap<DeclType, Map<EnvFlavor, RuleEnvs>>();

function envsFor(declType: DeclType, flavor: EnvFlavor): RuleEnvs {
  let m = envCache.get(declType);
  if (!m) envCache.set(declType, (m = new Map()));
  let e = m.get(flavor);
  if (!e) m.set(flavor, (e = ruleEnvs(declType, flavor)));
  return e;
}

function toNumber(b: bigint): number {
  return Number(b);
}

/** The `maxCardinality` of a rule of a node of type `declType` (the max number of such nodes in a request). */
export function ruleMaxCardinality(declType: DeclType): number {
  return Math.floor(MAX_REQUEST_SIZE_BYTES / (declType.minSerializedSize + 1));
}

/** `ValidFieldPath(rule.fieldPath).String()` when the rule has a valid fieldPath. */
export function normalizedFieldPathOf(rule: ValidationRule, s: Structural): string | undefined {
  if (rule.fieldPath === undefined || rule.fieldPath === "") return undefined;
  const fp = validFieldPath(rule.fieldPath, s, true);
  return !("error" in fp) && fp.path ? fp.path.toString() : undefined;
}

/**
 * `env.Program(ast, ...)` with Kubernetes' options (cel-go `OptOptimize`): the program, or cel-go's error
 * text. What cel-go rejects here is rejected now; the program itself is planned on its first evaluation.
 */
function planProgram(envs: RuleEnvs, c: Compiled): Program | { instantiationError: string } {
  try {
    return planOnFirstEval(c.ast, { functions: envs.registry, checked: c.checked, callCost: kubeCallCost, presenceTestHasCost: false, optimize: true, typeValues: KUBE_TYPE_VALUES, regexConstantFunctions: KUBE_REGEX_FUNCTIONS });
  } catch (e) {
    if (e instanceof ProgramInstantiationError) return { instantiationError: e.message };
    throw e;
  }
}

/**
 * `Compile(s, declType, ...)`: compiles every rule of `s` (whose DeclType is `declType`; undefined when the
 * node is not expressible in CEL). Returns `{internalError}` like Kubernetes' compile-level errors.
 */
export function compileNodeRules(
  s: Structural,
  rules: readonly ValidationRule[],
  declType: DeclType | undefined,
  opts: CompileNodeOptions = {},
): CompiledRule[] | { internalError: string } {
  if (rules.length === 0) return [];
  if (!declType) return { internalError: "failed to convert to declType for CEL validation rules" };
  const estimator = kubeCostEstimator(declSizeEstimator(declType));
  const lazyCosts = opts.costs === "lazy";
  const maxCardinality = ruleMaxCardinality(declType);
  const flavorOf = opts.flavorOf ?? (() => opts.flavor ?? "stored");
  const onProgram = opts.onProgram;
  return rules.map((rule, i) => {
    const res: CompiledRule = { rule, usesOldSelf: false, maxCost: 0, maxCardinality: 0, messageExpressionMaxCost: 0 };
    if (rule.rule.trim().length === 0) return res;
    const optional = rule.optionalOldSelf === true;
    const envs = envsFor(declType, flavorOf(rule.rule, "rule"));
    const env = optional ? envs.optionalEnv : envs.env;
    const c = env.compile(rule.rule);
    if (isCompileFailure(c)) {
      res.error = { type: "Invalid", detail: `compilation failed: ${c.issues}` };
      return res;
    }
    // (`ast.OutputType() != cel.BoolType`: a google.protobuf.BoolValue is no bool)
    if (c.outputType.kind !== "bool" || c.outputType.nullable === true) {
      res.error = { type: "Invalid", detail: "cel expression must evaluate to a bool" };
      return res;
    }
    for (const ref of c.checked.referenceList()) {
      if (ref.name === "oldSelf") {
        res.usesOldSelf = true;
        break;
      }
    }
    const prog = planProgram(envs, c);
    if ("instantiationError" in prog) {
      res.error = { type: "Invalid", detail: `program instantiation failed: ${prog.instantiationError}` };
      return res;
    }
    res.program = prog;
    onProgram?.(i, "rule", c);
    if (lazyCosts) lazyNumber(res, "maxCost", () => toNumber(env.estimateCost(c, estimator, { presenceTestHasCost: false }).max));
    else {
      try {
        res.maxCost = toNumber(env.estimateCost(c, estimator, { presenceTestHasCost: false }).max);
      } catch (e) {
        res.error = { type: "Internal", detail: `cost estimation failed: ${e instanceof Error ? e.message : String(e)}` };
        return res;
      }
    }
    res.maxCardinality = maxCardinality;
    const me = rule.messageExpression ?? "";
    if (me !== "") {
      const menvs = envsFor(declType, flavorOf(me, "messageExpression"));
      const menv = optional ? menvs.optionalEnv : menvs.env;
      const mc = menv.compile(me);
      if (isCompileFailure(mc)) {
        res.messageExpressionError = { type: "Invalid", detail: `messageExpression compilation failed: ${mc.issues}` };
        return res;
      }
      if (mc.outputType.kind !== "string") {
        res.messageExpressionError = { type: "Invalid", detail: "messageExpression must evaluate to a string" };
        return res;
      }
      const mprog = planProgram(menvs, mc);
      if ("instantiationError" in mprog) {
        res.messageExpressionError = { type: "Invalid", detail: `messageExpression instantiation failed: ${mprog.instantiationError}` };
        return res;
      }
      if (lazyCosts) {
        lazyNumber(res, "messageExpressionMaxCost", () => toNumber(menv.estimateCost(mc, estimator, { presenceTestHasCost: false }).max));
      } else {
        try {
          res.messageExpressionMaxCost = toNumber(menv.estimateCost(mc, estimator, { presenceTestHasCost: false }).max);
        } catch (e) {
          res.messageExpressionError = { type: "Internal", detail: `cost estimation failed for messageExpression: ${e instanceof Error ? e.message : String(e)}` };
          return res;
        }
      }
      // messageExpression runs with the non-optional activation
      res.messageProgram = mprog;
      onProgram?.(i, "messageExpression", mc);
    }
    const nfp = normalizedFieldPathOf(rule, s);
    if (nfp !== undefined) res.normalizedFieldPath = nfp;
    return res;
  });
}

/**
 * The {@link CelCompiler} for CRD validation: compiles the rules of one node with the NewExpressions
 * environment (preexisting expressions of an update with the StoredExpressions one).
 */
export const crdCelCompiler: CelCompiler = (req: CelCompileRequest) => {
  const declType = schemaDeclType(req.structural, req.isResourceRoot);
  // CELSchemaContext.TypeInfo fails before Compile is reached
  if (!declType) {
    return { internalError: "internal error: failed to construct type information for x-kubernetes-validations rules: unable to convert structural schema to CEL declarations" };
  }
  const results = compileNodeRules(req.structural, req.rules, declType, {
    flavorOf: (expr, kind) =>
      (kind === "rule" ? req.preexistingRules : req.preexistingMessageExpressions).has(expr) ? "stored" : "new",
  });
  if (!Array.isArray(results)) return results;
  return results.map((r): CelRuleResult => {
    const out: CelRuleResult = { maxCost: r.maxCost, maxCardinality: r.maxCardinality, usesOldSelf: r.usesOldSelf };
    if (r.error) out.error = r.error;
    if (r.messageExpressionError) out.messageExpressionError = { detail: r.messageExpressionError.detail };
    else if (r.messageProgram) {
      out.hasMessageExpression = true;
      out.messageExpressionMaxCost = r.messageExpressionMaxCost;
    }
    return out;
  });
};
