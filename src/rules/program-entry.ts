/**
 * The compiled rules of one validator node as plain JSON (for the compiled-program cache of
 * `crdkit validate`): per rule, what the planner needs — the checked expression tree and the checker's
 * references (identifier names and overload ids) — of the rule and its messageExpression, and whether the
 * rule reads `oldSelf`. Reading an entry back plans the programs again (planning is cheap; parsing and
 * type-checking are what the entry saves) and gives the same {@link CompiledRule}s as
 * {@link compileNodeRules}; estimated costs, only read by rule traces, are computed by compiling the node
 * when first read.
 *
 * Only nodes whose every rule compiled without an error are encoded (errors are reported from a fresh
 * compilation). An entry is validated while read: anything malformed, of another format, or for other
 * rule texts reads as "not cached" (`undefined`), never as a throw or a different program.
 */
import type { Constant, Expr, MapEntry, StructField } from "../cel/ast.js";
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
import type { DeclType } from "./decl-type.js";
import { sharedRegistry } from "./env.js";

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

// ---- encoding ----

const K_CONST = 0;
const K_IDENT = 1;
const K_SELECT = 2;
const K_CALL = 3;
const K_LIST = 4;
const K_MAP = 5;
const K_STRUCT = 6;
const K_COMPREHENSION = 7;

function encodeDouble(v: number): number | string {
  return Number.isFinite(v) && !Object.is(v, -0) ? v : Object.is(v, -0) ? "-0" : String(v);
}

function encodeConst(c: Constant): unknown {
  switch (c.kind) {
    case "null":
      return [0];
    case "bool":
      return [1, c.value];
    case "int":
      return [2, c.value.toString()];
    case "uint":
      return [3, c.value.toString()];
    case "double":
      return [4, encodeDouble(c.value)];
    case "string":
      return [5, c.value];
    case "bytes":
      return [6, Array.from(c.value)];
  }
}

/** The expression tree as nested arrays (`[kind, id, ...]`). */
export function encodeExpr(e: Expr, depth = 0): unknown {
  if (depth > 10000) throw new RangeError("expression nested too deeply");
  const d = depth + 1;
  switch (e.kind) {
    case "const":
      return [K_CONST, e.id, encodeConst(e.value)];
    case "ident":
      return [K_IDENT, e.id, e.name];
    case "select":
      return [K_SELECT, e.id, encodeExpr(e.operand, d), e.field, e.testOnly ? 1 : 0];
    case "call":
      return [K_CALL, e.id, e.function, e.target === undefined ? 0 : encodeExpr(e.target, d), e.args.map((a) => encodeExpr(a, d))];
    case "list":
      return [K_LIST, e.id, e.elements.map((x) => encodeExpr(x, d)), [...e.optionalIndices]];
    case "map":
      return [K_MAP, e.id, e.entries.map((x) => [x.id, encodeExpr(x.key, d), encodeExpr(x.value, d), x.optional ? 1 : 0])];
    case "struct":
      return [K_STRUCT, e.id, e.messageName, e.fields.map((x) => [x.id, x.field, encodeExpr(x.value, d), x.optional ? 1 : 0])];
    case "comprehension":
      return [
        K_COMPREHENSION,
        e.id,
        e.iterVar,
        e.iterVar2 ?? 0,
        encodeExpr(e.iterRange, d),
        e.accuVar,
        encodeExpr(e.accuInit, d),
        encodeExpr(e.loopCondition, d),
        encodeExpr(e.loopStep, d),
        encodeExpr(e.result, d),
      ];
  }
}

/** The checker's references as `[id, name | 0, overloadIds | 0]` rows, by ascending id. */
export function encodeRefs(c: Compiled): unknown {
  const rows: unknown[] = [];
  for (const [id, ref] of c.checked.references) rows.push([id, ref.name ?? 0, ref.overloadIds ? [...ref.overloadIds] : 0]);
  return rows;
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

// ---- decoding ----

/** Thrown inside the decoder for anything malformed; caught by {@link restoreNodeRules}. */
class Malformed extends Error {}

const isInt = (x: unknown): x is number => Number.isSafeInteger(x);

function str(x: unknown): string {
  if (typeof x !== "string") throw new Malformed();
  return x;
}

function int(x: unknown): number {
  if (!isInt(x)) throw new Malformed();
  return x;
}

function arr(x: unknown): unknown[] {
  if (!Array.isArray(x)) throw new Malformed();
  return x;
}

function flag(x: unknown): boolean {
  if (x !== 0 && x !== 1) throw new Malformed();
  return x === 1;
}

const INT_TEXT = /^-?(0|[1-9][0-9]*)$/;
const UINT_TEXT = /^(0|[1-9][0-9]*)$/;

function decodeDouble(x: unknown): number {
  if (typeof x === "number") return x;
  if (x === "-0") return -0;
  if (x === "NaN") return Number.NaN;
  if (x === "Infinity") return Number.POSITIVE_INFINITY;
  if (x === "-Infinity") return Number.NEGATIVE_INFINITY;
  throw new Malformed();
}

function decodeConst(x: unknown): Constant {
  const a = arr(x);
  switch (a[0]) {
    case 0:
      return { kind: "null" };
    case 1:
      if (typeof a[1] !== "boolean") throw new Malformed();
      return { kind: "bool", value: a[1] };
    case 2:
      if (!INT_TEXT.test(str(a[1]))) throw new Malformed();
      return { kind: "int", value: BigInt(a[1] as string) };
    case 3:
      if (!UINT_TEXT.test(str(a[1]))) throw new Malformed();
      return { kind: "uint", value: BigInt(a[1] as string) };
    case 4:
      return { kind: "double", value: decodeDouble(a[1]) };
    case 5:
      return { kind: "string", value: str(a[1]) };
    case 6: {
      const bytes = arr(a[1]);
      const out = new Uint8Array(bytes.length);
      for (let i = 0; i < bytes.length; i++) {
        const b = bytes[i];
        if (!isInt(b) || b < 0 || b > 255) throw new Malformed();
        out[i] = b;
      }
      return { kind: "bytes", value: out };
    }
    default:
      throw new Malformed();
  }
}

/** The expression tree of {@link encodeExpr}. */
export function decodeExpr(x: unknown, depth = 0): Expr {
  if (depth > 10000) throw new Malformed();
  const d = depth + 1;
  const a = arr(x);
  const id = int(a[1]);
  switch (a[0]) {
    case K_CONST:
      return { kind: "const", id, value: decodeConst(a[2]) };
    case K_IDENT:
      return { kind: "ident", id, name: str(a[2]) };
    case K_SELECT:
      return { kind: "select", id, operand: decodeExpr(a[2], d), field: str(a[3]), testOnly: flag(a[4]) };
    case K_CALL: {
      const args = arr(a[4]).map((y) => decodeExpr(y, d));
      const fn = str(a[2]);
      return a[3] === 0 ? { kind: "call", id, function: fn, args } : { kind: "call", id, function: fn, target: decodeExpr(a[3], d), args };
    }
    case K_LIST:
      return { kind: "list", id, elements: arr(a[2]).map((y) => decodeExpr(y, d)), optionalIndices: arr(a[3]).map(int) };
    case K_MAP:
      return {
        kind: "map",
        id,
        entries: arr(a[2]).map((y): MapEntry => {
          const m = arr(y);
          return { id: int(m[0]), key: decodeExpr(m[1], d), value: decodeExpr(m[2], d), optional: flag(m[3]) };
        }),
      };
    case K_STRUCT:
      return {
        kind: "struct",
        id,
        messageName: str(a[2]),
        fields: arr(a[3]).map((y): StructField => {
          const f = arr(y);
          return { id: int(f[0]), field: str(f[1]), value: decodeExpr(f[2], d), optional: flag(f[3]) };
        }),
      };
    case K_COMPREHENSION: {
      const base = {
        kind: "comprehension" as const,
        id,
        iterVar: str(a[2]),
        iterRange: decodeExpr(a[4], d),
        accuVar: str(a[5]),
        accuInit: decodeExpr(a[6], d),
        loopCondition: decodeExpr(a[7], d),
        loopStep: decodeExpr(a[8], d),
        result: decodeExpr(a[9], d),
      };
      return a[3] === 0 ? base : { ...base, iterVar2: str(a[3]) };
    }
    default:
      throw new Malformed();
  }
}

interface DecodedRef {
  name?: string;
  overloadIds?: readonly string[];
}

/** The references of {@link encodeRefs}, as the planner reads them. */
function decodeRefs(x: unknown, idLists: Map<string, readonly string[]>): CheckedInfo & { names: Set<string> } {
  const refs = new Map<number, DecodedRef>();
  const names = new Set<string>();
  for (const row of arr(x)) {
    const r = arr(row);
    const ref: DecodedRef = {};
    if (r[1] !== 0) {
      ref.name = str(r[1]);
      names.add(ref.name);
    }
    if (r[2] !== 0) {
      const ids = arr(r[2]).map(str);
      const key = ids.join("\u0000");
      let shared = idLists.get(key);
      if (shared === undefined) idLists.set(key, (shared = ids));
      ref.overloadIds = shared;
    }
    refs.set(int(r[0]), ref);
  }
  return { references: refs, referenceOf: (id) => refs.get(id), names };
}

/** A decoded expression and the checker's references, validated; planned by {@link LazyProgram}. */
interface DecodedProgram {
  expr: Expr;
  checked: CheckedInfo;
  names: Set<string>;
}

function decodeProgram(p: unknown, idLists: Map<string, readonly string[]>): DecodedProgram {
  const pj = arr(p);
  if (pj.length !== 2) throw new Malformed();
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
        this.planned = plan(d.expr, { functions: this.registry, checked: d.checked, callCost: kubeCallCost, presenceTestHasCost: false, optimize: true });
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
      if (typeof rj !== "object" || rj === null) throw new Malformed();
      const me = rule.messageExpression ?? "";
      if (rj.r !== rule.rule || (rj.m ?? "") !== me || rj.o !== (rule.optionalOldSelf === true) || typeof rj.old !== "boolean") throw new Malformed();
      if (rule.rule.trim().length === 0) throw new Malformed();
      const { program, names } = sharedProgram(rj.p, registry, freshProgram(i, "program"));
      // the rule reads oldSelf exactly when a reference names it (as compileNodeRules decides)
      if (names.has("oldSelf") !== rj.old) throw new Malformed();
      const res: CompiledRule = { rule, program, usesOldSelf: rj.old, maxCost: 0, maxCardinality: 0, messageExpressionMaxCost: 0 };
      lazyNumber(res, "maxCost", () => freshCost(i, "maxCost"));
      lazyNumber(res, "maxCardinality", cardinality);
      if (me !== "") {
        if (rj.mp === undefined) throw new Malformed();
        res.messageProgram = sharedProgram(rj.mp, registry, freshProgram(i, "messageProgram")).program;
        lazyNumber(res, "messageExpressionMaxCost", () => freshCost(i, "messageExpressionMaxCost"));
      } else if (rj.mp !== undefined) throw new Malformed();
      const nfp = normalizedFieldPathOf(rule, s);
      if (nfp !== undefined) res.normalizedFieldPath = nfp;
      return res;
    });
  } catch {
    // malformed, or a program that does not plan (e.g. an overload this build does not have)
    return undefined;
  }
}
