/**
 * The compiled rules of one validator node as plain JSON (for the compiled-program cache of
 * `crdkit validate`): per rule, what the planner needs — the checked expression tree and the checker's
 * references (identifier names and overload ids) — of the rule and its messageExpression, and whether the
 * rule reads `oldSelf` (the trees' layout: ./expr-json.ts). Reading an entry back gives the same
 * {@link CompiledRule}s as {@link compileNodeRules}: each program is planned again when first evaluated
 * (planning is cheap; parsing and type-checking are what the entry saves), one program per distinct entry
 * text in a process; estimated costs, only read by rule traces, are computed by compiling the node when
 * first read.
 *
 * Only nodes whose every rule compiled without an error are encoded (errors are reported from a fresh
 * compilation). An entry is validated while read: anything malformed, of another format, or for other
 * rule texts reads as "not cached" (`undefined`), never as a throw or a different program.
 */
import type { Expr } from "../cel/ast.js";
import {
  type Activation,
  CelError,
  type CheckedInfo,
  type Compiled,
  type EvalOptions,
  type EvalResult,
  type FunctionRegistry,
  plan,
  type Program,
} from "../cel/index.js";
import type { ValidationRule } from "../crd/types.js";
import type { Structural } from "../structural/structural.js";
import { type CompiledRule, compileNodeRules, lazyNumber, normalizedFieldPathOf, ruleMaxCardinality } from "./compile.js";
import { kubeCallCost } from "./costs.js";
import { KUBE_TYPE_VALUES } from "./library/kube-values.js";
import type { DeclType } from "./decl-type.js";
import { sharedRegistry } from "./env.js";
import { arr, decodeExpr, decodeRefs, encodeExpr, encodeRefs, MalformedJson } from "./expr-json.js";

/** Version of the entry layout; an entry of another version is not read. */
export const PROGRAM_ENTRY_FORMAT = 1;

/** A compiled expression: `[expression tree, references]` (see {@link encodeExpr}, {@link encodeRefs}). */
type ProgramJson = [unknown, unknown];

/** One rule: its texts (to check the entry is for this rule), `oldSelf` use and programs. */
interface RuleJson {
  r: string;
  m?: string;
  o: boolean;
  old: boolean;
  p: ProgramJson;
  mp?: ProgramJson;
}

/** The entry of a node: `{ f: format, rules }`. */
export interface NodeProgramsJson {
  f: number;
  rules: RuleJson[];
}

/** What {@link compileNodeRulesForEntry} gives: the compiled rules and, when all compiled cleanly, their entry. */
export interface CompiledForEntry {
  compiled: CompiledRule[] | { internalError: string };
  entry: NodeProgramsJson | undefined;
}


/** The programs of a compiled rule node, or undefined when a rule did not compile cleanly. */
function encodeNode(rules: readonly ValidationRule[], compiled: CompiledRule[], programs: Map<string, Compiled>): NodeProgramsJson | undefined {
  const out: RuleJson[] = [];
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i] as ValidationRule;
    const c = compiled[i];
    if (!c || c.error || c.messageExpressionError) return undefined;
    const pc = programs.get(`${i}r`);
    // an empty rule has no program (and nothing to cache)
    if (!pc || !c.program) return undefined;
    const r: RuleJson = { r: rule.rule, o: rule.optionalOldSelf === true, old: c.usesOldSelf, p: [encodeExpr(pc.ast.expr), encodeRefs(pc)] };
    const me = rule.messageExpression ?? "";
    if (me !== "") {
      const mc = programs.get(`${i}m`);
      if (!mc || !c.messageProgram) return undefined;
      r.m = me;
      r.mp = [encodeExpr(mc.ast.expr), encodeRefs(mc)];
    }
    out.push(r);
  }
  return { f: PROGRAM_ENTRY_FORMAT, rules: out };
}

/**
 * {@link compileNodeRules} for the runtime validator (stored expressions, lazy costs), with the node's
 * entry when every rule compiled cleanly.
 */
export function compileNodeRulesForEntry(s: Structural, rules: readonly ValidationRule[], declType: DeclType | undefined): CompiledForEntry {
  const programs = new Map<string, Compiled>();
  const compiled = compileNodeRules(s, rules, declType, {
    flavor: "stored",
    costs: "lazy",
    onProgram: (i, kind, c) => programs.set(`${i}${kind === "rule" ? "r" : "m"}`, c),
  });
  let entry: NodeProgramsJson | undefined;
  if (Array.isArray(compiled) && compiled.length > 0) {
    try {
      entry = encodeNode(rules, compiled, programs);
    } catch {
      entry = undefined; // too deep to encode: not cached
    }
  }
  return { compiled, entry };
}


/** A decoded expression and the checker's references, validated; planned by {@link LazyProgram}. */
interface DecodedProgram {
  expr: Expr;
  checked: CheckedInfo;
  names: Set<string>;
}

function decodeProgram(p: unknown, idLists: Map<string, readonly string[]>): DecodedProgram {
  const pj = arr(p);
  if (pj.length !== 2) throw new MalformedJson();
  const expr = decodeExpr(pj[0]);
  const checked = decodeRefs(pj[1], idLists);
  return { expr, checked, names: checked.names };
}

/**
 * A program planned when first evaluated (`env.Program` as {@link compileNodeRules} plans it): rules of
 * `oldSelf` that a create skips and messageExpressions of rules that pass are never planned. Should the
 * planner refuse the expression (an entry of another build), the node's freshly compiled program is used.
 */
class LazyProgram implements Program {
  private planned: Program | undefined;

  constructor(
    private d: DecodedProgram | undefined,
    private readonly registry: FunctionRegistry,
    private readonly fresh: () => Program,
  ) {}

  eval(activation?: Activation, opts?: EvalOptions): EvalResult {
    if (this.planned === undefined) {
      const d = this.d as DecodedProgram;
      try {
        this.planned = plan(d.expr, { functions: this.registry, checked: d.checked, callCost: kubeCallCost, presenceTestHasCost: false, optimize: true, typeValues: KUBE_TYPE_VALUES });
      } catch {
        this.planned = this.fresh();
      }
      this.d = undefined;
    }
    return this.planned.eval(activation, opts);
  }
}

/** Overload-id lists read back, one array per distinct list (the planner's dispatch tables are keyed by the array too). */
const ID_LISTS = new Map<string, readonly string[]>();

/**
 * Programs read back in this process by their entry text: the same rule on nodes of the same type (the
 * versions of a CRD, repeated fields) has the same expression tree and references, so one program
 * (planned once) serves all of them.
 */
const PROGRAMS = new Map<string, { program: LazyProgram; names: ReadonlySet<string> }>();
const MAX_PROGRAMS = 20000;

function sharedProgram(p: unknown, registry: FunctionRegistry, fresh: () => Program): { program: LazyProgram; names: ReadonlySet<string> } {
  const key = JSON.stringify(p);
  let hit = PROGRAMS.get(key);
  if (hit === undefined) {
    const d = decodeProgram(p, ID_LISTS);
    hit = { program: new LazyProgram(d, registry, fresh), names: d.names };
    if (PROGRAMS.size >= MAX_PROGRAMS) PROGRAMS.clear();
    PROGRAMS.set(key, hit);
  }
  return hit;
}

/** A program that only reports that its rule could not be compiled again (never reached with entries of this build). */
function failedProgram(detail: string): Program {
  return { eval: () => ({ value: new CelError(detail), cost: 0 }) };
}

/**
 * The compiled rules of a node read back from its entry (`x`, parsed JSON of unknown origin), or undefined
 * when the entry is malformed, of another format, or not for exactly these rules. `recompile` compiles the
 * node afresh (called at most once, when an estimated cost is first read).
 */
export function restoreNodeRules(
  s: Structural,
  rules: readonly ValidationRule[],
  declType: DeclType | undefined,
  x: unknown,
  recompile: () => CompiledRule[] | { internalError: string } = () => compileNodeRules(s, rules, declType, { flavor: "stored", costs: "lazy" }),
): CompiledRule[] | undefined {
  if (!declType || rules.length === 0) return undefined;
  if (typeof x !== "object" || x === null) return undefined;
  const o = x as Partial<NodeProgramsJson>;
  if (o.f !== PROGRAM_ENTRY_FORMAT || !Array.isArray(o.rules) || o.rules.length !== rules.length) return undefined;
  const registry = sharedRegistry("stored");
  // read by the CRD checks only: computed (from the schema's required fields) when first read
  let maxCardinality: number | undefined;
  const cardinality = (): number => (maxCardinality ??= ruleMaxCardinality(declType));
  let fresh: CompiledRule[] | undefined;
  const freshRule = (i: number): CompiledRule | undefined => {
    if (fresh === undefined) {
      const r = recompile();
      fresh = Array.isArray(r) ? r : [];
    }
    return fresh[i];
  };
  const freshCost = (i: number, key: "maxCost" | "messageExpressionMaxCost"): number => freshRule(i)?.[key] ?? 0;
  const freshProgram = (i: number, key: "program" | "messageProgram") => (): Program => {
    const c = freshRule(i);
    return c?.[key] ?? failedProgram(c?.error?.detail ?? c?.messageExpressionError?.detail ?? "the rule could not be compiled again");
  };
  try {
    return rules.map((rule, i): CompiledRule => {
      const rj = (o.rules as unknown[])[i] as Partial<RuleJson> | null;
      if (typeof rj !== "object" || rj === null) throw new MalformedJson();
      const me = rule.messageExpression ?? "";
      if (rj.r !== rule.rule || (rj.m ?? "") !== me || rj.o !== (rule.optionalOldSelf === true) || typeof rj.old !== "boolean") throw new MalformedJson();
      if (rule.rule.trim().length === 0) throw new MalformedJson();
      const { program, names } = sharedProgram(rj.p, registry, freshProgram(i, "program"));
      // the rule reads oldSelf exactly when a reference names it (as compileNodeRules decides)
      if (names.has("oldSelf") !== rj.old) throw new MalformedJson();
      const res: CompiledRule = { rule, program, usesOldSelf: rj.old, maxCost: 0, maxCardinality: 0, messageExpressionMaxCost: 0 };
      lazyNumber(res, "maxCost", () => freshCost(i, "maxCost"));
      lazyNumber(res, "maxCardinality", cardinality);
      if (me !== "") {
        if (rj.mp === undefined) throw new MalformedJson();
        res.messageProgram = sharedProgram(rj.mp, registry, freshProgram(i, "messageProgram")).program;
        lazyNumber(res, "messageExpressionMaxCost", () => freshCost(i, "messageExpressionMaxCost"));
      } else if (rj.mp !== undefined) throw new MalformedJson();
      const nfp = normalizedFieldPathOf(rule, s);
      if (nfp !== undefined) res.normalizedFieldPath = nfp;
      return res;
    });
  } catch {
    // malformed, or a program that does not plan (e.g. an overload this build does not have)
    return undefined;
  }
}
