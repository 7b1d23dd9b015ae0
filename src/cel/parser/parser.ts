/**
 * CEL parser: recursive descent over the cel-go grammar (`CEL.g4`) producing the
 * cel-go-shaped AST of `../ast.ts`, with macro expansion, cel-go's literal
 * checks, reserved identifiers, optional syntax and recursion limits.
 *
 * Never throws on bad input: problems come back as {@link CelIssue}s.
 *
 * @module
 */

import type { Constant, Expr, MapEntry, ParsedAst, SourceInfo, StructField } from "../ast.js";
import { ACCUMULATOR_NAME, computeLineOffsets } from "../ast.js";
import type { CelIssue } from "./issues.js";
import { formatIssues } from "./issues.js";
import type { Token, TokenKind } from "./lexer.js";
import { BINARY_OPERATORS, lexPooled, releaseTokens, toCodePoints } from "./lexer.js";
import type { Macro, MacroExprHelper } from "./macros.js";
import { LISTS_MACROS, OPTIONAL_MACROS, STANDARD_MACROS, TWO_VAR_MACROS } from "./macros.js";
import { IdMap } from "../id-map.js";
import { type Frames, Level, Part, Via, followingTokens, recoverySet } from "./recovery.js";
import { unescapeLiteral } from "./unescape.js";

/** Parser options (cel-go `parser.Option`s). */
/** Parser options (every option is part of {@link ParseCache}'s key: add new ones there too). */
export interface ParseOptions {
  /** Description used in error messages; default `<input>`. */
  readonly description?: string;
  /** Macros to expand; default standard + two-variable comprehension macros. */
  readonly macros?: readonly Macro[];
  /** cel-go `MaxRecursionDepth`; default 250. */
  readonly maxRecursionDepth?: number;
  /** cel-go `ExpressionSizeCodePointLimit`; default 100000. */
  readonly expressionSizeCodePointLimit?: number;
  /** `.?`, `[?`, `{?k: v}`, `[?e]` syntax; default true. */
  readonly enableOptionalSyntax?: boolean;
  /** Backtick-quoted identifiers (`` a.`b-c` ``); default true (cel-go v0.29.2's parser default). */
  readonly enableIdentEscapeSyntax?: boolean;
}

/** Result of {@link parse}: an AST when there were no errors, plus the issues. */
export interface ParseResult {
  readonly ast?: ParsedAst;
  readonly issues: readonly CelIssue[];
  readonly sourceInfo: SourceInfo;
  /** Formatted issues in cel-go's display format ("" when none). */
  readonly errorText: string;
}

const RESERVED = new Set([
  "as",
  "break",
  "const",
  "continue",
  "else",
  "false",
  "for",
  "function",
  "if",
  "import",
  "in",
  "let",
  "loop",
  "namespace",
  "null",
  "package",
  "return",
  "true",
  "var",
  "void",
  "while",
]);

/** First letters of the reserved words (most identifiers need no set lookup). */
const RESERVED_FIRST = new Uint8Array(128);
for (const w of RESERVED) RESERVED_FIRST[w.charCodeAt(0)] = 1;

function isReserved(name: string): boolean {
  const c = name.charCodeAt(0);
  return c < 128 && RESERVED_FIRST[c] === 1 && RESERVED.has(name);
}

const EXPR_START =
  "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";
const MAP_START =
  "{'[', '{', '}', '(', '.', ',', '-', '!', '?', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";
const FIELD_START = "{'}', ',', '?', IDENTIFIER, ESC_IDENTIFIER}";
/** The tokens after `[` of an index (`'?'? expr`) and after `[` of a list (`listInit? ','? ']'`). */
const INDEX_START =
  "{'[', '{', '(', '.', '-', '!', '?', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";
const LIST_START =
  "{'[', ']', '{', '(', '.', ',', '-', '!', '?', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";
const ARGS_START =
  "{'[', '{', '(', ')', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";
/** The tokens continuing a `member` after a selection, call or index. */
const MEMBER_LOOP: readonly TokenKind[] = [".", "["];
const START_KINDS = new Set<TokenKind>([
  "[",
  "{",
  "(",
  ".",
  "-",
  "!",
  "true",
  "false",
  "null",
  "NUM_FLOAT",
  "NUM_INT",
  "NUM_UINT",
  "STRING",
  "BYTES",
  "IDENTIFIER",
]);
const INDEX_START_KINDS = new Set<TokenKind>([...START_KINDS, "?"]);
const LIST_START_KINDS = new Set<TokenKind>([...START_KINDS, "?", "]", ","]);
const MAP_START_KINDS = new Set<TokenKind>([...START_KINDS, "?", "}", ","]);

class SyntaxStop extends Error {}

/** A binary operator of the relation / addition / multiplication levels: its function and precedence. */
interface BinaryOp {
  readonly fn: string;
  /** 1 relation, 2 addition, 3 multiplication (all left-associative). */
  readonly prec: number;
}
const BINARY_BY_KIND: Partial<Record<TokenKind, BinaryOp>> = {
  "<": { fn: "_<_", prec: 1 },
  "<=": { fn: "_<=_", prec: 1 },
  ">=": { fn: "_>=_", prec: 1 },
  ">": { fn: "_>_", prec: 1 },
  "==": { fn: "_==_", prec: 1 },
  "!=": { fn: "_!=_", prec: 1 },
  in: { fn: "@in", prec: 1 },
  "+": { fn: "_+_", prec: 2 },
  "-": { fn: "_-_", prec: 2 },
  "*": { fn: "_*_", prec: 3 },
  "/": { fn: "_/_", prec: 3 },
  "%": { fn: "_%_", prec: 3 },
};
/** The operators by {@link Token.op} (index 0: not a binary operator). */
const BINARY_OPS: readonly (BinaryOp | undefined)[] = [undefined, ...BINARY_OPERATORS.map((k) => BINARY_BY_KIND[k])];

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

const MAX_SYNTAX_ERRORS = 100;
/** cel-go's default `errorRecoveryLimit` and `errorRecoveryTokenLookaheadLimit` (Kubernetes keeps them). */
const RECOVERY_LIMIT = 30;
const LOOKAHEAD_LIMIT = 256;
const DEFAULT_MACROS = [...STANDARD_MACROS, ...TWO_VAR_MACROS, ...OPTIONAL_MACROS, ...LISTS_MACROS];

interface MacroTable {
  /** Macros by name, in declaration order. */
  readonly byName: ReadonlyMap<string, readonly Macro[]>;
  /** Whether a macro is named like a binary operator's function (else those calls skip the lookup). */
  readonly binaryOperatorMacros: boolean;
}

const macroTables = new WeakMap<readonly Macro[], MacroTable>();

/** Macro lookup tables, cached per macro list. */
function macroTable(macros: readonly Macro[]): MacroTable {
  let t = macroTables.get(macros);
  if (t === undefined) {
    const byName = new Map<string, Macro[]>();
    for (const m of macros) {
      const list = byName.get(m.name);
      if (list === undefined) byName.set(m.name, [m]);
      else list.push(m);
    }
    const binaryOperatorMacros = BINARY_OPS.some((op) => op !== undefined && byName.has(op.fn));
    t = { byName, binaryOperatorMacros };
    macroTables.set(macros, t);
  }
  return t;
}

/**
 * The macro for a call with `argCount` arguments: the last declared one of that arity and call
 * style, else the last variadic one (a later declaration with the same key replaces an earlier one).
 */
function findMacro(candidates: readonly Macro[], argCount: number, receiver: boolean): Macro | undefined {
  let exact: Macro | undefined;
  let variadic: Macro | undefined;
  for (let i = 0; i < candidates.length; i++) {
    const m = candidates[i] as Macro;
    if (m.receiver !== receiver) continue;
    if (m.argCount === argCount) exact = m;
    else if (m.argCount === -1) variadic = m;
  }
  return exact ?? variadic;
}

/** Node factories for macro expansion; every node it creates gets its id at `offset`. */
class Helper implements MacroExprHelper {
  offset = -1;
  constructor(private readonly parser: { newId(offset: number): number }) {}
  private nid(): number {
    return this.parser.newId(this.offset);
  }
  private copyAll(es: readonly Expr[]): Expr[] {
    const out: Expr[] = new Array(es.length);
    for (let i = 0; i < es.length; i++) out[i] = this.copy(es[i] as Expr);
    return out;
  }
  copy(e: Expr): Expr {
    switch (e.kind) {
      case "const":
      case "ident":
        return { ...e, id: this.nid() };
      case "select":
        return { ...e, id: this.nid(), operand: this.copy(e.operand) };
      case "call":
        return e.target
          ? { ...e, id: this.nid(), target: this.copy(e.target), args: this.copyAll(e.args) }
          : { ...e, id: this.nid(), args: this.copyAll(e.args) };
      case "list":
        return { ...e, id: this.nid(), elements: this.copyAll(e.elements) };
      case "map": {
        const id = this.nid();
        const entries: MapEntry[] = [];
        for (const en of e.entries) entries.push({ ...en, id: this.nid(), key: this.copy(en.key), value: this.copy(en.value) });
        return { ...e, id, entries };
      }
      case "struct": {
        const id = this.nid();
        const fields: StructField[] = [];
        for (const f of e.fields) fields.push({ ...f, id: this.nid(), value: this.copy(f.value) });
        return { ...e, id, fields };
      }
      case "comprehension":
        return {
          ...e,
          id: this.nid(),
          iterRange: this.copy(e.iterRange),
          accuInit: this.copy(e.accuInit),
          loopCondition: this.copy(e.loopCondition),
          loopStep: this.copy(e.loopStep),
          result: this.copy(e.result),
        };
    }
  }
  memberCall(fn: string, target: Expr, ...args: Expr[]): Expr {
    return { kind: "call", id: this.nid(), function: fn, target, args };
  }
  bind(name: string, init: Expr, result: Expr): Expr {
    return {
      kind: "comprehension",
      id: this.nid(),
      iterVar: "#unused",
      iterRange: { kind: "list", id: this.nid(), elements: [], optionalIndices: [] },
      accuVar: name,
      accuInit: init,
      loopCondition: { kind: "const", id: this.nid(), value: { kind: "bool", value: false } },
      loopStep: { kind: "ident", id: this.nid(), name },
      result,
    };
  }
  literal(value: Constant): Expr {
    return { kind: "const", id: this.nid(), value };
  }
  ident(name: string): Expr {
    return { kind: "ident", id: this.nid(), name };
  }
  accuIdent(): Expr {
    return { kind: "ident", id: this.nid(), name: ACCUMULATOR_NAME };
  }
  list(...elements: Expr[]): Expr {
    return { kind: "list", id: this.nid(), elements, optionalIndices: [] };
  }
  map(): Expr {
    return { kind: "map", id: this.nid(), entries: [] };
  }
  call(fn: string, ...args: Expr[]): Expr {
    return { kind: "call", id: this.nid(), function: fn, args };
  }
  presenceTest(operand: Expr, field: string): Expr {
    return { kind: "select", id: this.nid(), operand, field, testOnly: true };
  }
  comprehension(
    iterRange: Expr,
    iterVar: string,
    iterVar2: string | undefined,
    accuInit: Expr,
    loopCondition: Expr,
    loopStep: Expr,
    result: Expr,
  ): Expr {
    const base = {
      kind: "comprehension" as const,
      id: this.nid(),
      iterVar,
      iterRange,
      accuVar: ACCUMULATOR_NAME,
      accuInit,
      loopCondition,
      loopStep,
      result,
    };
    return iterVar2 === undefined ? base : { ...base, iterVar2 };
  }
}

class Parser {
  private pos = 0;
  /** Index of the final EOF token. */
  private readonly last: number;
  private nextId = 1;
  /**
   * Offsets by node id (`undefined`: none), written once per node in ascending id order: a plain array
   * store per node in V8's lower tiers; {@link positionMap} wraps it as the result's `Map` at the end.
   */
  private readonly offsets: (number | undefined)[] = [];
  /** How many ids of {@link offsets} hold an offset. */
  private posCount = 0;
  readonly macroCalls = new Map<number, Expr>();
  readonly issues: CelIssue[] = [];
  private readonly macros: MacroTable;
  private exprDepth = 0;
  private readonly vdepth: number[] = [];
  private readonly maxDepth: number;
  private readonly optional: boolean;
  private readonly escIdents: boolean;
  private macroHelper: Helper | undefined;
  // ---- ANTLR's error recovery (DefaultErrorStrategy; follow sets in recovery.ts)
  /** How each `expr` (by depth, 1 = outermost) was invoked, and which part of its conditional is parsed. */
  private readonly frameVia: Via[] = [];
  private readonly framePart: Part[] = [];
  /** The token index where error-recovery mode began: ANTLR reports no error until a token is matched. */
  private recoverAt = -1;
  /** ANTLR's `lastErrorIndex` / `lastErrorStates` (match sites here). */
  private lastErrorIndex = -1;
  private lastErrorSites: string[] = [];
  /** Set when a `member` rule recovered from an error: ANTLR's rule returns, no further selection. */
  private memberEnded = false;
  /** The token index of the operand of a `!` / `-` run (its primary recovers in the primary rule). */
  private unaryOperandAt = -1;
  /** cel-go's count of `Recover` / `RecoverInline` calls (its limit: {@link RECOVERY_LIMIT}). */
  private recoveryAttempts = 0;

  constructor(
    private readonly tokens: readonly Token[],
    count: number,
    opts: ParseOptions,
    /** The source, and its code points when it has surrogates (token offsets count code points). */
    private readonly source: string,
    private readonly cps: readonly number[] | undefined,
  ) {
    this.last = count - 1;
    this.macros = macroTable(opts.macros ?? DEFAULT_MACROS);
    this.maxDepth = opts.maxRecursionDepth ?? 250;
    this.optional = opts.enableOptionalSyntax ?? true;
    this.escIdents = opts.enableIdentEscapeSyntax ?? true;
  }

  // ---- token helpers
  // The current token is read as `this.tokens[this.pos]` in place (`pos` never passes the final EOF):
  // a helper call per read costs in V8's lower tiers, where short runs parse their rules.
  /** The token `k` ahead (the final EOF when past the end). */
  private peekAt(k: number): Token {
    return this.tokens[Math.min(this.pos + k, this.last)] as Token;
  }
  private next(): Token {
    const t = this.tokens[this.pos] as Token;
    if (this.pos < this.last) this.pos++;
    return t;
  }
  private syntax(t: Token, msg: string): never {
    // in recovery mode ANTLR reports nothing; the rest of the expression is not parsed here
    if (this.pos !== this.recoverAt) this.issues.push({ message: `Syntax error: ${msg}`, offset: t.start, exprId: 0 });
    throw new SyntaxStop();
  }

  /**
   * ANTLR's `no viable alternative at input '…'`: the source from the token where the decision began
   * through the offending one, hidden whitespace and comments included (up to EOF, without it).
   */
  private noViableAlt(from: Token, at: Token): string {
    const end = at.kind === "EOF" ? at.start : at.end;
    const text = this.cps === undefined ? this.source.slice(from.start, end) : String.fromCodePoint(...this.cps.slice(from.start, end));
    return `no viable alternative at input '${text.replace(/\n/g, "\\n").replace(/\r/g, "\\r").replace(/\t/g, "\\t")}'`;
  }

  /** ANTLR's `reportError` (nothing while in recovery mode), entering recovery mode. */
  private syntaxError(t: Token, msg: string): void {
    if (this.pos !== this.recoverAt) {
      // a token was matched since the last recovery (or there was none): ANTLR's endErrorCondition
      this.lastErrorIndex = -1;
      this.lastErrorSites = [];
      this.issues.push({ message: `Syntax error: ${msg}`, offset: t.start, exprId: 0 });
      if (this.issues.length > 100) throw new SyntaxStop();
    }
    this.recoverAt = this.pos;
  }

  /**
   * ANTLR's `match(kind)` with `recoverInline`: matches the token; else deletes one extraneous token
   * when the next one is `kind`; else conjures the missing token when the current one may follow it (see
   * {@link recoverInline}); else reports the mismatch and returns false (the caller's rule recovers).
   */
  private matchInline(kind: TokenKind, level?: Level, local?: readonly TokenKind[]): boolean {
    const t = this.tokens[this.pos] as Token;
    if (t.kind === kind) {
      this.next();
      return true;
    }
    return this.recoverInline(t, kind, level, local);
  }

  /**
   * {@link matchInline} when the token is not `kind`: the follow set is that of the rule at `level` of the
   * current frame after `local` (undefined `level`: an expression's first tokens), computed only here so
   * that a match costs no closure or set.
   */
  private recoverInline(t: Token, kind: TokenKind, level: Level | undefined, local: readonly TokenKind[] | undefined): boolean {
    const expecting = `'${kind}'`;
    this.countRecovery();
    if (t.kind !== "EOF" && this.peekAt(1).kind === kind) {
      this.syntaxError(t, `extraneous input '${t.text}' expecting ${expecting}`);
      this.next();
      this.next();
      return true;
    }
    if ((level === undefined ? START_KINDS : this.following(level, local)).has(t.kind)) {
      this.syntaxError(t, `missing ${expecting} at '${t.text}'`);
      return true;
    }
    this.syntaxError(t, `mismatched input '${t.text}' expecting ${expecting}`);
    return false;
  }

  /**
   * ANTLR's `recover` in the rule at `level` of the current frame (or in a rule it invoked, followed there
   * by `local`): skips to a token of the recovery set.
   */
  private recover(site: string, level: Level, local?: readonly TokenKind[]): void {
    this.countRecovery();
    // cel-go lets one recovery consume at most LOOKAHEAD_LIMIT tokens, then stops the parse
    let consumed = 0;
    const consume = (): void => {
      if (consumed++ >= LOOKAHEAD_LIMIT) {
        this.issues.push({ message: `error recovery token lookahead limit exceeded: ${LOOKAHEAD_LIMIT}`, offset: -1, exprId: 0 });
        throw new SyntaxStop();
      }
      this.pos++;
    };
    if (this.lastErrorIndex === this.pos && this.lastErrorSites.includes(site) && this.pos < this.last) consume();
    this.lastErrorIndex = this.pos;
    this.lastErrorSites.push(site);
    const set = recoverySet(this.frames(), this.exprDepth, level);
    if (local !== undefined) for (const k of local) set.add(k);
    while (this.pos < this.last && !set.has((this.tokens[this.pos] as Token).kind)) consume();
    this.recoverAt = this.pos;
  }

  /** cel-go's `checkAttempts`: the RECOVERY_LIMIT-th recovery reports the limit and stops the parse. */
  private countRecovery(): void {
    if (this.recoveryAttempts++ === RECOVERY_LIMIT) {
      const t = this.tokens[this.pos] as Token;
      if (this.issues.length <= MAX_SYNTAX_ERRORS) {
        this.issues.push({ message: `Syntax error: error recovery attempt limit exceeded: ${RECOVERY_LIMIT}`, offset: t.start, exprId: 0 });
      }
      throw new SyntaxStop();
    }
  }

  /** The tokens that may follow when the rule at `level` of the current frame ends after `local`. */
  private following(level: Level, local?: readonly TokenKind[]): Set<TokenKind> {
    return followingTokens(this.frames(), this.exprDepth, level, local);
  }

  private frames(): Frames {
    return { via: this.frameVia, part: this.framePart };
  }
  /** ANTLR single-token deletion: if the token after the current one fits, report it as extraneous and skip it. */
  private deleteExtraneous(expecting: string, fits: (k: TokenKind) => boolean): boolean {
    // in recovery mode: not emulated, the rest of the expression is not parsed here
    if (this.pos === this.recoverAt) throw new SyntaxStop();
    const t = (this.tokens[this.pos] as Token);
    if (t.kind === "EOF" || !fits(this.peekAt(1).kind)) return false;
    this.issues.push({ message: `Syntax error: extraneous input '${t.text}' expecting ${expecting}`, offset: t.start, exprId: 0 });
    if (this.issues.length > 100) throw new SyntaxStop();
    this.next();
    return true;
  }
  /**
   * After the `?` of an optional element or entry: ANTLR's sync at the start of its `unary` deletes one
   * extraneous token when an operand follows (`[?, 2]`: extraneous input ','); false when none does.
   */
  private deleteBeforeOperand(): boolean {
    return this.pos !== this.recoverAt && this.deleteExtraneous(EXPR_START, (k) => START_KINDS.has(k));
  }
  private mismatch(expecting: string): never {
    const t = (this.tokens[this.pos] as Token);
    const nxt = this.peekAt(1);
    // ANTLR single-token deletion: "extraneous input" when the following token fits
    const extraneous = t.kind !== "EOF" && expecting === "<EOF>" && nxt.kind === "EOF";
    this.syntax(t, `${extraneous ? "extraneous" : "mismatched"} input '${t.text}' expecting ${expecting}`);
  }
  // ---- node factories
  private id(offset: number): number {
    const id = this.nextId++;
    this.offsets[id] = offset;
    this.posCount++;
    return id;
  }
  private deletePosition(id: number): void {
    if (this.offsets[id] === undefined) return;
    this.offsets[id] = undefined;
    this.posCount--;
  }
  /** The offsets by node id as a `Map` (an {@link IdMap} over {@link offsets}). */
  positionMap(): IdMap<number> {
    return IdMap.ascending(this.offsets, this.posCount, this.nextId > 1 ? this.nextId - 1 : -1);
  }
  private report(message: string, offset: number): Expr {
    const id = this.id(offset);
    this.issues.push({ message, offset, exprId: id });
    return { kind: "const", id, value: { kind: "string", value: "<<error>>" } };
  }
  private depthOf(e: Expr): number {
    return this.vdepth[e.id] ?? 0;
  }
  /** Tracks cel-go's visitor recursion depth for left-deep chains (children `a`, `b`, `c`). */
  private deepen(e: Expr, a: Expr, b?: Expr, c?: Expr): Expr {
    const vdepth = this.vdepth;
    let d = vdepth[a.id] ?? 0;
    if (b !== undefined) {
      const db = vdepth[b.id] ?? 0;
      if (db > d) d = db;
    }
    if (c !== undefined) {
      const dc = vdepth[c.id] ?? 0;
      if (dc > d) d = dc;
    }
    if (d + 1 > this.maxDepth) return this.setDepth(e, d + 1);
    vdepth[e.id] = d + 1;
    return e;
  }
  /** {@link deepen} with children `first` and `rest`. */
  private deepenAll(e: Expr, first: Expr, rest: readonly Expr[]): Expr {
    let d = this.depthOf(first);
    for (let i = 0; i < rest.length; i++) d = Math.max(d, this.depthOf(rest[i] as Expr));
    return this.setDepth(e, d + 1);
  }
  private setDepth(e: Expr, d: number): Expr {
    if (d > this.maxDepth) {
      this.issues.push({ message: "max recursion depth exceeded", offset: -1, exprId: 0 });
      throw new SyntaxStop();
    }
    this.vdepth[e.id] = d;
    return e;
  }
  private call(id: number, fn: string, args: Expr[], target?: Expr): Expr {
    return target === undefined
      ? { kind: "call", id, function: fn, args }
      : { kind: "call", id, function: fn, target, args };
  }

  private callOrMacro(id: number, fn: string, args: Expr[], target?: Expr): Expr {
    const candidates = this.macros.byName.get(fn);
    const m = candidates === undefined ? undefined : findMacro(candidates, args.length, target !== undefined);
    if (m) {
      const offset = this.offsets[id] ?? -1;
      const h = this.helper(offset);
      const r = m.expand(h, target, args);
      if (r !== undefined) {
        this.deletePosition(id);
        if ("macroError" in r) {
          const argOffset = this.offsets[r.exprId];
          if (argOffset === -1) {
            // at an argument that failed to parse, which cel-go builds without a location
            const id = this.id(-1);
            this.issues.push({ message: r.macroError, offset: -1, exprId: id, atExprWithoutOffset: true });
            return { kind: "const", id, value: { kind: "string", value: "<<error>>" } };
          }
          return this.report(r.macroError, argOffset ?? offset);
        }
        this.macroCalls.set(r.id, this.call(0, fn, args, target));
        let d = 0;
        for (let i = 0; i < args.length; i++) d = Math.max(d, this.depthOf(args[i] as Expr));
        if (target) d = Math.max(d, this.depthOf(target));
        this.vdepth[r.id] = d;
        return r;
      }
    }
    // this.call in place (no small helper call on this hot path)
    return target === undefined ? { kind: "call", id, function: fn, args } : { kind: "call", id, function: fn, target, args };
  }

  /** The macro helper, positioned at `offset` (one instance per parser: no closures per macro call). */
  private helper(offset: number): MacroExprHelper {
    let h = this.macroHelper;
    if (h === undefined) {
      h = new Helper(this);
      this.macroHelper = h;
    }
    h.offset = offset;
    return h;
  }

  /** A fresh id at `offset` (for the macro helper). */
  newId(offset: number): number {
    return this.id(offset);
  }

  // ---- grammar
  parseStart(): Expr {
    const e = this.parseExpr(Via.Start);
    const t = this.tokens[this.pos] as Token;
    if (t.kind !== "EOF") {
      // ANTLR's match(EOF): the extraneous token when EOF follows, else a mismatch (the rest skipped)
      const extraneous = this.peekAt(1).kind === "EOF";
      this.syntaxError(t, `${extraneous ? "extraneous" : "mismatched"} input '${t.text}' expecting <EOF>`);
    }
    return e;
  }

  private parseExpr(via: Via): Expr {
    const d = ++this.exprDepth;
    this.frameVia[d] = via;
    this.framePart[d] = Part.Cond;
    if (d > this.maxDepth) {
      this.issues.push({
        message: `expression recursion limit exceeded: ${this.maxDepth}`,
        offset: -1,
        exprId: 0,
      });
      throw new SyntaxStop();
    }
    const cond = this.parseOr();
    let out = cond;
    if ((this.tokens[this.pos] as Token).kind === "?") {
      const q = this.next();
      const id = this.id(q.start);
      this.framePart[d] = Part.True;
      const a = this.parseOr();
      if (!this.matchInline(":")) {
        this.recover(":", Level.Expr);
        this.exprDepth--;
        return cond;
      }
      const b = this.parseExpr(Via.Else);
      out = this.deepen(this.call(id, "_?_:_", [cond, a, b]), cond, a, b);
    }
    this.exprDepth--;
    return out;
  }

  /** `a || b || ...`: cel-go's balanced tree of the `&&` terms. */
  private parseOr(): Expr {
    // the first `&&` term inline: most operands are neither `&&` nor `||` chains (one call less each)
    let first = this.parseBinary(1);
    const tokens = this.tokens;
    if ((tokens[this.pos] as Token).kind === "&&") first = this.parseAndRest(first);
    if ((tokens[this.pos] as Token).kind !== "||") return first;
    // the first operator and term in array literals (no growth through a builtin on a first push)
    const op0 = this.id(this.next().start);
    const terms: Expr[] = [first, this.parseAnd()];
    const ops: number[] = [op0];
    while ((this.tokens[this.pos] as Token).kind === "||") {
      const t = this.next();
      ops.push(this.id(t.start));
      terms.push(this.parseAnd());
    }
    return this.balanced("_||_", terms, ops, 0, ops.length - 1);
  }

  /** `a && b && ...`: cel-go's balanced tree of the relation terms. */
  private parseAnd(): Expr {
    return this.parseAndRest(this.parseBinary(1));
  }

  /** The `&&` chain whose first term `first` is parsed. */
  private parseAndRest(first: Expr): Expr {
    if ((this.tokens[this.pos] as Token).kind !== "&&") return first;
    // the first operator and term in array literals (no growth through a builtin on a first push)
    const op0 = this.id(this.next().start);
    const terms: Expr[] = [first, this.parseBinary(1)];
    const ops: number[] = [op0];
    while ((this.tokens[this.pos] as Token).kind === "&&") {
      const t = this.next();
      ops.push(this.id(t.start));
      terms.push(this.parseBinary(1));
    }
    return this.balanced("_&&_", terms, ops, 0, ops.length - 1);
  }

  /** cel-go's balanced tree of a `||` / `&&` chain. */
  private balanced(fn: string, terms: readonly Expr[], ops: readonly number[], lo: number, hi: number): Expr {
    const mid = (lo + hi + 1) >> 1;
    const left = mid === lo ? (terms[mid] as Expr) : this.balanced(fn, terms, ops, lo, mid - 1);
    const right = mid === hi ? (terms[mid + 1] as Expr) : this.balanced(fn, terms, ops, mid + 1, hi);
    return this.deepen(this.call(ops[mid] as number, fn, [left, right]), left, right);
  }

  /**
   * The relation, addition and multiplication levels by precedence climbing: operators of
   * precedence `minPrec` or higher, each level left-associative. Builds the same tree, with ids
   * in the same order, as one recursive-descent function per level.
   */
  private parseBinary(minPrec: number): Expr {
    const k = (this.tokens[this.pos] as Token).kind;
    let left = k === "!" || k === "-" ? this.parseUnary() : this.parseMember();
    for (;;) {
      const op = BINARY_OPS[(this.tokens[this.pos] as Token).op];
      if (op === undefined || op.prec < minPrec) return left;
      const t = this.next();
      const id = this.id(t.start);
      // the multiplication level's operand is parseBinary(4): a unary or member expression (no operator
      // binds tighter), read without a second call site here that a short run may optimize before using
      const right = this.parseBinary(op.prec + 1);
      const args = [left, right];
      const call: Expr = this.macros.binaryOperatorMacros ? this.callOrMacro(id, op.fn, args) : { kind: "call", id, function: op.fn, args };
      left = this.deepen(call, left, right);
    }
  }

  private parseUnary(): Expr {
    const t = (this.tokens[this.pos] as Token);
    if (t.kind === "!" || (t.kind === "-" && !this.isSignedLiteral())) {
      let count = 0;
      for (;;) {
        while ((this.tokens[this.pos] as Token).kind === t.kind) {
          if (t.kind === "-") {
            const k = this.peekAt(1).kind;
            if (k === "!" || !START_KINDS.has(k)) return this.minusNoViableAlt();
          }
          this.next();
          count++;
        }
        const u = this.tokens[this.pos] as Token;
        if (t.kind !== "!" || START_KINDS.has(u.kind) || this.pos === this.recoverAt) break;
        // ANTLR's sync at the loop back of `'!'+`: the token is unwanted, skipped up to one that may start
        // the operand (or another `!`) or follow the unary
        this.syntaxError(u, `extraneous input '${u.text}' expecting ${EXPR_START}`);
        const set = recoverySet(this.frames(), this.exprDepth, Level.Unary);
        for (const k of START_KINDS) set.add(k);
        while (this.pos < this.last && !set.has((this.tokens[this.pos] as Token).kind)) this.pos++;
        this.recoverAt = this.pos;
        if ((this.tokens[this.pos] as Token).kind !== "!") break;
      }
      const opId = this.id(t.start);
      this.unaryOperandAt = this.pos;
      const operand = this.parseMember();
      if (count % 2 === 0) {
        this.deletePosition(opId);
        return operand;
      }
      return this.callOrMacro(opId, t.kind === "!" ? "!_" : "-_", [operand]);
    }
    return this.parseMember();
  }

  /**
   * A `-` whose next token starts no operand: the decision at it (unary's alternatives or its `('-')+`
   * loop) finds no alternative; the unary rule reports and recovers from that `-`.
   */
  private minusNoViableAlt(): Expr {
    const at = this.tokens[this.pos] as Token;
    const bad = this.peekAt(1);
    this.syntaxError(bad, this.noViableAlt(at, bad));
    this.recover("-", Level.Unary);
    return this.errorExpr(bad);
  }

  private isSignedLiteral(): boolean {
    const n = this.peekAt(1).kind;
    return n === "NUM_INT" || n === "NUM_FLOAT";
  }

  private parseMember(): Expr {
    let e = this.parsePrimary();
    const tokens = this.tokens;
    for (;;) {
      const t = tokens[this.pos] as Token;
      if (t.kind === ".") {
        // `.name` and `.name(args)` here (the token after a `.` exists: a `.` is never the final EOF);
        // `.?`, escaped names and errors in memberRest (keeps this function small for V8's optimizer)
        const idTok = tokens[this.pos + 1] as Token;
        if (idTok.kind !== "IDENTIFIER") {
          e = this.memberRest(e, t);
          if (this.memberEnded) {
            this.memberEnded = false;
            return e;
          }
          continue;
        }
        this.pos += 2;
        const before = e;
        if ((tokens[this.pos] as Token).kind === "(") {
          const open = this.next();
          const id = this.id(open.start);
          const args = this.parseArgs(Via.MemberArg);
          e = this.deepenAll(this.callOrMacro(id, idTok.text, args, e), before, args);
          if (this.memberEnded) {
            this.memberEnded = false;
            return e;
          }
        } else {
          e = this.deepen({ kind: "select", id: this.id(t.start), operand: e, field: idTok.text, testOnly: false }, before);
        }
        continue;
      }
      if (t.kind === "[") {
        e = this.parseIndex(e, t);
        if (this.memberEnded) {
          this.memberEnded = false;
          return e;
        }
        continue;
      }
      return e;
    }
  }

  /** The member selection at the current `.` (`t`) other than `.name` / `.name(args)`: `.?name`, an escaped name, or an error. */
  private memberRest(e: Expr, t: Token): Expr {
    const at = this.pos;
    this.next();
    let opt = false;
    if ((this.tokens[this.pos] as Token).kind === "?") {
      this.next();
      opt = true;
    }
    let idTok = this.tokens[this.pos] as Token;
    if (opt && idTok.kind !== "IDENTIFIER" && idTok.kind !== "ESC_IDENTIFIER") {
      // `escapeIdent` after `.?`: ANTLR's sync deletes one extraneous token before an identifier, else
      // reports the mismatch and that rule recovers (the member goes on)
      if (this.pos === this.recoverAt) throw new SyntaxStop();
      const nk = this.peekAt(1).kind;
      if (idTok.kind === "EOF" || (nk !== "IDENTIFIER" && nk !== "ESC_IDENTIFIER")) {
        this.syntaxError(idTok, `mismatched input '${idTok.text}' expecting {IDENTIFIER, ESC_IDENTIFIER}`);
        this.recover(".?", Level.Member, MEMBER_LOOP);
        // cel-go's visitor then meets the failed escapeIdent, reports it and still builds the optional
        // selection (at the `.`; a macro over it reports there)
        this.report("unsupported ident kind", idTok.start);
        if (!this.optional) return this.report("unsupported syntax '.?'", t.start);
        const lit: Expr = { kind: "const", id: this.id(idTok.start), value: { kind: "string", value: "" } };
        return this.deepen(this.call(this.id(t.start), "_?._", [e, lit]), e);
      }
      this.syntaxError(idTok, `extraneous input '${idTok.text}' expecting {IDENTIFIER, ESC_IDENTIFIER}`);
      this.next();
      idTok = this.tokens[this.pos] as Token;
    }
    let field: string;
    if (idTok.kind === "IDENTIFIER") {
      this.next();
      field = idTok.text;
    } else if (idTok.kind === "ESC_IDENTIFIER") {
      this.next();
      if (!this.escIdents) {
        this.report("unsupported syntax: '`'", idTok.start);
      }
      field = idTok.text.slice(1, -1);
    } else if (idTok.kind === "true" || idTok.kind === "false" || idTok.kind === "null" || idTok.kind === "in") {
      this.syntax(idTok, `mismatched input '${idTok.text}' expecting IDENTIFIER`);
    } else {
      // the member rule's decision fails: it reports and recovers from where the decision began (ANTLR's
      // prediction consumes nothing), and ends
      this.pos = at;
      this.syntaxError(idTok, this.noViableAlt(t, idTok));
      this.recover(".", Level.Member);
      this.memberEnded = true;
      return e;
    }
    if (opt) {
      if (!this.optional) return this.report("unsupported syntax '.?'", t.start);
      const lit: Expr = { kind: "const", id: this.id(idTok.start), value: { kind: "string", value: field } };
      return this.deepen(this.call(this.id(t.start), "_?._", [e, lit]), e);
    }
    return this.deepen({ kind: "select", id: this.id(t.start), operand: e, field, testOnly: false }, e);
  }

  /** `e[index]` / `e[?index]` at the current `[` (`t`). */
  private parseIndex(e: Expr, t: Token): Expr {
    this.next();
    if (!this.syncStart(INDEX_START, INDEX_START_KINDS)) {
      // the member rule recovers and ends; cel-go's visitor still builds the index (at the `[`; a macro
      // over it reports there), of an index expression that failed to parse
      this.recover("[", Level.Member);
      this.memberEnded = true;
      const id = this.id(t.start);
      const idx: Expr = { kind: "const", id: this.id(-1), value: { kind: "string", value: "<<error>>" } };
      return this.deepen(this.callOrMacro(id, "_[_]", [e, idx]), e, idx);
    }
    let opt = false;
    if ((this.tokens[this.pos] as Token).kind === "?") {
      this.next();
      opt = true;
    }
    const id = this.id(t.start);
    const idx = this.parseExpr(Via.Index);
    if (!this.matchInline("]", Level.Member, MEMBER_LOOP)) {
      this.recover("]", Level.Member);
      this.memberEnded = true;
    }
    if (opt && !this.optional) return this.report("unsupported syntax '[?'", t.start);
    return this.deepen(this.callOrMacro(id, opt ? "_[?_]" : "_[_]", [e, idx]), e, idx);
  }

  /** The `)` of a call when the token after an argument is neither `,` nor `)`. */
  private closeArgs(via: Via): void {
    const member = via === Via.MemberArg;
    const level = member ? Level.Member : Level.Primary;
    if (!this.matchInline(")", level, member ? MEMBER_LOOP : undefined)) {
      this.recover(")", level);
      if (member) this.memberEnded = true;
    }
  }

  /**
   * ANTLR's sync before `exprList? ')'` when the token after `(` starts no argument: one extraneous token
   * deleted when an argument or `)` follows (true: parse the arguments), else the mismatch reported and
   * the call's rule recovered (false: no arguments).
   */
  private openArgs(via: Via): boolean {
    const t = this.tokens[this.pos] as Token;
    if (this.pos !== this.recoverAt) {
      const nk = this.peekAt(1).kind;
      if (t.kind !== "EOF" && (nk === ")" || START_KINDS.has(nk))) {
        this.syntaxError(t, `extraneous input '${t.text}' expecting ${ARGS_START}`);
        this.next();
        if ((this.tokens[this.pos] as Token).kind !== ")") return true;
        this.next();
        return false;
      }
      this.syntaxError(t, `mismatched input '${t.text}' expecting ${ARGS_START}`);
      const member = via === Via.MemberArg;
      this.recover("(", member ? Level.Member : Level.Primary);
      if (member) this.memberEnded = true;
      return false;
    }
    // in recovery mode the sync does nothing: no arguments, then the `)`
    this.closeArgs(via);
    return false;
  }

  private parseArgs(via: Via): Expr[] {
    if ((this.tokens[this.pos] as Token).kind === ")") {
      this.next();
      return [];
    }
    // the first argument apart, so that the commonest lists (one or two arguments) are array literals
    // of their size: an array pushed to from empty grows through a builtin on its first push
    if (!START_KINDS.has((this.tokens[this.pos] as Token).kind) && !this.openArgs(via)) return [];
    const first = this.parseExpr(via);
    let t = this.tokens[this.pos] as Token;
    if (t.kind === ")") {
      this.next();
      return [first];
    }
    if (t.kind !== ",") {
      this.closeArgs(via);
      return [first];
    }
    this.next();
    const args: Expr[] = [first, this.parseExpr(via)];
    for (;;) {
      t = this.tokens[this.pos] as Token;
      if (t.kind === ")") {
        this.next();
        return args;
      }
      if (t.kind !== ",") {
        this.closeArgs(via);
        return args;
      }
      this.next();
      args.push(this.parseExpr(via));
    }
  }

  private parsePrimary(): Expr {
    const t = (this.tokens[this.pos] as Token);
    switch (t.kind) {
      case ".":
      case "IDENTIFIER":
        return this.parseIdentLike();
      case "NUM_INT":
      case "NUM_FLOAT":
      case "NUM_UINT":
      case "STRING":
      case "BYTES":
      case "true":
      case "false":
      case "null":
        return this.parseLiteral();
      case "-":
        return this.parseLiteral();
      case "(": {
        this.next();
        const e = this.parseExpr(Via.Paren);
        if (!this.matchInline(")", Level.Primary)) this.recover("(", Level.Primary);
        return e;
      }
      case "[":
        return this.parseList();
      case "{":
        return this.parseMap();
      default:
        // ANTLR's sync at the start of `unary`: one extraneous token deleted when an operand follows
        // (then `!` and `-` start a unary again), else the mismatch reported (not in recovery mode) and
        // the `unary` rule recovered
        if (this.pos !== this.recoverAt) {
          if (this.deleteExtraneous(EXPR_START, (k) => START_KINDS.has(k))) {
            const k = (this.tokens[this.pos] as Token).kind;
            return k === "!" || k === "-" ? this.parseUnary() : this.parsePrimary();
          }
          this.syntaxError(t, `mismatched input '${t.text}' expecting ${EXPR_START}`);
        }
        if (this.pos === this.unaryOperandAt) this.recover("primary", Level.Primary);
        else this.recover("unary", Level.Unary);
        return this.errorExpr(t);
    }
  }

  /** The expression of a rule that failed (never evaluated: the parse has errors). */
  private errorExpr(t: Token): Expr {
    return { kind: "const", id: this.id(t.start), value: { kind: "string", value: "<<error>>" } };
  }

  private parseIdentLike(): Expr {
    const tokens = this.tokens;
    const t = tokens[this.pos] as Token;
    if (t.kind === "IDENTIFIER") {
      // the commonest case, a plain identifier (not a call, a message name or a reserved word), in a
      // small function: V8 optimizes it early in a run, cheaply
      const nk = (tokens[this.pos + 1] as Token).kind;
      // isReserved in place: no small helper call on this hot path
      const text = t.text;
      const c = text.charCodeAt(0);
      if (nk !== "(" && nk !== "{" && (nk !== "." || !this.messageAhead()) && !(c < 128 && RESERVED_FIRST[c] === 1 && RESERVED.has(text))) {
        this.pos++;
        return { kind: "ident", id: this.id(t.start), name: t.text };
      }
    }
    return this.parseIdentLikeRest();
  }

  /** Whether the tokens at the current one read `IDENT ('.' IDENT)* '{'` (a message construction). */
  private messageAhead(): boolean {
    const tokens = this.tokens;
    let j = this.pos;
    while ((tokens[j] as Token).kind === "IDENTIFIER" && (tokens[j + 1] as Token).kind === ".") j += 2;
    return (tokens[j] as Token).kind === "IDENTIFIER" && (tokens[j + 1] as Token).kind === "{";
  }

  /** {@link parseIdentLike} of a leading dot, call, message construction or reserved word. */
  private parseIdentLikeRest(): Expr {
    const first = (this.tokens[this.pos] as Token);
    let leadingDot = false;
    if (first.kind === ".") {
      const at = this.pos;
      this.next();
      leadingDot = true;
      const idTok = this.tokens[this.pos] as Token;
      if (idTok.kind !== "IDENTIFIER") {
        // the primary rule's decision fails: it reports and recovers from where the decision began
        this.pos = at;
        this.syntaxError(idTok, this.noViableAlt(first, idTok));
        this.recover(".", Level.Primary);
        // cel-go's visitor meets a bare primary context: an expression without a location
        return { kind: "const", id: this.id(-1), value: { kind: "string", value: "<<error>>" } };
      }
    }
    // message construction lookahead: IDENT ('.' IDENT)* '{'
    // (an IDENTIFIER is never the final EOF, so the token after it exists)
    const tokens = this.tokens;
    let j = this.pos;
    while ((tokens[j] as Token).kind === "IDENTIFIER" && (tokens[j + 1] as Token).kind === ".") j += 2;
    const k = j - this.pos;
    if ((tokens[j] as Token).kind === "IDENTIFIER" && (tokens[j + 1] as Token).kind === "{") {
      const parts: string[] = [];
      for (let j = 0; j <= k; j += 2) parts.push(this.peekAt(j).text);
      this.pos += k + 1;
      const open = this.next();
      const name = (leadingDot ? "." : "") + parts.join(".");
      return this.parseStruct(name, open);
    }
    const idTok = this.next();
    if ((this.tokens[this.pos] as Token).kind === "(") {
      if (isReserved(idTok.text)) {
        const r = this.report(`reserved identifier: ${idTok.text}`, first.start);
        this.next();
        this.parseArgs(Via.GlobalArg);
        return r;
      }
      const open = this.next();
      const id = this.id(open.start);
      const args = this.parseArgs(Via.GlobalArg);
      const name = (leadingDot ? "." : "") + idTok.text;
      const e = this.callOrMacro(id, name, args);
      return e;
    }
    if (isReserved(idTok.text)) return this.report(`reserved identifier: ${idTok.text}`, first.start);
    return { kind: "ident", id: this.id(idTok.start), name: (leadingDot ? "." : "") + idTok.text };
  }

  private parseStruct(messageName: string, open: Token): Expr {
    const id = this.id(open.start);
    const fields: StructField[] = [];
    for (;;) {
      const t = (this.tokens[this.pos] as Token);
      if (t.kind === "}") {
        this.next();
        break;
      }
      if (t.kind === "," && fields.length === 0) {
        // `Name{,}`: as `[,]` in parseList
        this.next();
        if (!this.matchInline("}", Level.Primary)) this.recover("}", Level.Primary);
        break;
      }
      if (t.kind === "," && fields.length > 0) {
        this.next();
        if ((this.tokens[this.pos] as Token).kind === "}") {
          this.next();
          break;
        }
      }
      let opt = false;
      let ft = (this.tokens[this.pos] as Token);
      if (ft.kind === "?") {
        this.next();
        opt = true;
        ft = (this.tokens[this.pos] as Token);
        if (ft.kind !== "IDENTIFIER" && ft.kind !== "ESC_IDENTIFIER") this.mismatch("{IDENTIFIER, ESC_IDENTIFIER}");
      }
      if (ft.kind !== "IDENTIFIER" && ft.kind !== "ESC_IDENTIFIER") {
        const nxt = this.peekAt(1);
        this.syntax(
          ft,
          `${nxt.kind === "IDENTIFIER" ? "extraneous" : "mismatched"} input '${ft.text}' expecting ${FIELD_START}`,
        );
      }
      this.next();
      let fname = ft.text;
      if (ft.kind === "ESC_IDENTIFIER") {
        fname = ft.text.slice(1, -1);
        if (!this.escIdents) this.report("unsupported syntax: '`'", ft.start);
      }
      const col = this.tokens[this.pos] as Token;
      if (!this.matchInline(":")) {
        // fieldInitializerList recovers and ends; then the primary's `','? '}'`
        this.recover(":", Level.Primary, [",", "}"]);
        this.closeCollection("}");
        break;
      }
      const initId = this.id(col.start);
      const value = this.parseExpr(Via.FieldValue);
      if (opt && !this.optional) {
        this.report("unsupported syntax '?'", ft.start - 1);
        continue;
      }
      fields.push({ id: initId, field: fname, value, optional: opt });
      const sep = (this.tokens[this.pos] as Token);
      if (sep.kind !== "," && sep.kind !== "}") {
        this.closeCollection("}");
        break;
      }
    }
    return { kind: "struct", id, messageName, fields };
  }

  /**
   * The end of `primary: '[' listInit? ','? ']'` (or `'{' ... ','? '}'`) when the token after an element
   * is neither `,` nor the closer: ANTLR's sync before `','?` deletes one extraneous token when a `,` or
   * the closer follows, else reports the mismatch and the primary recovers.
   */
  private closeCollection(close: "]" | "}"): void {
    const t = this.tokens[this.pos] as Token;
    if (this.pos !== this.recoverAt) {
      const nk = this.peekAt(1).kind;
      const expecting = `{'${close}', ','}`;
      if (t.kind === "EOF" || (nk !== "," && nk !== close)) {
        this.syntaxError(t, `mismatched input '${t.text}' expecting ${expecting}`);
        this.recover(close, Level.Primary);
        return;
      }
      this.syntaxError(t, `extraneous input '${t.text}' expecting ${expecting}`);
      this.next();
    }
    if ((this.tokens[this.pos] as Token).kind === ",") this.next();
    if (!this.matchInline(close, Level.Primary)) this.recover(close, Level.Primary);
  }

  /**
   * ANTLR's sync before an optional block whose first tokens are `kinds` (described by `expecting`), when
   * the current token is none of them: outside recovery mode one extraneous token is deleted when the
   * next one fits (true), else the mismatch is reported and false returned (the caller's rule recovers).
   * True when the current token fits.
   */
  private syncStart(expecting: string, kinds: ReadonlySet<TokenKind>): boolean {
    const t = this.tokens[this.pos] as Token;
    if (kinds.has(t.kind) || this.pos === this.recoverAt) return true;
    if (t.kind !== "EOF" && kinds.has(this.peekAt(1).kind)) {
      this.syntaxError(t, `extraneous input '${t.text}' expecting ${expecting}`);
      this.next();
      return true;
    }
    this.syntaxError(t, `mismatched input '${t.text}' expecting ${expecting}`);
    return false;
  }

  private parseList(): Expr {
    const open = this.next();
    const id = this.id(open.start);
    const elements: Expr[] = [];
    const optionalIndices: number[] = [];
    if (!this.syncStart(LIST_START, LIST_START_KINDS)) {
      this.recover("[", Level.Primary);
      return { kind: "list", id, elements, optionalIndices };
    }
    for (;;) {
      const t = (this.tokens[this.pos] as Token);
      if (t.kind === "]") {
        this.next();
        break;
      }
      if (elements.length === 0 && t.kind === ",") {
        // `[,]`: no listInit (a `,` cannot start one), the `,` is the optional trailing one, then the `]`
        this.next();
        if (!this.matchInline("]", Level.Primary)) this.recover("]", Level.Primary);
        break;
      }
      if (elements.length > 0) {
        if (t.kind !== ",") {
          this.closeCollection("]");
          break;
        }
        this.next();
        const k = (this.tokens[this.pos] as Token).kind;
        if (k === "]") {
          this.next();
          break;
        }
        if (k !== "?" && !START_KINDS.has(k)) {
          // ANTLR leaves listInit (its loop decision finds no element) and takes the `,` as the
          // trailing one: then the `]`
          if (!this.matchInline("]", Level.Primary)) this.recover("]", Level.Primary);
          break;
        }
      }
      let opt = false;
      const q = (this.tokens[this.pos] as Token);
      if (q.kind === "?") {
        this.next();
        opt = true;
      }
      if (!START_KINDS.has((this.tokens[this.pos] as Token).kind) && !(opt && this.deleteBeforeOperand())) this.mismatch(EXPR_START);
      const e = this.parseExpr(Via.ListElem);
      if (opt) {
        if (!this.optional) this.report("unsupported syntax '?'", q.start);
        else optionalIndices.push(elements.length);
      }
      elements.push(e);
    }
    return { kind: "list", id, elements, optionalIndices };
  }

  private parseMap(): Expr {
    const open = this.next();
    const id = this.id(open.start);
    const entries: MapEntry[] = [];
    // as parseList: the `mapInitializerList?` decision's sync deletes one extraneous token, or the primary recovers
    if (!this.syncStart(MAP_START, MAP_START_KINDS)) {
      this.recover("{", Level.Primary);
      return { kind: "map", id, entries };
    }
    for (;;) {
      const t = (this.tokens[this.pos] as Token);
      if (t.kind === "}") {
        this.next();
        break;
      }
      if (entries.length === 0 && t.kind === ",") {
        // `{,}`: as `[,]` in parseList
        this.next();
        if (!this.matchInline("}", Level.Primary)) this.recover("}", Level.Primary);
        break;
      }
      if (entries.length > 0) {
        if (t.kind !== ",") {
          this.closeCollection("}");
          break;
        }
        this.next();
        const k = (this.tokens[this.pos] as Token).kind;
        if (k === "}") {
          this.next();
          break;
        }
        if (k !== "?" && !START_KINDS.has(k)) {
          // as in parseList: the `,` is the trailing one, then the `}`
          if (!this.matchInline("}", Level.Primary)) this.recover("}", Level.Primary);
          break;
        }
      }
      let opt = false;
      const q = (this.tokens[this.pos] as Token);
      if (q.kind === "?") {
        this.next();
        opt = true;
      }
      if (!START_KINDS.has((this.tokens[this.pos] as Token).kind) && !(opt && this.deleteBeforeOperand())) this.mismatch(EXPR_START);
      const key = this.parseExpr(Via.MapKey);
      const col = this.tokens[this.pos] as Token;
      if (!this.matchInline(":")) {
        // mapInitializerList recovers and ends; then the primary's `','? '}'`
        this.recover(":", Level.Primary, [",", "}"]);
        this.closeCollection("}");
        break;
      }
      const colId = this.id(col.start);
      const value = this.parseExpr(Via.MapValue);
      if (opt && !this.optional) {
        this.report("unsupported syntax '?'", q.start);
        continue;
      }
      entries.push({ id: colId, key, value, optional: opt });
    }
    return { kind: "map", id, entries };
  }

  private lit(off: number, value: Constant): Expr {
    return { kind: "const", id: this.id(off), value };
  }

  private parseLiteral(): Expr {
    const first = this.next();
    let t = first;
    let sign = "";
    if (first.kind === "-") {
      sign = "-";
      t = this.next();
    }
    const off = first.start;
    switch (t.kind) {
      case "NUM_INT": {
        let text = t.text;
        let v: bigint;
        try {
          v = text.startsWith("0x") ? BigInt(text) : BigInt(text);
        } catch {
          return this.report("invalid int literal", off);
        }
        if (sign) v = -v;
        text = "";
        if (v < INT64_MIN || v > INT64_MAX) return this.report("invalid int literal", off);
        return this.lit(off, { kind: "int", value: v });
      }
      case "NUM_UINT": {
        const text = t.text.slice(0, -1);
        let v: bigint;
        try {
          v = BigInt(text);
        } catch {
          return this.report("invalid uint literal", off);
        }
        if (v > UINT64_MAX) return this.report("invalid uint literal", off);
        return this.lit(off, { kind: "uint", value: v });
      }
      case "NUM_FLOAT": {
        const v = Number(sign + t.text);
        if (!Number.isFinite(v)) return this.report("invalid double literal", off);
        return this.lit(off, { kind: "double", value: v });
      }
      case "STRING": {
        const r = unescapeLiteral(t.text, false);
        if (typeof r !== "string" && !(r instanceof Uint8Array)) return this.report(r.error, off);
        return this.lit(off, { kind: "string", value: r as string });
      }
      case "BYTES": {
        const r = unescapeLiteral(t.text.slice(1), true);
        if (!(r instanceof Uint8Array)) {
          return this.report(typeof r === "string" ? "unable to unescape string" : r.error, off);
        }
        return this.lit(off, { kind: "bytes", value: r });
      }
      case "true":
        return this.lit(off, { kind: "bool", value: true });
      case "false":
        return this.lit(off, { kind: "bool", value: false });
      case "null":
        return this.lit(off, { kind: "null" });
      default:
        this.pos--;
        return this.mismatch(EXPR_START);
    }
  }
}

/**
 * Parses a CEL expression.
 *
 * @example
 * const r = parse("self.replicas <= 10");
 * if (r.ast) { ... } else console.log(r.errorText);
 */
export function parse(source: string, opts: ParseOptions = {}): ParseResult {
  const description = opts.description ?? "<input>";
  // without surrogates, code points are UTF-16 units: lex the string directly
  let lineOffsets = lineOffsetsWithoutSurrogates(source);
  let cps: number[] | undefined;
  if (lineOffsets === undefined) {
    cps = toCodePoints(source);
    lineOffsets = computeLineOffsets(source);
  }
  const cpCount = cps === undefined ? source.length : cps.length;
  const limit = opts.expressionSizeCodePointLimit ?? 100_000;
  if (cpCount > limit) {
    const sourceInfo0: SourceInfo = {
      description,
      source,
      lineOffsets,
      positions: new Map<number, number>(),
      macroCalls: new Map<number, Expr>(),
    };
    const issues: CelIssue[] = [
      {
        message: `expression code point size exceeds limit: size: ${cpCount}, limit ${limit}`,
        offset: -1,
        exprId: 0,
      },
    ];
    return { issues, sourceInfo: sourceInfo0, errorText: formatIssues(sourceInfo0, issues) };
  }
  const { tokens, count, errors } = lexPooled(cps, source);
  const p = new Parser(tokens, count, opts, source, cps);
  let expr: Expr | undefined;
  try {
    expr = p.parseStart();
  } catch (e) {
    if (!(e instanceof SyntaxStop) && !(e instanceof RangeError)) throw e;
    if (e instanceof RangeError) p.issues.push({ message: "max recursion depth exceeded", offset: -1, exprId: 0 });
  } finally {
    releaseTokens(tokens);
  }
  const issues: CelIssue[] =
    errors.length === 0
      ? p.issues
      : [
          ...errors.map((le) => ({ message: `Syntax error: token recognition error at: '${le.text}'`, offset: le.offset, exprId: 0 })),
          ...p.issues,
        ];
  if (issues.length > MAX_SYNTAX_ERRORS) {
    const at = issues[MAX_SYNTAX_ERRORS] as CelIssue;
    issues.length = MAX_SYNTAX_ERRORS;
    issues.push({ message: `Syntax error: More than ${MAX_SYNTAX_ERRORS} syntax errors`, offset: at.offset, exprId: 0 });
  }
  const sourceInfo: SourceInfo = { description, source, lineOffsets, positions: p.positionMap(), macroCalls: p.macroCalls };
  if (issues.length > 0 || expr === undefined) {
    return { issues, sourceInfo, errorText: formatIssues(sourceInfo, issues) };
  }
  return { ast: { expr, sourceInfo }, issues, sourceInfo, errorText: "" };
}

/**
 * {@link computeLineOffsets} in one pass for a source without UTF-16 surrogates (code points are
 * then UTF-16 units); `undefined` when the source has a surrogate.
 */
function lineOffsetsWithoutSurrogates(source: string): number[] | undefined {
  if (SURROGATE.test(source)) return undefined;
  const out: number[] = [];
  for (let i = source.indexOf("\n"); i >= 0; i = source.indexOf("\n", i + 1)) out.push(i + 1);
  out.push(source.length + 1);
  return out;
}

/** A UTF-16 surrogate (paired or lone). */
const SURROGATE = /[\ud800-\udfff]/;
