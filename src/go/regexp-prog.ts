/**
 * The one instruction format both of crdkit's Go `regexp` front ends compile to, and that
 * src/go/regexp-matcher.ts runs: Go's `regexp/syntax` program (`Prog`).
 * src/go/regexp-simple.ts emits it for the simple subset; src/go/regexp-compile.ts (Go's `Compile`) for
 * everything else.
 *
 * @module
 */

/** Instruction codes: Go's `syntax.InstOp`s, each Go's code plus one, but `FAIL` 5 and `MATCH` 6 (Go: 5 and 4). */
export const ALT = 1;
export const ALT_MATCH = 2;
export const CAPTURE = 3;
export const EMPTY_WIDTH = 4;
export const FAIL = 5;
export const MATCH = 6;
export const NOP = 7;
export const RUNE = 8;
export const RUNE1 = 9;
export const RUNE_ANY = 10;
export const RUNE_ANY_NOT_NL = 11;

/** Go's `syntax.EmptyOp` bits (the `arg` of an `EMPTY_WIDTH` instruction). */
export const BEGIN_LINE = 1;
export const END_LINE = 2;
export const BEGIN_TEXT = 4;
export const END_TEXT = 8;
export const WORD_BOUNDARY = 16;
export const NO_WORD_BOUNDARY = 32;

/**
 * Rune classes for the lazy DFA: runes of one class are matched alike by every rune instruction (and,
 * when the program asserts `\b`, `\B`, `(?m)^` or `(?m)$`, are alike as to being word runes or `\n`).
 */
export interface RuneClasses {
  /** The class of each ASCII rune. */
  readonly ascii: Int32Array;
  /** The class of a rune ≥ 0x80 (a code point; a lone surrogate is itself). */
  wide(r: number): number;
  /** The number of classes. */
  readonly count: number;
}

/**
 * A compiled program. Successors: `out` (and `arg` for `ALT`, the lower-priority branch); `arg` of
 * `EMPTY_WIDTH` is its assertion bits. Rune instructions (`RUNE`, `RUNE1`, `RUNE_ANY`,
 * `RUNE_ANY_NOT_NL`) are asked through {@link Prog.matchRune}; `CAPTURE` and `NOP` are empty steps.
 */
export interface Prog {
  readonly op: Int8Array;
  readonly out: Int32Array;
  readonly arg: Int32Array;
  readonly start: number;
  /** Whether rune instruction `pc` matches rune `r` (case folding included). */
  matchRune(pc: number, r: number): boolean;
  /** Rune classes for a lazy DFA; undefined: matched by simulation alone. */
  readonly classes?: RuneClasses;
  /** False when `s` cannot contain a match (literals every match holds are missing); absent: no such test. */
  readonly prefilter?: (s: string) => boolean;
}

/** Go's `syntax.IsWordChar` (ASCII only, as in RE2). */
export function isWordRune(r: number): boolean {
  return (r >= 48 && r <= 57) || (r >= 65 && r <= 90) || (r >= 97 && r <= 122) || r === 95;
}

/** Go's `syntax.EmptyOpContext(r1, r2)`: the assertions that hold between runes r1 and r2 (-1: the text's edge). */
export function emptyContext(r1: number, r2: number): number {
  let op = 0;
  if (r1 < 0) op |= BEGIN_TEXT | BEGIN_LINE;
  else if (r1 === 10) op |= BEGIN_LINE;
  if (r2 < 0) op |= END_TEXT | END_LINE;
  else if (r2 === 10) op |= END_LINE;
  op |= isWordRune(r1) !== isWordRune(r2) ? WORD_BOUNDARY : NO_WORD_BOUNDARY;
  return op;
}

/** The code point at `pos` of a UTF-16 subject (a lone surrogate is itself); -1 at the end. */
export function runeAt(s: string, pos: number): number {
  return pos < s.length ? (s.codePointAt(pos) as number) : -1;
}

/** The code point ending at `pos` (the one {@link runeAt} reads just before it); -1 at the start. */
export function runeBefore(s: string, pos: number): number {
  if (pos <= 0) return -1;
  const c = s.charCodeAt(pos - 1);
  if (c >= 0xdc00 && c <= 0xdfff && pos >= 2) {
    const h = s.charCodeAt(pos - 2);
    if (h >= 0xd800 && h <= 0xdbff) return (h - 0xd800) * 0x400 + (c - 0xdc00) + 0x10000;
  }
  return c;
}

/** The kind of a rune next to a position, as far as assertions there are concerned: word rune, newline, other. */
export function runeKind(r: number): number {
  return isWordRune(r) ? 1 : r === 10 ? 2 : 0;
}

/** Whether rune instruction `pc` of `prog` matches `r`. */
export function instMatches(prog: Prog, pc: number, r: number): boolean {
  switch (prog.op[pc]) {
    case RUNE_ANY:
      return true;
    case RUNE_ANY_NOT_NL:
      return r !== 10;
    default:
      return prog.matchRune(pc, r);
  }
}

/** Whether some assertion of `prog` depends on the runes around it (`\b`, `\B`, `(?m)^`, `(?m)$`). */
export function isContextual(prog: Prog): boolean {
  for (let pc = 0; pc < prog.op.length; pc++) {
    if (prog.op[pc] === EMPTY_WIDTH && ((prog.arg[pc] as number) & (BEGIN_LINE | END_LINE | WORD_BOUNDARY | NO_WORD_BOUNDARY)) !== 0) return true;
  }
  return false;
}
