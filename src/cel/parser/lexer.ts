/**
 * CEL lexer (cel-go `CEL.g4` lexer rules) over code points. Lexical errors are
 * reported like ANTLR's `token recognition error at: '...'` and lexing resumes
 * after the failing character.
 *
 * @module
 */

/** Token kinds. Punctuation kinds are the literal text. */
export type TokenKind =
  | "=="
  | "!="
  | "in"
  | "<"
  | "<="
  | ">="
  | ">"
  | "&&"
  | "||"
  | "["
  | "]"
  | "{"
  | "}"
  | "("
  | ")"
  | "."
  | ","
  | "-"
  | "!"
  | "?"
  | ":"
  | "+"
  | "*"
  | "/"
  | "%"
  | "true"
  | "false"
  | "null"
  | "NUM_FLOAT"
  | "NUM_INT"
  | "NUM_UINT"
  | "STRING"
  | "BYTES"
  | "IDENTIFIER"
  | "ESC_IDENTIFIER"
  | "EOF";

/** A token; `start`/`end` are code-point offsets, `text` the exact source text. */
export interface Token {
  readonly kind: TokenKind;
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /** 1 + the index of the token's kind in {@link BINARY_OPERATORS} when it is one, else 0. */
  readonly op: number;
}

/** The binary operators of the relation, addition and multiplication levels (see {@link Token.op}). */
export const BINARY_OPERATORS: readonly TokenKind[] = ["<", "<=", ">=", ">", "==", "!=", "in", "+", "-", "*", "/", "%"];
const OP_IN = BINARY_OPERATORS.indexOf("in") + 1;

/** A punctuation token kind and its {@link Token.op}. */
interface Punct {
  readonly kind: TokenKind;
  readonly op: number;
}
const PUNCTS = new Map<TokenKind, Punct>();
for (const kind of ["==", "!=", "!", "<=", "<", ">=", ">", "&&", "||", "[", "]", "{", "}", "(", ")", ".", ",", "-", "?", ":", "+", "*", "/", "%"] as const)
  PUNCTS.set(kind, { kind, op: BINARY_OPERATORS.indexOf(kind) + 1 });
const punctOf = (k: TokenKind): Punct => PUNCTS.get(k) as Punct;
const P_EQ = punctOf("==");
const P_NE = punctOf("!=");
const P_NOT = punctOf("!");
const P_LE = punctOf("<=");
const P_LT = punctOf("<");
const P_GE = punctOf(">=");
const P_GT = punctOf(">");
const P_AND = punctOf("&&");
const P_OR = punctOf("||");
const P_LBRACKET = punctOf("[");
const P_RBRACKET = punctOf("]");
const P_LBRACE = punctOf("{");
const P_RBRACE = punctOf("}");
const P_LPAREN = punctOf("(");
const P_RPAREN = punctOf(")");
const P_DOT = punctOf(".");
const P_COMMA = punctOf(",");
const P_MINUS = punctOf("-");
const P_QUESTION = punctOf("?");
const P_COLON = punctOf(":");
const P_PLUS = punctOf("+");
const P_STAR = punctOf("*");
const P_SLASH = punctOf("/");
const P_PERCENT = punctOf("%");

/** A lexical error (ANTLR `token recognition error`). */
export interface LexError {
  readonly offset: number;
  readonly text: string;
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isHex = (c: number): boolean => isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
/** ASCII classes: bit 1 = identifier start (letter, `_`), bit 2 = identifier part (also digits). */
const ASCII_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if (isLetter(c) || c === 95) ASCII_CLASS[c] = 3;
  else if (isDigit(c)) ASCII_CLASS[c] = 2;
}
const isIdentStart = (c: number): boolean => c >= 0 && c < 128 && ((ASCII_CLASS[c] as number) & 1) !== 0;
const isIdentPart = (c: number): boolean => c >= 0 && c < 128 && ((ASCII_CLASS[c] as number) & 2) !== 0;

/**
 * The rest of an identifier (ASCII letters, digits, `_`; sticky, always matches): one native call
 * per identifier instead of a loop per character, which matters in V8's lower tiers.
 */
const IDENT_TAIL = /[A-Za-z0-9_]*/y;

const FAST_IDENT = 1;
const FAST_PUNCT = 2;
const FAST_DOT = 3;
/**
 * The lexer's fast paths by ASCII character: identifier starts other than `b`, `B`, `r`, `R` (string
 * prefixes), and punctuation other than `.` (may begin a number) and `/` (may begin a comment).
 */
const FAST_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if (((ASCII_CLASS[c] as number) & 1) !== 0 && c !== 98 && c !== 66 && c !== 114 && c !== 82) FAST_CLASS[c] = FAST_IDENT;
}
for (const ch of "=!<>&|[]{}(),-?:+*%") FAST_CLASS[ch.charCodeAt(0)] = FAST_PUNCT;
FAST_CLASS[46] = FAST_DOT;
/** The punctuation tokens of one character that no second character extends, by ASCII code. */
const PUNCT_SINGLE: (Punct | undefined)[] = new Array(128).fill(undefined);
for (const p of [P_LBRACKET, P_RBRACKET, P_LBRACE, P_RBRACE, P_LPAREN, P_RPAREN, P_COMMA, P_MINUS, P_QUESTION, P_COLON, P_PLUS, P_STAR, P_PERCENT])
  PUNCT_SINGLE[p.kind.charCodeAt(0)] = p;
/**
 * The other punctuation by first ASCII character: {@link PUNCT_PAIR} when the next character is
 * {@link PUNCT_PAIR_SECOND} (`==`, `!=`, `<=`, `>=`, `&&`, `||`), else {@link PUNCT_ALONE} (`!`, `<`, `>`;
 * none after a lone `=`, `&` or `|`). Table lookups rather than {@link Lexer.punct}'s switch, which V8's
 * optimizing compiler would inline into the main loop.
 */
const PUNCT_PAIR: (Punct | undefined)[] = new Array(128).fill(undefined);
const PUNCT_PAIR_SECOND = new Int32Array(128).fill(-2);
const PUNCT_ALONE: (Punct | undefined)[] = new Array(128).fill(undefined);
for (const [pair, alone] of [[P_EQ, undefined], [P_NE, P_NOT], [P_LE, P_LT], [P_GE, P_GT], [P_AND, undefined], [P_OR, undefined]] as const) {
  const c = pair.kind.charCodeAt(0);
  PUNCT_PAIR[c] = pair;
  PUNCT_PAIR_SECOND[c] = pair.kind.charCodeAt(1);
  PUNCT_ALONE[c] = alone;
}

/** Splits a string into code points (lone surrogates kept as their own code units). */
export function toCodePoints(s: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out.push(((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000);
        i++;
        continue;
      }
    }
    out.push(c);
  }
  return out;
}

function cpTextSlow(cps: readonly number[], a: number, b: number): string {
  let s = "";
  for (let i = a; i < b; i++) s += String.fromCodePoint(cps[i] as number);
  return s;
}

/**
 * The keyword token (`true`, `false`, `null`, `in`) spelled by the `len` UTF-16 units of `src` at
 * `s`, or "IDENTIFIER" (the token text is then the slice). The constant strings are returned, so
 * keyword tokens share one string each.
 */
function keywordKind(src: string, s: number, len: number): TokenKind {
  switch (len) {
    case 2:
      return src.charCodeAt(s) === 105 && src.charCodeAt(s + 1) === 110 ? "in" : "IDENTIFIER";
    case 4:
      if (src.startsWith("true", s)) return "true";
      if (src.startsWith("null", s)) return "null";
      return "IDENTIFIER";
    case 5:
      return src.startsWith("false", s) ? "false" : "IDENTIFIER";
    default:
      return "IDENTIFIER";
  }
}

/** A token as the lexer writes it (a pooled token is rewritten by the next {@link lexPooled}). */
interface MutableToken {
  kind: TokenKind;
  start: number;
  end: number;
  text: string;
  op: number;
}

/**
 * The token objects {@link lexPooled} writes, reused by every pooled lexing: a warm compile pass
 * otherwise allocates one object per token (~1 MB per pass over the corpus rules, the largest single
 * source of garbage in a compile). A lexing first grows it to one object per code point and one more
 * (see {@link Lexer}'s constructor); it is kept at most {@link POOL_KEEP} long between parses.
 */
const POOL: MutableToken[] = [];
const POOL_KEEP = 4096;
let poolInUse = false;

/** Lexer state (a class, so no closures are created per call). */
class Lexer {
  /** How many tokens of {@link tokens} this lexing wrote (entries past it are stale pooled tokens). */
  count = 0;
  readonly errors: LexError[] = [];
  i = 0;
  readonly n: number;
  private readonly sliceable: boolean;
  /** Reads code points from the source string (every code point is one UTF-16 unit). */
  private readonly direct: boolean;
  constructor(
    private readonly cps: readonly number[] | undefined,
    private readonly source: string | undefined,
    readonly tokens: MutableToken[],
  ) {
    this.direct = cps === undefined;
    this.n = cps === undefined ? (source as string).length : cps.length;
    // every token but EOF takes at least one code point: n + 1 objects hold any lexing of the source, so
    // the writes need no test for a missing one
    while (tokens.length <= this.n) tokens.push({ kind: "EOF", start: 0, end: 0, text: "", op: 0 });
    // when every code point is one UTF-16 unit, token text is a plain slice of the source
    this.sliceable = source !== undefined && source.length === this.n;
  }
  private text(a: number, b: number): string {
    return this.sliceable ? (this.source as string).slice(a, b) : cpTextSlow(this.cps as readonly number[], a, b);
  }
  private at(k: number): number {
    if (k >= this.n) return -1;
    return this.direct ? (this.source as string).charCodeAt(k) : ((this.cps as readonly number[])[k] as number);
  }
  private push(kind: TokenKind, s: number, e: number): void {
    this.emit(kind, s, e, this.text(s, e), 0);
  }
  /** Writes the next token into the object at {@link count} (the constructor provided one per possible token). */
  private emit(kind: TokenKind, start: number, end: number, text: string, op: number): void {
    const t = this.tokens[this.count++] as MutableToken;
    t.kind = kind;
    t.start = start;
    t.end = end;
    t.text = text;
    t.op = op;
  }
  private fail(s: number, p: number): void {
    const e = Math.min(p + 1, this.n);
    this.errors.push({ offset: s, text: this.text(s, e) });
    this.i = Math.max(e, s + 1);
  }

  /** Scans a (possibly raw / triple-quoted) string starting at quote position q; returns end or -(failPos+1). */
  private scanString(q: number, raw: boolean): number {
    const quote = this.at(q);
    const triple = this.at(q + 1) === quote && this.at(q + 2) === quote;
    if (triple) {
      let k = q + 3;
      while (k < this.n) {
        const c = this.at(k);
        if (c === quote && this.at(k + 1) === quote && this.at(k + 2) === quote) return k + 3;
        if (c === 92 && !raw) {
          const r = this.scanEscape(k);
          if (r < 0) return r;
          k = r;
          continue;
        }
        k++;
      }
      return -(this.n + 1);
    }
    let k = q + 1;
    while (k < this.n) {
      const c = this.at(k);
      if (c === quote) return k + 1;
      if (c === 10 || c === 13) return -(k + 1);
      if (c === 92 && !raw) {
        const r = this.scanEscape(k);
        if (r < 0) return r;
        k = r;
        continue;
      }
      k++;
    }
    return -(this.n + 1);
  }
  /** Validates an escape sequence at backslash position k; returns the position after it or -(failPos+1). */
  private scanEscape(k: number): number {
    const c = this.at(k + 1);
    if (c < 0) return -(this.n + 1);
    // a b f n r t v " ' \ ? `
    if (c === 97 || c === 98 || c === 102 || c === 110 || c === 114 || c === 116 || c === 118 || c === 34 || c === 39 || c === 92 || c === 63 || c === 96)
      return k + 2;
    if (c === 120 || c === 88) {
      for (let j = 2; j < 4; j++) if (!isHex(this.at(k + j))) return -(k + j + 1);
      return k + 4;
    }
    if (c === 117) {
      for (let j = 2; j < 6; j++) if (!isHex(this.at(k + j))) return -(k + j + 1);
      return k + 6;
    }
    if (c === 85) {
      for (let j = 2; j < 10; j++) if (!isHex(this.at(k + j))) return -(k + j + 1);
      return k + 10;
    }
    if (c >= 48 && c <= 51) {
      for (let j = 2; j < 4; j++) {
        const d = this.at(k + j);
        if (!(d >= 48 && d <= 55)) return -(k + j + 1);
      }
      return k + 4;
    }
    return -(k + 1 + 1);
  }

  /** The punctuation token starting with ASCII `c` followed by `d` (-1 at the end), if any. */
  private punct(c: number, d: number): Punct | undefined {
    switch (c) {
      case 61: // =
        return d === 61 ? P_EQ : undefined;
      case 33: // !
        return d === 61 ? P_NE : P_NOT;
      case 60: // <
        return d === 61 ? P_LE : P_LT;
      case 62: // >
        return d === 61 ? P_GE : P_GT;
      case 38: // &
        return d === 38 ? P_AND : undefined;
      case 124: // |
        return d === 124 ? P_OR : undefined;
      case 91:
        return P_LBRACKET;
      case 93:
        return P_RBRACKET;
      case 123:
        return P_LBRACE;
      case 125:
        return P_RBRACE;
      case 40:
        return P_LPAREN;
      case 41:
        return P_RPAREN;
      case 46:
        return P_DOT;
      case 44:
        return P_COMMA;
      case 45:
        return P_MINUS;
      case 63:
        return P_QUESTION;
      case 58:
        return P_COLON;
      case 43:
        return P_PLUS;
      case 42:
        return P_STAR;
      case 47:
        return P_SLASH;
      case 37:
        return P_PERCENT;
      default:
        return undefined;
    }
  }

  /** Scans the identifier or keyword starting at `s`. */
  private identifier(s: number): void {
    let k = s + 1;
    let kind: TokenKind;
    let text: string;
    if (this.direct) {
      const src = this.source as string;
      while (k < this.n && isIdentPart(src.charCodeAt(k))) k++;
      kind = keywordKind(src, s, k - s);
      text = kind === "IDENTIFIER" ? src.slice(s, k) : kind;
    } else {
      while (isIdentPart(this.at(k))) k++;
      text = this.text(s, k);
      kind = text === "true" || text === "false" || text === "null" || text === "in" ? text : "IDENTIFIER";
    }
    this.emit(kind, s, k, text, kind === "in" ? OP_IN : 0);
    this.i = k;
  }

  /** Emits the punctuation token starting with ASCII `c` at `s`, if there is one. */
  private punctuation(s: number, c: number): boolean {
    const p = this.punct(c, this.at(s + 1));
    if (p === undefined) return false;
    const kind = p.kind;
    // punctuation text is its kind
    this.emit(kind, s, s + kind.length, kind, p.op);
    this.i = s + kind.length;
    return true;
  }

  run(): void {
    if (this.direct) this.runDirect();
    while (this.i < this.n) {
      const c = this.at(this.i);
      // whitespace
      if (c === 32 || c === 9 || c === 10 || c === 13 || c === 12) {
        this.i++;
        continue;
      }
      // fast paths for the commonest tokens: identifiers that cannot begin a string literal's
      // prefix, and punctuation that cannot begin a number or a comment
      if (c < 128) {
        const f = FAST_CLASS[c] as number;
        if (f === FAST_IDENT) {
          this.identifier(this.i);
          continue;
        }
        if (f === FAST_PUNCT && this.punctuation(this.i, c)) continue;
      }
      this.step(c);
    }
    this.emit("EOF", this.n, this.n, "<EOF>", 0);
  }

  /**
   * The main loop over a source read directly (no surrogates), with whitespace, identifiers and
   * punctuation scanned inline on local variables; every other token goes through {@link step}.
   * Leaves `i` at the end of the source. Kept small: V8 optimizes it early in a run, and what it
   * inlines is compiled again there (a fast path for numbers and quoted strings here cost a cold
   * corpus pass ~11M more instructions than it saved).
   */
  private runDirect(): void {
    const src = this.source as string;
    const n = this.n;
    const tokens = this.tokens;
    let count = this.count;
    let i = this.i;
    while (i < n) {
      const c = src.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13 || c === 12) {
        i++;
        continue;
      }
      if (c < 128) {
        const f = FAST_CLASS[c] as number;
        if (f === FAST_IDENT) {
          IDENT_TAIL.lastIndex = i + 1;
          IDENT_TAIL.test(src);
          const k = IDENT_TAIL.lastIndex;
          const kind = keywordKind(src, i, k - i);
          const text = kind === "IDENTIFIER" ? src.slice(i, k) : kind;
          const op = kind === "in" ? OP_IN : 0;
          const t = tokens[count++] as MutableToken;
          t.kind = kind;
          t.start = i;
          t.end = k;
          t.text = text;
          t.op = op;
          i = k;
          continue;
        }
        if (f === FAST_PUNCT) {
          const p = PUNCT_SINGLE[c] ?? (i + 1 < n && src.charCodeAt(i + 1) === PUNCT_PAIR_SECOND[c] ? PUNCT_PAIR[c] : PUNCT_ALONE[c]);
          if (p !== undefined) {
            const kind = p.kind;
            const t = tokens[count++] as MutableToken;
            t.kind = kind;
            t.start = i;
            t.end = i + kind.length;
            t.text = kind;
            t.op = p.op;
            i += kind.length;
            continue;
          }
        }
        if (f === FAST_DOT) {
          // `.` not followed by a digit (else a number like `.5`)
          const d = i + 1 < n ? src.charCodeAt(i + 1) : -1;
          if (!(d >= 48 && d <= 57)) {
            const t = tokens[count++] as MutableToken;
            t.kind = ".";
            t.start = i;
            t.end = i + 1;
            t.text = ".";
            t.op = 0;
            i++;
            continue;
          }
        }
      }
      this.i = i;
      this.count = count;
      this.step(c);
      i = this.i;
      count = this.count;
    }
    this.i = i;
    this.count = count;
  }

  /** Scans the token (or skips the comment, or reports the error) at `i`, whose first code point is `c`. */
  private step(c: number): void {
    // comment
    if (c === 47 && this.at(this.i + 1) === 47) {
      while (this.i < this.n && this.at(this.i) !== 10) this.i++;
      return;
    }
    const s = this.i;
    // numbers
    if (isDigit(c) || (c === 46 && isDigit(this.at(this.i + 1)))) {
      if (c === 48 && (this.at(this.i + 1) === 120 || this.at(this.i + 1) === 88) && isHex(this.at(this.i + 2))) {
        // '0x' HEX+ ; ANTLR only matches lowercase '0x'
        if (this.at(this.i + 1) === 120) {
          let k = this.i + 2;
          while (isHex(this.at(k))) k++;
          if (this.at(k) === 117 || this.at(k) === 85) {
            this.push("NUM_UINT", s, k + 1);
            this.i = k + 1;
          } else {
            this.push("NUM_INT", s, k);
            this.i = k;
          }
          return;
        }
      }
      let k = this.i;
      let isFloat = false;
      while (isDigit(this.at(k))) k++;
      if (this.at(k) === 46 && isDigit(this.at(k + 1))) {
        isFloat = true;
        k++;
        while (isDigit(this.at(k))) k++;
      }
      if (this.at(k) === 101 || this.at(k) === 69) {
        let e = k + 1;
        if (this.at(e) === 43 || this.at(e) === 45) e++;
        if (isDigit(this.at(e))) {
          while (isDigit(this.at(e))) e++;
          k = e;
          isFloat = true;
        }
      }
      if (isFloat) {
        this.push("NUM_FLOAT", s, k);
        this.i = k;
        return;
      }
      if (this.at(k) === 117 || this.at(k) === 85) {
        this.push("NUM_UINT", s, k + 1);
        this.i = k + 1;
        return;
      }
      this.push("NUM_INT", s, k);
      this.i = k;
      return;
    }
    // strings, raw strings, bytes (they start with b, B, r, R, " or ')
    if (c === 98 || c === 66 || c === 114 || c === 82 || c === 34 || c === 39) {
      let k = this.i;
      let bytes = false;
      let raw = false;
      if (this.at(k) === 98 || this.at(k) === 66) {
        const nx = this.at(k + 1);
        if (nx === 34 || nx === 39 || ((nx === 114 || nx === 82) && (this.at(k + 2) === 34 || this.at(k + 2) === 39))) {
          bytes = true;
          k++;
        }
      }
      if ((this.at(k) === 114 || this.at(k) === 82) && (this.at(k + 1) === 34 || this.at(k + 1) === 39)) {
        raw = true;
        k++;
      }
      if (this.at(k) === 34 || this.at(k) === 39) {
        const r = this.scanString(k, raw);
        if (r < 0) {
          this.fail(s, -r - 1);
          return;
        }
        this.push(bytes ? "BYTES" : "STRING", s, r);
        this.i = r;
        return;
      }
    }
    if (isIdentStart(c)) {
      this.identifier(s);
      return;
    }
    if (c === 96) {
      // ESC_IDENTIFIER: '`' (LETTER | DIGIT | '_' | '.' | '-' | '/' | ' ')+ '`'
      let k = this.i + 1;
      const ok = (x: number): boolean => isIdentPart(x) || x === 46 || x === 45 || x === 47 || x === 32;
      while (ok(this.at(k))) k++;
      if (this.at(k) === 96 && k > this.i + 1) {
        this.push("ESC_IDENTIFIER", s, k + 1);
        this.i = k + 1;
        return;
      }
      this.fail(s, k);
      return;
    }
    if (c < 128) {
      if (this.punctuation(s, c)) return;
      if (c === 38 || c === 124 || c === 61) {
        // '&', '|', '=' that did not form '&&', '||', '==': ANTLR consumes the next char too
        this.fail(s, this.i + 1 < this.n ? this.i + 1 : this.i);
        return;
      }
    }
    this.fail(s, s);
  }
}

/**
 * Tokenizes `cps` (`source` is the same text, used for fast slicing). Returns tokens
 * (ending with EOF) and lexical errors in order. Never throws; linear in the input size.
 */
export function lex(cps: readonly number[], source?: string): { tokens: Token[]; errors: LexError[] } {
  const l = new Lexer(cps, source, []);
  l.run();
  l.tokens.length = l.count;
  return { tokens: l.tokens, errors: l.errors };
}

/** Whether `s` contains a UTF-16 surrogate (its code points and code units then differ). */
export function hasSurrogates(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) return true;
  }
  return false;
}

/**
 * Tokenizes `source`, which must contain no surrogates (see {@link hasSurrogates}): then its
 * code points are its UTF-16 units, read directly without a code-point array. Same result as
 * `lex(toCodePoints(source), source)`.
 */
export function lexSource(source: string): { tokens: Token[]; errors: LexError[] } {
  const l = new Lexer(undefined, source, []);
  l.run();
  l.tokens.length = l.count;
  return { tokens: l.tokens, errors: l.errors };
}

/** What {@link lexPooled} wrote: `tokens[0..count)` (ending with EOF); entries past `count` are stale. */
export interface PooledTokens {
  readonly tokens: readonly Token[];
  readonly count: number;
  readonly errors: LexError[];
}

/**
 * Tokenizes like {@link lex} (`cps` undefined: like {@link lexSource}) into the shared token pool: the
 * tokens are valid until {@link releaseTokens}, and the next pooled lexing rewrites them, so a caller
 * must not keep a token. While the pool is taken (a nested lexing), the tokens are new objects.
 */
export function lexPooled(cps: readonly number[] | undefined, source: string): PooledTokens {
  const pooled = !poolInUse;
  poolInUse = true;
  const l = new Lexer(cps, source, pooled ? POOL : []);
  l.run();
  return { tokens: l.tokens, count: l.count, errors: l.errors };
}

/** Returns the pool {@link lexPooled} took (`tokens` is what it answered); trims it after a very long source. */
export function releaseTokens(tokens: readonly Token[]): void {
  if (tokens !== POOL) return;
  if (POOL.length > POOL_KEEP) POOL.length = POOL_KEEP;
  poolInUse = false;
}
