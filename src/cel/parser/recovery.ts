/**
 * Follow sets of cel-go's ANTLR grammar (CEL.g4) for the parser's error recovery, as ANTLR's
 * `DefaultErrorStrategy` computes them from the rule-invocation stack:
 *
 * - the recovery set of `recover` (`getErrorRecoverySet`): the union, over every rule invocation from
 *   the failing rule up to `start`, of the tokens that may follow that invocation in its caller;
 * - the token set of `singleTokenInsertion` (`nextTokens(state, ctx)`): the tokens that may follow the
 *   missing token, up the invocation stack while a rule may end there.
 *
 * The parser keeps one frame per `expr` invocation: how it was invoked ({@link Via}) and which part of
 * the conditional it is in ({@link Part}). Between an `expr` and a `primary` the grammar always passes
 * conditionalOr → conditionalAnd → relation → calc → unary → member → primary ({@link Level}).
 *
 * @module
 */
import type { TokenKind } from "./lexer.js";

/** Where an `expr` was invoked from. */
export const Via = {
  /** `start: expr EOF` */
  Start: 0,
  /** `primary: '(' expr ')'` */
  Paren: 1,
  /** `primary: IDENTIFIER '(' exprList ')'` */
  GlobalArg: 2,
  /** `member: member '.' IDENTIFIER '(' exprList ')'` */
  MemberArg: 3,
  /** `member: member '[' '?'? expr ']'` */
  Index: 4,
  /** `listInit: optExpr (',' optExpr)*` in `primary: '[' listInit? ','? ']'` */
  ListElem: 5,
  /** the key `optExpr` of `mapInitializerList` */
  MapKey: 6,
  /** the value `expr` of `mapInitializerList` */
  MapValue: 7,
  /** the value `expr` of `fieldInitializerList` */
  FieldValue: 8,
  /** `expr: conditionalOr '?' conditionalOr ':' expr` (the else part) */
  Else: 9,
} as const;
export type Via = (typeof Via)[keyof typeof Via];

/** The part of `expr: e=conditionalOr ('?' e1=conditionalOr ':' e2=expr)?` being parsed. */
export const Part = {
  Cond: 0,
  True: 1,
} as const;
export type Part = (typeof Part)[keyof typeof Part];

/** A rule invocation level inside one `expr` frame, from the innermost. */
export const Level = {
  /** `primary` invoked by `member` */
  Primary: 0,
  /** `member` invoked by `unary` */
  Member: 1,
  /** `unary` invoked by `calc` */
  Unary: 2,
  /** `calc` invoked by `relation` */
  Calc: 3,
  /** `relation` invoked by `conditionalAnd` */
  Relation: 4,
  /** `conditionalAnd` invoked by `conditionalOr` */
  And: 5,
  /** `conditionalOr` invoked by `expr` */
  Or: 6,
  /** the `expr` itself, invoked as its {@link Via} says */
  Expr: 7,
} as const;
export type Level = (typeof Level)[keyof typeof Level];

/** Tokens following one invocation, and whether the invoking rule may end there (ANTLR's epsilon). */
interface Follow {
  readonly tokens: readonly TokenKind[];
  readonly nullable: boolean;
}

const LEVEL_FOLLOW: readonly Follow[] = [
  { tokens: [".", "["], nullable: true },
  { tokens: [], nullable: true },
  { tokens: ["*", "/", "%", "+", "-"], nullable: true },
  { tokens: ["<", "<=", ">=", ">", "==", "!=", "in"], nullable: true },
  { tokens: ["&&"], nullable: true },
  { tokens: ["||"], nullable: true },
];
const COND_FOLLOW: Follow = { tokens: ["?"], nullable: true };
const TRUE_FOLLOW: Follow = { tokens: [":"], nullable: false };

/** For each {@link Via}: the follows of the invocations up to the enclosing frame, and the level it continues at. */
const VIA_FOLLOW: readonly { readonly follows: readonly Follow[]; readonly parent: Level | undefined }[] = [
  { follows: [{ tokens: ["EOF"], nullable: false }], parent: undefined },
  { follows: [{ tokens: [")"], nullable: false }], parent: Level.Primary },
  { follows: [{ tokens: [","], nullable: true }, { tokens: [")"], nullable: false }], parent: Level.Primary },
  { follows: [{ tokens: [","], nullable: true }, { tokens: [")"], nullable: false }], parent: Level.Member },
  { follows: [{ tokens: ["]"], nullable: false }], parent: Level.Member },
  {
    follows: [
      { tokens: [], nullable: true },
      { tokens: [","], nullable: true },
      { tokens: [",", "]"], nullable: false },
    ],
    parent: Level.Primary,
  },
  {
    follows: [
      { tokens: [], nullable: true },
      { tokens: [":"], nullable: false },
      { tokens: [",", "}"], nullable: false },
    ],
    parent: Level.Primary,
  },
  { follows: [{ tokens: [","], nullable: true }, { tokens: [",", "}"], nullable: false }], parent: Level.Primary },
  { follows: [{ tokens: [","], nullable: true }, { tokens: [",", "}"], nullable: false }], parent: Level.Primary },
  { follows: [{ tokens: [], nullable: true }], parent: Level.Expr },
];

/** The invocation stack: frame `d` (1 = outermost) was invoked as `via[d]` and is in part `part[d]`. */
export interface Frames {
  readonly via: readonly Via[];
  readonly part: readonly Part[];
}

/**
 * Walks the follows from `level` of frame `depth` outwards, calling `visit` for each; stops when
 * `visit` returns false.
 */
function walk(f: Frames, depth: number, level: Level, visit: (x: Follow) => boolean): void {
  let d = depth;
  let l: Level | undefined = level;
  while (d >= 1 && l !== undefined) {
    for (let i: number = l; i < Level.Or; i++) if (!visit(LEVEL_FOLLOW[i] as Follow)) return;
    if (l <= Level.Or && !visit(f.part[d] === Part.True ? TRUE_FOLLOW : COND_FOLLOW)) return;
    const v = VIA_FOLLOW[f.via[d] as Via] as (typeof VIA_FOLLOW)[number];
    for (const x of v.follows) if (!visit(x)) return;
    l = v.parent;
    d--;
  }
}

/** ANTLR's `getErrorRecoverySet` for a rule failing at `level` of frame `depth`. */
export function recoverySet(f: Frames, depth: number, level: Level): Set<TokenKind> {
  const out = new Set<TokenKind>();
  walk(f, depth, level, (x) => {
    for (const t of x.tokens) out.add(t);
    return true;
  });
  return out;
}

/**
 * ANTLR's `nextTokens(state, ctx)` where the rule at `level` of frame `depth` may end next (after
 * `local` tokens of its own): the tokens that may come next.
 */
export function followingTokens(f: Frames, depth: number, level: Level, local: readonly TokenKind[] = []): Set<TokenKind> {
  const out = new Set<TokenKind>(local);
  walk(f, depth, level, (x) => {
    for (const t of x.tokens) out.add(t);
    return x.nullable;
  });
  return out;
}
