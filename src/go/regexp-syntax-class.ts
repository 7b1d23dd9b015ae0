/**
 * Go's `regexp/syntax` character class arithmetic for src/go/regexp-syntax.ts: classes as range lists
 * `[lo0, hi0, lo1, hi1, …]`, appended to as Go appends (`appendRange` widens one of the last two ranges,
 * so the lists, and the parse tree's size, are Go's), cleaned, negated and case-folded with Go's
 * `unicode.SimpleFold`; the Perl and POSIX class tables (Go's perl_groups.go).
 *
 * @module
 */
import { MAX_FOLD, MAX_RUNE, MIN_FOLD, simpleFold } from "./regexp-unicode.js";

/** `syntax.FoldCase`. */
const FOLD_CASE = 1;

/** Perl classes `\d \s \w` and POSIX classes `[:name:]` (Go's perl_groups.go), ASCII ranges. */
const DIGIT = [0x30, 0x39];
const SPACE = [0x9, 0xa, 0xc, 0xd, 0x20, 0x20];
const WORD = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];
export const PERL_GROUPS: Readonly<Record<string, readonly number[]>> = { d: DIGIT, s: SPACE, w: WORD };
export const POSIX_GROUPS: Readonly<Record<string, readonly number[]>> = {
  alnum: [0x30, 0x39, 0x41, 0x5a, 0x61, 0x7a],
  alpha: [0x41, 0x5a, 0x61, 0x7a],
  ascii: [0x0, 0x7f],
  blank: [0x9, 0x9, 0x20, 0x20],
  cntrl: [0x0, 0x1f, 0x7f, 0x7f],
  digit: DIGIT,
  graph: [0x21, 0x7e],
  lower: [0x61, 0x7a],
  print: [0x20, 0x7e],
  punct: [0x21, 0x2f, 0x3a, 0x40, 0x5b, 0x60, 0x7b, 0x7e],
  space: [0x9, 0xd, 0x20, 0x20],
  upper: [0x41, 0x5a],
  word: WORD,
  xdigit: [0x30, 0x39, 0x41, 0x46, 0x61, 0x66],
};

/** Go's `minFoldRune`: the least rune of r's fold orbit. */
export function minFoldRune(r: number): number {
  if (r < MIN_FOLD || r > MAX_FOLD) return r;
  let m = r;
  for (let f = simpleFold(r); f !== r; f = simpleFold(f)) m = Math.min(m, f);
  return m;
}

/** Go's `appendRange`: adds lo-hi, widening one of the last two ranges when it overlaps or abuts. */
export function appendRange(r: number[], lo: number, hi: number): number[] {
  const n = r.length;
  for (let i = 2; i <= 4; i += 2) {
    if (n >= i) {
      const rlo = r[n - i] as number;
      const rhi = r[n - i + 1] as number;
      if (lo <= rhi + 1 && rlo <= hi + 1) {
        if (lo < rlo) r[n - i] = lo;
        if (hi > rhi) r[n - i + 1] = hi;
        return r;
      }
    }
  }
  r.push(lo, hi);
  return r;
}

/** Go's `appendFoldedRange`: lo-hi and every rune that folds to one of them. */
export function appendFoldedRange(r: number[], lo: number, hi: number): number[] {
  if (lo <= MIN_FOLD && hi >= MAX_FOLD) return appendRange(r, lo, hi);
  if (hi < MIN_FOLD || lo > MAX_FOLD) return appendRange(r, lo, hi);
  if (lo < MIN_FOLD) {
    appendRange(r, lo, MIN_FOLD - 1);
    lo = MIN_FOLD;
  }
  if (hi > MAX_FOLD) {
    appendRange(r, MAX_FOLD + 1, hi);
    hi = MAX_FOLD;
  }
  for (let c = lo; c <= hi; c++) {
    appendRange(r, c, c);
    for (let f = simpleFold(c); f !== c; f = simpleFold(f)) appendRange(r, f, f);
  }
  return r;
}

export function appendLiteral(r: number[], x: number, flags: number): number[] {
  return flags & FOLD_CASE ? appendFoldedRange(r, x, x) : appendRange(r, x, x);
}

export function appendClass(r: number[], x: readonly number[]): number[] {
  for (let i = 0; i < x.length; i += 2) appendRange(r, x[i] as number, x[i + 1] as number);
  return r;
}

export function appendFoldedClass(r: number[], x: readonly number[]): number[] {
  for (let i = 0; i < x.length; i += 2) appendFoldedRange(r, x[i] as number, x[i + 1] as number);
  return r;
}

/** Go's `appendNegatedClass` (x clean); also its `appendNegatedTable`, tables being clean range lists here. */
export function appendNegatedClass(r: number[], x: readonly number[]): number[] {
  let nextLo = 0;
  for (let i = 0; i < x.length; i += 2) {
    const lo = x[i] as number;
    if (nextLo <= lo - 1) appendRange(r, nextLo, lo - 1);
    nextLo = (x[i + 1] as number) + 1;
  }
  if (nextLo <= MAX_RUNE) appendRange(r, nextLo, MAX_RUNE);
  return r;
}

/** Go's `cleanClass`: sorts the ranges (lo up, hi down), merges overlapping and abutting ones. */
export function cleanClass(r: number[]): number[] {
  const n = r.length / 2;
  if (n < 2) return r;
  const idx = Array.from({ length: n }, (_, i) => i);
  idx.sort((a, b) => (r[2 * a] as number) - (r[2 * b] as number) || (r[2 * b + 1] as number) - (r[2 * a + 1] as number));
  const sorted = new Array<number>(2 * n);
  for (let k = 0; k < n; k++) {
    sorted[2 * k] = r[2 * (idx[k] as number)] as number;
    sorted[2 * k + 1] = r[2 * (idx[k] as number) + 1] as number;
  }
  let w = 2;
  for (let i = 2; i < sorted.length; i += 2) {
    const lo = sorted[i] as number;
    const hi = sorted[i + 1] as number;
    if (lo <= (sorted[w - 1] as number) + 1) {
      if (hi > (sorted[w - 1] as number)) sorted[w - 1] = hi;
      continue;
    }
    sorted[w] = lo;
    sorted[w + 1] = hi;
    w += 2;
  }
  sorted.length = w;
  r.length = 0;
  for (const x of sorted) r.push(x);
  return r;
}

/** Go's `negateClass` of a clean class. */
export function negateClass(r: readonly number[]): number[] {
  const out: number[] = [];
  let nextLo = 0;
  for (let i = 0; i < r.length; i += 2) {
    const lo = r[i] as number;
    if (nextLo <= lo - 1) out.push(nextLo, lo - 1);
    nextLo = (r[i + 1] as number) + 1;
  }
  if (nextLo <= MAX_RUNE) out.push(nextLo, MAX_RUNE);
  return out;
}

