/**
 * Macro definitions and expansions (cel-go `parser/macro.go` and the
 * two-variable comprehensions of `ext/comprehensions.go`).
 *
 * @module
 */

import type { Constant, Expr } from "../ast.js";
import { ACCUMULATOR_NAME } from "../ast.js";

/** Traditional accumulator name that iteration variables may not use either. */
export const LEGACY_ACCUMULATOR_NAME = "__result__";

/** Node factory handed to macro expanders; every node is positioned at the macro call. */
export interface MacroExprHelper {
  literal(value: Constant): Expr;
  ident(name: string): Expr;
  accuIdent(): Expr;
  list(...elements: Expr[]): Expr;
  map(): Expr;
  call(fn: string, ...args: Expr[]): Expr;
  presenceTest(operand: Expr, field: string): Expr;
  /** A receiver call `target.fn(args)`. */
  memberCall(fn: string, target: Expr, ...args: Expr[]): Expr;
  /** A deep copy with fresh ids. */
  copy(e: Expr): Expr;
  /** Binds `name` to `init` within `result` (a comprehension over an empty list, like cel-go). */
  bind(name: string, init: Expr, result: Expr): Expr;
  comprehension(
    iterRange: Expr,
    iterVar: string,
    iterVar2: string | undefined,
    accuInit: Expr,
    loopCondition: Expr,
    loopStep: Expr,
    result: Expr,
  ): Expr;
}

/** An expansion failure attached to an argument node. */
export interface MacroError {
  readonly macroError: string;
  readonly exprId: number;
}

/** Result of an expander: the expansion, an error, or `undefined` for "not a macro use". */
export type MacroResult = Expr | MacroError | undefined;

/** A macro: function name, arity (`-1` = any) and receiver style. */
export interface Macro {
  readonly name: string;
  readonly argCount: number;
  readonly receiver: boolean;
  readonly expand: (h: MacroExprHelper, target: Expr | undefined, args: readonly Expr[]) => MacroResult;
}

const T: Constant = { kind: "bool", value: true };
const F: Constant = { kind: "bool", value: false };
const ZERO: Constant = { kind: "int", value: 0n };
const ONE: Constant = { kind: "int", value: 1n };

const err = (e: Expr, msg: string): MacroError => ({ macroError: msg, exprId: e.id });

function iterVarOf(e: Expr, msgNotIdent: string): string | MacroError {
  if (e.kind !== "ident") return err(e, msgNotIdent);
  if (e.name === ACCUMULATOR_NAME || e.name === LEGACY_ACCUMULATOR_NAME)
    return err(e, "iteration variable overwrites accumulator variable");
  return e.name;
}

type Quant = "all" | "exists" | "existsOne";

function quantifier(
  kind: Quant,
  h: MacroExprHelper,
  target: Expr,
  v: string,
  v2: string | undefined,
  pred: Expr,
): Expr {
  switch (kind) {
    case "all":
      return h.comprehension(
        target,
        v,
        v2,
        h.literal(T),
        h.call("@not_strictly_false", h.accuIdent()),
        h.call("_&&_", h.accuIdent(), pred),
        h.accuIdent(),
      );
    case "exists":
      return h.comprehension(
        target,
        v,
        v2,
        h.literal(F),
        h.call("@not_strictly_false", h.call("!_", h.accuIdent())),
        h.call("_||_", h.accuIdent(), pred),
        h.accuIdent(),
      );
    case "existsOne":
      return h.comprehension(
        target,
        v,
        v2,
        h.literal(ZERO),
        h.literal(T),
        h.call("_?_:_", pred, h.call("_+_", h.accuIdent(), h.literal(ONE)), h.accuIdent()),
        h.call("_==_", h.accuIdent(), h.literal(ONE)),
      );
  }
}

const oneVarQuant =
  (kind: Quant) =>
  (h: MacroExprHelper, target: Expr | undefined, args: readonly Expr[]): MacroResult => {
    const v = iterVarOf(args[0] as Expr, "argument must be a simple name");
    if (typeof v !== "string") return v;
    return quantifier(kind, h, target as Expr, v, undefined, args[1] as Expr);
  };

function twoVars(a0: Expr, a1: Expr): [string, string] | MacroError {
  if (a0.kind !== "ident") return err(a0, "argument must be a simple name");
  if (a1.kind !== "ident") return err(a1, "argument must be a simple name");
  if (a0.name === a1.name) return err(a1, `duplicate variable name: ${a0.name}`);
  if (a0.name === ACCUMULATOR_NAME || a0.name === LEGACY_ACCUMULATOR_NAME)
    return err(a0, "iteration variable overwrites accumulator variable");
  if (a1.name === ACCUMULATOR_NAME || a1.name === LEGACY_ACCUMULATOR_NAME)
    return err(a1, "iteration variable overwrites accumulator variable");
  return [a0.name, a1.name];
}

const twoVarQuant =
  (kind: Quant) =>
  (h: MacroExprHelper, target: Expr | undefined, args: readonly Expr[]): MacroResult => {
    const vs = twoVars(args[0] as Expr, args[1] as Expr);
    if (!Array.isArray(vs)) return vs;
    return quantifier(kind, h, target as Expr, vs[0], vs[1], args[2] as Expr);
  };

function expandMap(h: MacroExprHelper, target: Expr | undefined, args: readonly Expr[]): MacroResult {
  const v = iterVarOf(args[0] as Expr, "argument is not an identifier");
  if (typeof v !== "string") return v;
  const filter = args.length === 3 ? args[1] : undefined;
  const fn = (args.length === 3 ? args[2] : args[1]) as Expr;
  let step = h.call("_+_", h.accuIdent(), h.list(fn));
  if (filter) step = h.call("_?_:_", filter, step, h.accuIdent());
  return h.comprehension(target as Expr, v, undefined, h.list(), h.literal(T), step, h.accuIdent());
}

function expandFilter(h: MacroExprHelper, target: Expr | undefined, args: readonly Expr[]): MacroResult {
  const a0 = args[0] as Expr;
  const v = iterVarOf(a0, "argument is not an identifier");
  if (typeof v !== "string") return v;
  let step = h.call("_+_", h.accuIdent(), h.list(h.ident(v)));
  step = h.call("_?_:_", args[1] as Expr, step, h.accuIdent());
  return h.comprehension(target as Expr, v, undefined, h.list(), h.literal(T), step, h.accuIdent());
}

const transform =
  (kind: "list" | "map" | "entry") =>
  (h: MacroExprHelper, target: Expr | undefined, args: readonly Expr[]): MacroResult => {
    const vs = twoVars(args[0] as Expr, args[1] as Expr);
    if (!Array.isArray(vs)) return vs;
    const filter = args.length === 4 ? args[2] : undefined;
    const fn = (args.length === 4 ? args[3] : args[2]) as Expr;
    let step: Expr;
    if (kind === "list") step = h.call("_+_", h.accuIdent(), h.list(fn));
    else if (kind === "map") step = h.call("cel.@mapInsert", h.accuIdent(), h.ident(vs[0]), fn);
    else step = h.call("cel.@mapInsert", h.accuIdent(), fn);
    if (filter) step = h.call("_?_:_", filter, step, h.accuIdent());
    const init = kind === "list" ? h.list() : h.map();
    return h.comprehension(target as Expr, vs[0], vs[1], init, h.literal(T), step, h.accuIdent());
  };

function expandHas(h: MacroExprHelper, _t: Expr | undefined, args: readonly Expr[]): MacroResult {
  const a = args[0] as Expr;
  if (a.kind === "select") return h.presenceTest(a.operand, a.field);
  return err(a, "invalid argument to has() macro");
}

/** cel-go's standard macros (`cel.StandardMacros`: `existsOne` with two arguments is not one). */
export const STANDARD_MACROS: readonly Macro[] = [
  { name: "has", argCount: 1, receiver: false, expand: expandHas },
  { name: "all", argCount: 2, receiver: true, expand: oneVarQuant("all") },
  { name: "exists", argCount: 2, receiver: true, expand: oneVarQuant("exists") },
  { name: "exists_one", argCount: 2, receiver: true, expand: oneVarQuant("existsOne") },
  { name: "map", argCount: 2, receiver: true, expand: expandMap },
  { name: "map", argCount: 3, receiver: true, expand: expandMap },
  { name: "filter", argCount: 2, receiver: true, expand: expandFilter },
];

const optMapLike =
  (flat: boolean) =>
  (h: MacroExprHelper, target: Expr | undefined, args: readonly Expr[]): MacroResult => {
    const v = args[0] as Expr;
    if (v.kind !== "ident") return err(v, `${flat ? "optFlatMap" : "optMap"}() variable name must be a simple identifier`);
    const t = target as Expr;
    const bound = h.bind(v.name, h.memberCall("value", h.copy(t)), args[1] as Expr);
    return h.call(
      "_?_:_",
      h.memberCall("hasValue", t),
      flat ? bound : h.call("optional.of", bound),
      h.call("optional.none"),
    );
  };

function expandSortBy(h: MacroExprHelper, target: Expr | undefined, args: readonly Expr[]): MacroResult {
  const t = target as Expr;
  const okTarget = t.kind === "list" || t.kind === "select" || t.kind === "ident" || t.kind === "comprehension" || t.kind === "call";
  if (!okTarget)
    return err(t, "sortBy can only be applied to a list, identifier, comprehension, call or select expression");
  const input = "@__sortBy_input__";
  const keys = expandMap(h, h.ident(input), args);
  if (keys === undefined || "macroError" in keys) return keys;
  const call = h.memberCall("@sortByAssociatedKeys", h.ident(input), keys);
  return h.bind(input, t, call);
}

/** `ext.Lists` (version >= 2) macros: `sortBy`. */
export const LISTS_MACROS: readonly Macro[] = [{ name: "sortBy", argCount: 2, receiver: true, expand: expandSortBy }];

/** cel-go `OptionalTypes` macros (`optMap`, `optFlatMap`). */
export const OPTIONAL_MACROS: readonly Macro[] = [
  { name: "optMap", argCount: 2, receiver: true, expand: optMapLike(false) },
  { name: "optFlatMap", argCount: 2, receiver: true, expand: optMapLike(true) },
];

/**
 * `existsOne(x, p)`: in cel-go's `parser.AllMacros` (the parser package default) but not in
 * `cel.StandardMacros`, which environments such as Kubernetes' use.
 */
export const EXISTS_ONE_MACRO: Macro = { name: "existsOne", argCount: 2, receiver: true, expand: oneVarQuant("existsOne") };

/** `ext.TwoVarComprehensions` macros. */
export const TWO_VAR_MACROS: readonly Macro[] = [
  { name: "all", argCount: 3, receiver: true, expand: twoVarQuant("all") },
  { name: "exists", argCount: 3, receiver: true, expand: twoVarQuant("exists") },
  { name: "existsOne", argCount: 3, receiver: true, expand: twoVarQuant("existsOne") },
  { name: "transformList", argCount: 3, receiver: true, expand: transform("list") },
  { name: "transformList", argCount: 4, receiver: true, expand: transform("list") },
  { name: "transformMap", argCount: 3, receiver: true, expand: transform("map") },
  { name: "transformMap", argCount: 4, receiver: true, expand: transform("map") },
  { name: "transformMapEntry", argCount: 3, receiver: true, expand: transform("entry") },
  { name: "transformMapEntry", argCount: 4, receiver: true, expand: transform("entry") },
];

/** Macro lookup key (cel-go `makeMacroKey`). */
export function macroKey(name: string, argCount: number, receiver: boolean): string {
  return `${name}:${argCount < 0 ? "*" : argCount}:${receiver}`;
}
