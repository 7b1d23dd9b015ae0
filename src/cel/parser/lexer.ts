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
}

/** A lexical error (ANTLR `token recognition error`). */
export interface LexError {
  readonly offset: number;
  readonly text: string;
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isHex = (c: number): boolean => isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
const isIdentStart = (c: number): boolean => isLetter(c) || c === 95;
const isIdentPart = (c: number): boolean => isIdentStart(c) || isDigit(c);

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

function cpText(cps: readonly number[], a: number, b: number): string {
  let s = "";
  for (let i = a; i < b; i++) s += String.fromCodePoint(cps[i] as number);
  return s;
}

const PUNCT2: Record<string, TokenKind> = {
  "==": "==",
  "!=": "!=",
  "<=": "<=",
  ">=": ">=",
  "&&": "&&",
  "||": "||",
};
const PUNCT1 = new Set("<>[]{}().,-!?:+*/%");

/**
 * Tokenizes `cps`. Returns tokens (ending with EOF) and lexical errors in order.
 * Never throws; linear in the input size.
 */
export function lex(cps: readonly number[]): { tokens: Token[]; errors: LexError[] } {
  const tokens: Token[] = [];
  const errors: LexError[] = [];
  const n = cps.length;
  let i = 0;
  const at = (k: number): number => (k < n ? (cps[k] as number) : -1);
  const push = (kind: TokenKind, s: number, e: number): void => {
    tokens.push({ kind, start: s, end: e, text: cpText(cps, s, e) });
  };
  const fail = (s: number, p: number): void => {
    const e = Math.min(p + 1, n);
    errors.push({ offset: s, text: cpText(cps, s, e) });
    i = Math.max(e, s + 1);
  };

  /** Scans a (possibly raw / triple-quoted) string starting at quote position q; returns end or -(failPos+1). */
  const scanString = (q: number, raw: boolean): number => {
    const quote = at(q);
    const triple = at(q + 1) === quote && at(q + 2) === quote;
    if (triple) {
      let k = q + 3;
      while (k < n) {
        const c = at(k);
        if (c === quote && at(k + 1) === quote && at(k + 2) === quote) return k + 3;
        if (c === 92 && !raw) {
          const r = scanEscape(k);
          if (r < 0) return r;
          k = r;
          continue;
        }
        k++;
      }
      return -(n + 1);
    }
    let k = q + 1;
    while (k < n) {
      const c = at(k);
      if (c === quote) return k + 1;
      if (c === 10 || c === 13) return -(k + 1);
      if (c === 92 && !raw) {
        const r = scanEscape(k);
        if (r < 0) return r;
        k = r;
        continue;
      }
      k++;
    }
    return -(n + 1);
  };
  /** Validates an escape sequence at backslash position k; returns the position after it or -(failPos+1). */
  const scanEscape = (k: number): number => {
    const c = at(k + 1);
    if (c < 0) return -(n + 1);
    if ("abfnrtv\"'\\?`".includes(String.fromCharCode(c))) return k + 2;
    if (c === 120 || c === 88) {
      for (let j = 2; j < 4; j++) if (!isHex(at(k + j))) return -(k + j + 1);
      return k + 4;
    }
    if (c === 117) {
      for (let j = 2; j < 6; j++) if (!isHex(at(k + j))) return -(k + j + 1);
      return k + 6;
    }
    if (c === 85) {
      for (let j = 2; j < 10; j++) if (!isHex(at(k + j))) return -(k + j + 1);
      return k + 10;
    }
    if (c >= 48 && c <= 51) {
      for (let j = 2; j < 4; j++) {
        const d = at(k + j);
        if (!(d >= 48 && d <= 55)) return -(k + j + 1);
      }
      return k + 4;
    }
    return -(k + 1 + 1);
  };

  while (i < n) {
    const c = at(i);
    // whitespace
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 12) {
      i++;
      continue;
    }
    // comment
    if (c === 47 && at(i + 1) === 47) {
      while (i < n && at(i) !== 10) i++;
      continue;
    }
    const s = i;
    // numbers
    if (isDigit(c) || (c === 46 && isDigit(at(i + 1)))) {
      if (c === 48 && (at(i + 1) === 120 || at(i + 1) === 88) && isHex(at(i + 2))) {
        // '0x' HEX+ ; ANTLR only matches lowercase '0x'
        if (at(i + 1) === 120) {
          let k = i + 2;
          while (isHex(at(k))) k++;
          if (at(k) === 117 || at(k) === 85) {
            push("NUM_UINT", s, k + 1);
            i = k + 1;
          } else {
            push("NUM_INT", s, k);
            i = k;
          }
          continue;
        }
      }
      let k = i;
      let isFloat = false;
      while (isDigit(at(k))) k++;
      if (at(k) === 46 && isDigit(at(k + 1))) {
        isFloat = true;
        k++;
        while (isDigit(at(k))) k++;
      }
      if (at(k) === 101 || at(k) === 69) {
        let e = k + 1;
        if (at(e) === 43 || at(e) === 45) e++;
        if (isDigit(at(e))) {
          while (isDigit(at(e))) e++;
          k = e;
          isFloat = true;
        }
      }
      if (isFloat) {
        push("NUM_FLOAT", s, k);
        i = k;
        continue;
      }
      if (at(k) === 117 || at(k) === 85) {
        push("NUM_UINT", s, k + 1);
        i = k + 1;
        continue;
      }
      push("NUM_INT", s, k);
      i = k;
      continue;
    }
    // strings, raw strings, bytes
    {
      let k = i;
      let bytes = false;
      let raw = false;
      if (at(k) === 98 || at(k) === 66) {
        const nx = at(k + 1);
        if (nx === 34 || nx === 39 || ((nx === 114 || nx === 82) && (at(k + 2) === 34 || at(k + 2) === 39))) {
          bytes = true;
          k++;
        }
      }
      if ((at(k) === 114 || at(k) === 82) && (at(k + 1) === 34 || at(k + 1) === 39)) {
        raw = true;
        k++;
      }
      if (at(k) === 34 || at(k) === 39) {
        const r = scanString(k, raw);
        if (r < 0) {
          fail(s, -r - 1);
          continue;
        }
        push(bytes ? "BYTES" : "STRING", s, r);
        i = r;
        continue;
      }
    }
    if (isIdentStart(c)) {
      let k = i + 1;
      while (isIdentPart(at(k))) k++;
      const text = cpText(cps, s, k);
      const kind: TokenKind =
        text === "true" || text === "false" || text === "null" || text === "in" ? text : "IDENTIFIER";
      tokens.push({ kind, start: s, end: k, text });
      i = k;
      continue;
    }
    if (c === 96) {
      // ESC_IDENTIFIER: '`' (LETTER | DIGIT | '_' | '.' | '-' | '/' | ' ')+ '`'
      let k = i + 1;
      const ok = (x: number): boolean => isIdentPart(x) || x === 46 || x === 45 || x === 47 || x === 32;
      while (ok(at(k))) k++;
      if (at(k) === 96 && k > i + 1) {
        push("ESC_IDENTIFIER", s, k + 1);
        i = k + 1;
        continue;
      }
      fail(s, k);
      continue;
    }
    if (c < 128) {
      const two = String.fromCharCode(c) + (at(i + 1) >= 0 && at(i + 1) < 128 ? String.fromCharCode(at(i + 1)) : "");
      const k2 = PUNCT2[two];
      if (k2 !== undefined) {
        push(k2, s, s + 2);
        i += 2;
        continue;
      }
      const one = String.fromCharCode(c);
      if (PUNCT1.has(one)) {
        push(one as TokenKind, s, s + 1);
        i++;
        continue;
      }
      if (c === 38 || c === 124 || c === 61) {
        // '&', '|', '=' that did not form '&&', '||', '==': ANTLR consumes the next char too
        fail(s, i + 1 < n ? i + 1 : i);
        continue;
      }
    }
    fail(s, s);
  }
  tokens.push({ kind: "EOF", start: n, end: n, text: "<EOF>" });
  return { tokens, errors };
}
