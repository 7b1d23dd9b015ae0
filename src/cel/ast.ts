/**
 * STABLE API for CEL-B — the CEL abstract syntax tree (cel-go's `ast.Expr` shape).
 *
 * After publication this file only changes additively. Every node has a unique
 * numeric `id` (assigned in creation order starting at 1, like cel-go); source
 * offsets live in {@link SourceInfo.positions}, keyed by id, counted in Unicode
 * code points (cel-go counts runes), never UTF-16 units.
 *
 * Macros (`has`, `all`, `exists`, `exists_one`, `map`, `filter`, the two-variable
 * forms) are expanded by the parser exactly as cel-go does: `has(a.b)` becomes a
 * {@link SelectExpr} with `testOnly: true`; the others become a
 * {@link ComprehensionExpr}. The original call is kept in
 * {@link SourceInfo.macroCalls} under the id of the expanded node.
 *
 * Optional syntax is represented as in cel-go: `a.?b` is the call
 * `_?._(a, "b")`, `a[?b]` is the call `_[?_](a, b)`, `[?x]` sets an index in
 * {@link ListExpr.optionalIndices}, `{?k: v}` sets {@link MapEntry.optional}.
 *
 * @module
 */

/** A literal value as written in the source. */
export type Constant =
  | { readonly kind: "null" }
  | { readonly kind: "bool"; readonly value: boolean }
  | { readonly kind: "int"; readonly value: bigint }
  | { readonly kind: "uint"; readonly value: bigint }
  | { readonly kind: "double"; readonly value: number }
  | { readonly kind: "string"; readonly value: string }
  | { readonly kind: "bytes"; readonly value: Uint8Array };

/** A literal (`1`, `2u`, `3.0`, `"s"`, `b"x"`, `true`, `null`). */
export interface ConstExpr {
  readonly kind: "const";
  readonly id: number;
  readonly value: Constant;
}

/** A (possibly dotted, when produced by the checker) identifier reference. */
export interface IdentExpr {
  readonly kind: "ident";
  readonly id: number;
  readonly name: string;
}

/** Field selection `operand.field`; `testOnly` marks the `has(operand.field)` macro. */
export interface SelectExpr {
  readonly kind: "select";
  readonly id: number;
  readonly operand: Expr;
  readonly field: string;
  readonly testOnly: boolean;
}

/**
 * A function call. Operators use cel-go's internal names (`_+_`, `_&&_`, `!_`,
 * `-_`, `_[_]`, `_?_:_`, `@in`, `_?._`, `_[?_]`, `@not_strictly_false`).
 * `target` is set for receiver-style calls (`a.f(b)`).
 */
export interface CallExpr {
  readonly kind: "call";
  readonly id: number;
  readonly function: string;
  readonly target?: Expr;
  readonly args: readonly Expr[];
}

/** List literal; `optionalIndices` lists element positions written as `?e`. */
export interface ListExpr {
  readonly kind: "list";
  readonly id: number;
  readonly elements: readonly Expr[];
  readonly optionalIndices: readonly number[];
}

/** One `key: value` entry of a map literal (has its own id, like cel-go). */
export interface MapEntry {
  readonly id: number;
  readonly key: Expr;
  readonly value: Expr;
  readonly optional: boolean;
}

/** Map literal `{k: v, ?k2: v2}`. */
export interface MapExpr {
  readonly kind: "map";
  readonly id: number;
  readonly entries: readonly MapEntry[];
}

/** One `field: value` initializer of a message construction. */
export interface StructField {
  readonly id: number;
  readonly field: string;
  readonly value: Expr;
  readonly optional: boolean;
}

/** Message construction `a.b.Msg{field: v}` (parsed; not evaluable without types). */
export interface StructExpr {
  readonly kind: "struct";
  readonly id: number;
  readonly messageName: string;
  readonly fields: readonly StructField[];
}

/**
 * A fold over `iterRange` (cel-go `ComprehensionExpr`). With `iterVar2` set it is a
 * two-variable comprehension: over a list (`iterVar` = index, `iterVar2` = element)
 * or a map (`iterVar` = key, `iterVar2` = value).
 */
export interface ComprehensionExpr {
  readonly kind: "comprehension";
  readonly id: number;
  readonly iterVar: string;
  readonly iterVar2?: string;
  readonly iterRange: Expr;
  readonly accuVar: string;
  readonly accuInit: Expr;
  readonly loopCondition: Expr;
  readonly loopStep: Expr;
  readonly result: Expr;
}

/** Any CEL expression node. */
export type Expr =
  | ConstExpr
  | IdentExpr
  | SelectExpr
  | CallExpr
  | ListExpr
  | MapExpr
  | StructExpr
  | ComprehensionExpr;

/** Kind tag of {@link Expr}. */
export type ExprKind = Expr["kind"];

/** 1-based line and 0-based column (code points), as cel-go reports them. */
export interface SourceLocation {
  readonly line: number;
  readonly column: number;
}

/**
 * Source metadata of a parsed expression (cel-go `ast.SourceInfo` + `common.Source`).
 * All offsets are code-point offsets into `source`.
 */
export interface SourceInfo {
  /** Description used in messages, `<input>` by default. */
  readonly description: string;
  /** The expression text. */
  readonly source: string;
  /** Code-point offsets of the start of every line after the first (cel-go `LineOffsets`). */
  readonly lineOffsets: readonly number[];
  /** Node id → code-point offset of the node's start token. */
  readonly positions: Map<number, number>;
  /** Expanded node id → original macro call (args may reference expanded sub-nodes). */
  readonly macroCalls: Map<number, Expr>;
}

/** A parsed expression: the root node plus its source info. */
export interface ParsedAst {
  readonly expr: Expr;
  readonly sourceInfo: SourceInfo;
}

/** Name of the accumulator variable used by macro expansions (cel-go `@result`). */
export const ACCUMULATOR_NAME = "@result";

/**
 * Line (1-based) and column (0-based, code points) of a code-point offset,
 * computed like cel-go's `Source.OffsetLocation`.
 */
export function offsetLocation(info: SourceInfo, offset: number): SourceLocation {
  const lo = info.lineOffsets;
  // binary search: number of line starts <= offset
  let a = 0;
  let b = lo.length;
  while (a < b) {
    const m = (a + b) >> 1;
    if ((lo[m] as number) <= offset) a = m + 1;
    else b = m;
  }
  const lineStart = a === 0 ? 0 : (lo[a - 1] as number);
  return { line: a + 1, column: offset - lineStart };
}

/** Location of the node with `id`, or `undefined` when the node has no recorded position. */
export function exprLocation(info: SourceInfo, id: number): SourceLocation | undefined {
  const off = info.positions.get(id);
  return off === undefined ? undefined : offsetLocation(info, off);
}

/**
 * cel-go `LineOffsets`: the code-point offset of the start of every line after the
 * first, followed by a final entry `length + 1`.
 */
export function computeLineOffsets(source: string): number[] {
  const out: number[] = [];
  let cp = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < source.length) {
      const d = source.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    cp++;
    if (c === 10) out.push(cp);
  }
  out.push(cp + 1);
  return out;
}

/** Depth-first visit of `expr` and its children (pre-order); iterative, safe on deep trees. */
export function visitExpr(expr: Expr, fn: (e: Expr) => void): void {
  const stack: Expr[] = [expr];
  while (stack.length > 0) {
    const e = stack.pop() as Expr;
    fn(e);
    const kids = childrenOf(e);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i] as Expr);
  }
}

/** Direct children of a node, in source order. */
export function childrenOf(e: Expr): Expr[] {
  switch (e.kind) {
    case "const":
    case "ident":
      return [];
    case "select":
      return [e.operand];
    case "call":
      return e.target ? [e.target, ...e.args] : [...e.args];
    case "list":
      return [...e.elements];
    case "map":
      return e.entries.flatMap((en) => [en.key, en.value]);
    case "struct":
      return e.fields.map((f) => f.value);
    case "comprehension":
      return [e.iterRange, e.accuInit, e.loopCondition, e.loopStep, e.result];
  }
}
