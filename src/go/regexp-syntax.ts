/**
 * Go's `regexp/syntax.Parse(pattern, syntax.Perl)`: the parse tree `regexp.Compile` builds, with Go's
 * exact verdicts and error texts (`error parsing regexp: missing closing ): …`), including its limits:
 * repeat counts (`invalid repeat count`, at most 1,000 nested copies), the compiled size
 * (`expression too large` past 128 MiB / 40 bytes = 3,355,443 instructions, as estimated while parsing),
 * the nesting height (`expression nests too deeply` past 1,000) and the runes of classes. The tree is Go's
 * too — literal strings merged, alternatives factored (`ab|ac` → `a[bc]`), classes cleaned — since the
 * size limit is counted on it, with Go's allocation count and free list (they decide when the counting
 * starts). The pattern is read as code points (a lone surrogate is itself); Go reads UTF-8.
 *
 * @module
 */
import {
  appendClass,
  appendFoldedClass,
  appendFoldedRange,
  appendLiteral,
  appendNegatedClass,
  appendRange,
  cleanClass,
  minFoldRune,
  negateClass,
  PERL_GROUPS,
  POSIX_GROUPS,
} from "./regexp-syntax-class.js";
import { MAX_RUNE, simpleFold, unicodeTable } from "./regexp-unicode.js";

/** Go's `syntax.Op` codes. */
export const OP_NO_MATCH = 1;
export const OP_EMPTY_MATCH = 2;
export const OP_LITERAL = 3;
export const OP_CHAR_CLASS = 4;
export const OP_ANY_CHAR_NOT_NL = 5;
export const OP_ANY_CHAR = 6;
export const OP_BEGIN_LINE = 7;
export const OP_END_LINE = 8;
export const OP_BEGIN_TEXT = 9;
export const OP_END_TEXT = 10;
export const OP_WORD_BOUNDARY = 11;
export const OP_NO_WORD_BOUNDARY = 12;
export const OP_CAPTURE = 13;
export const OP_STAR = 14;
export const OP_PLUS = 15;
export const OP_QUEST = 16;
export const OP_REPEAT = 17;
export const OP_CONCAT = 18;
export const OP_ALTERNATE = 19;
const OP_PSEUDO = 128;
const OP_LEFT_PAREN = 128;
const OP_VERTICAL_BAR = 129;

/** Go's `syntax.Flags`. */
export const FOLD_CASE = 1;
const CLASS_NL = 4;
const DOT_NL = 8;
const ONE_LINE = 16;
export const NON_GREEDY = 32;
const PERL_X = 64;
const UNICODE_GROUPS = 128;
const WAS_DOLLAR = 256;
/** `syntax.Perl`, the flags of `regexp.Compile`. */
const PERL = CLASS_NL | ONE_LINE | PERL_X | UNICODE_GROUPS;

/** A node of Go's parse tree (`syntax.Regexp`). */
export class Regexp {
  op: number;
  flags = 0;
  sub: Regexp[] = [];
  rune: number[] = [];
  min = 0;
  max = 0;
  cap = 0;
  name = "";
  /** The free list's link (Go keeps it in `Sub0[0]`). */
  nextFree: Regexp | undefined = undefined;
  constructor(op: number) {
    this.op = op;
  }
}

/** Go's `(*Regexp).Equal`. */
export function regexpEqual(x: Regexp | undefined, y: Regexp | undefined): boolean {
  if (x === undefined || y === undefined) return x === y;
  if (x.op !== y.op) return false;
  switch (x.op) {
    case OP_END_TEXT:
      return (x.flags & WAS_DOLLAR) === (y.flags & WAS_DOLLAR);
    case OP_LITERAL:
    case OP_CHAR_CLASS:
      return (x.flags & FOLD_CASE) === (y.flags & FOLD_CASE) && sameRunes(x.rune, y.rune);
    case OP_ALTERNATE:
    case OP_CONCAT:
      return x.sub.length === y.sub.length && x.sub.every((s, i) => regexpEqual(s, y.sub[i]));
    case OP_STAR:
    case OP_PLUS:
    case OP_QUEST:
      return (x.flags & NON_GREEDY) === (y.flags & NON_GREEDY) && regexpEqual(x.sub[0], y.sub[0]);
    case OP_REPEAT:
      return (x.flags & NON_GREEDY) === (y.flags & NON_GREEDY) && x.min === y.min && x.max === y.max && regexpEqual(x.sub[0], y.sub[0]);
    case OP_CAPTURE:
      return x.cap === y.cap && x.name === y.name && regexpEqual(x.sub[0], y.sub[0]);
  }
  return true;
}

function sameRunes(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Go's `syntax.ErrorCode` texts. */
const ERR_INVALID_CHAR_RANGE = "invalid character class range";
const ERR_INVALID_ESCAPE = "invalid escape sequence";
const ERR_INVALID_NAMED_CAPTURE = "invalid named capture";
const ERR_INVALID_PERL_OP = "invalid or unsupported Perl syntax";
const ERR_INVALID_REPEAT_OP = "invalid nested repetition operator";
const ERR_INVALID_REPEAT_SIZE = "invalid repeat count";
const ERR_MISSING_BRACKET = "missing closing ]";
const ERR_MISSING_PAREN = "missing closing )";
const ERR_MISSING_REPEAT_ARGUMENT = "missing argument to repetition operator";
const ERR_TRAILING_BACKSLASH = "trailing backslash at end of expression";
const ERR_UNEXPECTED_PAREN = "unexpected )";
const ERR_NESTING_DEPTH = "expression nests too deeply";
const ERR_LARGE = "expression too large";

/** A parse error: Go's `*syntax.Error` (`Error()` is its text). */
export class GoSyntaxError extends Error {
  constructor(
    readonly code: string,
    readonly expr: string,
  ) {
    super(`error parsing regexp: ${code}: \`${expr}\``);
  }
}

/** Go's panics for the size and height limits (reported with the whole expression). */
class LimitPanic {
  constructor(readonly code: string) {}
}

/** Go's `maxHeight`, `maxSize` (128 MiB of 40-byte instructions) and `maxRunes` (128 MiB of 4-byte runes). */
const MAX_HEIGHT = 1000;
const MAX_SIZE = Math.floor((128 << 20) / 40);
const MAX_RUNES = (128 << 20) / 4;

const isalnum = (c: number): boolean => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);

function unhex(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

/** The code point at `i` of `s` and its length in UTF-16 units. */
function runeAt(s: string, i: number): number {
  return s.codePointAt(i) as number;
}
const width = (r: number): number => (r > 0xffff ? 2 : 1);

/** Go's `isCharClass`: a single-rune literal, a class, `.` or `(?s:.)`. */
function isCharClass(re: Regexp): boolean {
  return (re.op === OP_LITERAL && re.rune.length === 1) || re.op === OP_CHAR_CLASS || re.op === OP_ANY_CHAR_NOT_NL || re.op === OP_ANY_CHAR;
}

/** Go's `matchRune` of a class-like node. */
function matchRune(re: Regexp, r: number): boolean {
  switch (re.op) {
    case OP_LITERAL:
      return re.rune.length === 1 && re.rune[0] === r;
    case OP_CHAR_CLASS:
      for (let i = 0; i < re.rune.length; i += 2) if ((re.rune[i] as number) <= r && r <= (re.rune[i + 1] as number)) return true;
      return false;
    case OP_ANY_CHAR_NOT_NL:
      return r !== 10;
    case OP_ANY_CHAR:
      return true;
  }
  return false;
}

/** Go's `cleanAlt`: a class made clean, `.`-like classes turned into their ops. */
function cleanAlt(re: Regexp): void {
  if (re.op !== OP_CHAR_CLASS) return;
  cleanClass(re.rune);
  const r = re.rune;
  if (r.length === 2 && r[0] === 0 && r[1] === MAX_RUNE) {
    re.rune = [];
    re.op = OP_ANY_CHAR;
  } else if (r.length === 4 && r[0] === 0 && r[1] === 9 && r[2] === 11 && r[3] === MAX_RUNE) {
    re.rune = [];
    re.op = OP_ANY_CHAR_NOT_NL;
  }
}

/** Go's `mergeCharClass`: dst = dst|src (dst.op ≥ src.op). */
function mergeCharClass(dst: Regexp, src: Regexp): void {
  switch (dst.op) {
    case OP_ANY_CHAR:
      break;
    case OP_ANY_CHAR_NOT_NL:
      if (matchRune(src, 10)) dst.op = OP_ANY_CHAR;
      break;
    case OP_CHAR_CLASS:
      if (src.op === OP_LITERAL) appendLiteral(dst.rune, src.rune[0] as number, src.flags);
      else appendClass(dst.rune, src.rune);
      break;
    case OP_LITERAL: {
      if (src.rune[0] === dst.rune[0] && src.flags === dst.flags) break;
      dst.op = OP_CHAR_CLASS;
      const first = dst.rune[0] as number;
      dst.rune = appendLiteral([], first, dst.flags);
      appendLiteral(dst.rune, src.rune[0] as number, src.flags);
      break;
    }
  }
}

/**
 * Go's `repeatIsValid`: the repeat counts nested in `re` allow at most `n` copies of the innermost
 * thing.
 */
function repeatIsValid(re: Regexp, n: number): boolean {
  if (re.op === OP_REPEAT) {
    let m = re.max;
    if (m === 0) return true;
    if (m < 0) m = re.min;
    if (m > n) return false;
    if (m > 0) n = Math.trunc(n / m);
  }
  for (const sub of re.sub) if (!repeatIsValid(sub, n)) return false;
  return true;
}

/** Go's `parser`, state and all. */
class Parser {
  flags = PERL;
  stack: Regexp[] = [];
  free: Regexp | undefined = undefined;
  numCap = 0;
  numRegexp = 0;
  numRunes = 0;
  repeats = 0;
  height: Map<Regexp, number> | undefined = undefined;
  size: Map<Regexp, number> | undefined = undefined;

  constructor(readonly whole: string) {}

  newRegexp(op: number): Regexp {
    const re = this.free;
    if (re !== undefined) {
      this.free = re.nextFree;
      re.op = op;
      re.flags = 0;
      re.sub = [];
      re.rune = [];
      re.min = 0;
      re.max = 0;
      re.cap = 0;
      re.name = "";
      re.nextFree = undefined;
      return re;
    }
    this.numRegexp++;
    return new Regexp(op);
  }

  reuse(re: Regexp): void {
    this.height?.delete(re);
    re.nextFree = this.free;
    this.free = re;
  }

  checkLimits(re: Regexp): void {
    if (this.numRunes > MAX_RUNES) throw new LimitPanic(ERR_LARGE);
    this.checkSize(re);
    this.checkHeight(re);
  }

  checkSize(re: Regexp): void {
    if (this.size === undefined) {
      if (this.repeats === 0) this.repeats = 1;
      if (re.op === OP_REPEAT) {
        let n = re.max;
        if (n === -1) n = re.min;
        if (n <= 0) n = 1;
        if (n > Math.trunc(MAX_SIZE / this.repeats)) this.repeats = MAX_SIZE;
        else this.repeats *= n;
      }
      if (this.numRegexp < Math.trunc(MAX_SIZE / this.repeats)) return;
      this.size = new Map();
      for (const s of this.stack) this.checkSize(s);
    }
    if (this.calcSize(re, true) > MAX_SIZE) throw new LimitPanic(ERR_LARGE);
  }

  calcSize(re: Regexp, force: boolean): number {
    const size = this.size as Map<Regexp, number>;
    if (!force) {
      const s = size.get(re);
      if (s !== undefined) return s;
    }
    let n = 0;
    switch (re.op) {
      case OP_LITERAL:
        n = re.rune.length;
        break;
      case OP_CAPTURE:
      case OP_STAR:
        n = 2 + this.calcSize(re.sub[0] as Regexp, false);
        break;
      case OP_PLUS:
      case OP_QUEST:
        n = 1 + this.calcSize(re.sub[0] as Regexp, false);
        break;
      case OP_CONCAT:
        for (const s of re.sub) n += this.calcSize(s, false);
        break;
      case OP_ALTERNATE:
        for (const s of re.sub) n += this.calcSize(s, false);
        if (re.sub.length > 1) n += re.sub.length - 1;
        break;
      case OP_REPEAT: {
        const sub = this.calcSize(re.sub[0] as Regexp, false);
        if (re.max === -1) n = re.min === 0 ? 2 + sub : 1 + re.min * sub;
        else n = re.max * sub + (re.max - re.min);
        break;
      }
    }
    n = Math.max(1, n);
    size.set(re, n);
    return n;
  }

  checkHeight(re: Regexp): void {
    if (this.numRegexp < MAX_HEIGHT) return;
    if (this.height === undefined) {
      this.height = new Map();
      for (const s of this.stack) this.checkHeight(s);
    }
    if (this.calcHeight(re, true) > MAX_HEIGHT) throw new LimitPanic(ERR_NESTING_DEPTH);
  }

  calcHeight(re: Regexp, force: boolean): number {
    const height = this.height as Map<Regexp, number>;
    if (!force) {
      const h = height.get(re);
      if (h !== undefined) return h;
    }
    let h = 1;
    for (const s of re.sub) {
      const hs = this.calcHeight(s, false);
      if (h < 1 + hs) h = 1 + hs;
    }
    height.set(re, h);
    return h;
  }

  push(re: Regexp): Regexp | undefined {
    this.numRunes += re.rune.length;
    const r = re.rune;
    if (re.op === OP_CHAR_CLASS && r.length === 2 && r[0] === r[1]) {
      if (this.maybeConcat(r[0] as number, this.flags & ~FOLD_CASE)) return undefined;
      re.op = OP_LITERAL;
      re.rune = [r[0] as number];
      re.flags = this.flags & ~FOLD_CASE;
    } else if (
      (re.op === OP_CHAR_CLASS &&
        r.length === 4 &&
        r[0] === r[1] &&
        r[2] === r[3] &&
        simpleFold(r[0] as number) === r[2] &&
        simpleFold(r[2] as number) === r[0]) ||
      (re.op === OP_CHAR_CLASS &&
        r.length === 2 &&
        (r[0] as number) + 1 === r[1] &&
        simpleFold(r[0] as number) === r[1] &&
        simpleFold(r[1] as number) === r[0])
    ) {
      if (this.maybeConcat(r[0] as number, this.flags | FOLD_CASE)) return undefined;
      re.op = OP_LITERAL;
      re.rune = [r[0] as number];
      re.flags = this.flags | FOLD_CASE;
    } else this.maybeConcat(-1, 0);
    this.stack.push(re);
    this.checkLimits(re);
    return re;
  }

  maybeConcat(r: number, flags: number): boolean {
    const n = this.stack.length;
    if (n < 2) return false;
    const re1 = this.stack[n - 1] as Regexp;
    const re2 = this.stack[n - 2] as Regexp;
    if (re1.op !== OP_LITERAL || re2.op !== OP_LITERAL || (re1.flags & FOLD_CASE) !== (re2.flags & FOLD_CASE)) return false;
    for (const x of re1.rune) re2.rune.push(x);
    if (r >= 0) {
      re1.rune = [r];
      re1.flags = flags;
      return true;
    }
    this.stack.pop();
    this.reuse(re1);
    return false;
  }

  literal(r: number): void {
    const re = this.newRegexp(OP_LITERAL);
    re.flags = this.flags;
    if (this.flags & FOLD_CASE) r = minFoldRune(r);
    re.rune = [r];
    this.push(re);
  }

  op(op: number): Regexp | undefined {
    const re = this.newRegexp(op);
    re.flags = this.flags;
    return this.push(re);
  }

  /** Go's `repeat`; `before`/`after`/`lastRepeat` are positions in the pattern (-1: no last repeat). Returns the new `after`. */
  repeat(op: number, min: number, max: number, before: number, after: number, lastRepeat: number): number {
    const s = this.whole;
    let flags = this.flags;
    if (this.flags & PERL_X) {
      if (after < s.length && s[after] === "?") {
        after++;
        flags ^= NON_GREEDY;
      }
      if (lastRepeat >= 0) throw new GoSyntaxError(ERR_INVALID_REPEAT_OP, s.slice(lastRepeat, after));
    }
    const n = this.stack.length;
    if (n === 0) throw new GoSyntaxError(ERR_MISSING_REPEAT_ARGUMENT, s.slice(before, after));
    const sub = this.stack[n - 1] as Regexp;
    if (sub.op >= OP_PSEUDO) throw new GoSyntaxError(ERR_MISSING_REPEAT_ARGUMENT, s.slice(before, after));
    const re = this.newRegexp(op);
    re.min = min;
    re.max = max;
    re.flags = flags;
    re.sub = [sub];
    this.stack[n - 1] = re;
    this.checkLimits(re);
    if (op === OP_REPEAT && (min >= 2 || max >= 2) && !repeatIsValid(re, 1000)) throw new GoSyntaxError(ERR_INVALID_REPEAT_SIZE, s.slice(before, after));
    return after;
  }

  concat(): Regexp | undefined {
    this.maybeConcat(-1, 0);
    let i = this.stack.length;
    while (i > 0 && (this.stack[i - 1] as Regexp).op < OP_PSEUDO) i--;
    const subs = this.stack.splice(i);
    if (subs.length === 0) return this.push(this.newRegexp(OP_EMPTY_MATCH));
    return this.push(this.collapse(subs, OP_CONCAT));
  }

  alternate(): Regexp | undefined {
    let i = this.stack.length;
    while (i > 0 && (this.stack[i - 1] as Regexp).op < OP_PSEUDO) i--;
    const subs = this.stack.splice(i);
    if (subs.length > 0) cleanAlt(subs[subs.length - 1] as Regexp);
    if (subs.length === 0) return this.push(this.newRegexp(OP_NO_MATCH));
    return this.push(this.collapse(subs, OP_ALTERNATE));
  }

  collapse(subs: Regexp[], op: number): Regexp {
    if (subs.length === 1) return subs[0] as Regexp;
    let re = this.newRegexp(op);
    for (const sub of subs) {
      if (sub.op === op) {
        for (const x of sub.sub) re.sub.push(x);
        this.reuse(sub);
      } else re.sub.push(sub);
    }
    if (op === OP_ALTERNATE) {
      re.sub = this.factor(re.sub);
      if (re.sub.length === 1) {
        const old = re;
        re = re.sub[0] as Regexp;
        this.reuse(old);
      }
    }
    return re;
  }

  /** Go's `factor`: common literal prefixes, common leading classes, runs of classes, runs of empty matches. */
  factor(sub: Regexp[]): Regexp[] {
    if (sub.length < 2) return sub;
    // Round 1: common literal prefixes
    let str: number[] = [];
    let strflags = 0;
    let start = 0;
    let out: Regexp[] = [];
    for (let i = 0; i <= sub.length; i++) {
      let istr: number[] = [];
      let iflags = 0;
      if (i < sub.length) {
        [istr, iflags] = leadingString(sub[i] as Regexp);
        if (iflags === strflags) {
          let same = 0;
          while (same < str.length && same < istr.length && str[same] === istr[same]) same++;
          if (same > 0) {
            str = str.slice(0, same);
            continue;
          }
        }
      }
      if (i === start) {
        // nothing
      } else if (i === start + 1) out.push(sub[start] as Regexp);
      else {
        const prefix = this.newRegexp(OP_LITERAL);
        prefix.flags = strflags;
        prefix.rune = str.slice();
        for (let j = start; j < i; j++) {
          sub[j] = this.removeLeadingString(sub[j] as Regexp, str.length);
          this.checkLimits(sub[j] as Regexp);
        }
        const suffix = this.collapse(sub.slice(start, i), OP_ALTERNATE);
        const re = this.newRegexp(OP_CONCAT);
        re.sub = [prefix, suffix];
        out.push(re);
      }
      start = i;
      str = istr;
      strflags = iflags;
    }
    sub = out;

    // Round 2: common leading classes (or fixed repeats of one)
    start = 0;
    out = [];
    let first: Regexp | undefined;
    for (let i = 0; i <= sub.length; i++) {
      let ifirst: Regexp | undefined;
      if (i < sub.length) {
        ifirst = leadingRegexp(sub[i] as Regexp);
        if (
          first !== undefined &&
          regexpEqual(first, ifirst) &&
          (isCharClass(first) || (first.op === OP_REPEAT && first.min === first.max && isCharClass(first.sub[0] as Regexp)))
        )
          continue;
      }
      if (i === start) {
        // nothing
      } else if (i === start + 1) out.push(sub[start] as Regexp);
      else {
        const prefix = first as Regexp;
        for (let j = start; j < i; j++) {
          sub[j] = this.removeLeadingRegexp(sub[j] as Regexp, j !== start);
          this.checkLimits(sub[j] as Regexp);
        }
        const suffix = this.collapse(sub.slice(start, i), OP_ALTERNATE);
        const re = this.newRegexp(OP_CONCAT);
        re.sub = [prefix, suffix];
        out.push(re);
      }
      start = i;
      first = ifirst;
    }
    sub = out;

    // Round 3: runs of single literals and classes become one class
    start = 0;
    out = [];
    for (let i = 0; i <= sub.length; i++) {
      if (i < sub.length && isCharClass(sub[i] as Regexp)) continue;
      if (i === start) {
        // nothing
      } else if (i === start + 1) out.push(sub[start] as Regexp);
      else {
        let max = start;
        for (let j = start + 1; j < i; j++) {
          const a = sub[max] as Regexp;
          const b = sub[j] as Regexp;
          if (a.op < b.op || (a.op === b.op && a.rune.length < b.rune.length)) max = j;
        }
        const tmp = sub[start] as Regexp;
        sub[start] = sub[max] as Regexp;
        sub[max] = tmp;
        for (let j = start + 1; j < i; j++) {
          mergeCharClass(sub[start] as Regexp, sub[j] as Regexp);
          this.reuse(sub[j] as Regexp);
        }
        cleanAlt(sub[start] as Regexp);
        out.push(sub[start] as Regexp);
      }
      if (i < sub.length) out.push(sub[i] as Regexp);
      start = i + 1;
    }
    sub = out;

    // Round 4: runs of empty matches become one
    out = [];
    for (let i = 0; i < sub.length; i++) {
      if (i + 1 < sub.length && (sub[i] as Regexp).op === OP_EMPTY_MATCH && (sub[i + 1] as Regexp).op === OP_EMPTY_MATCH) continue;
      out.push(sub[i] as Regexp);
    }
    return out;
  }

  removeLeadingString(re: Regexp, n: number): Regexp {
    if (re.op === OP_CONCAT && re.sub.length > 0) {
      const sub = this.removeLeadingString(re.sub[0] as Regexp, n);
      re.sub[0] = sub;
      if (sub.op === OP_EMPTY_MATCH) {
        this.reuse(sub);
        switch (re.sub.length) {
          case 0:
          case 1:
            re.op = OP_EMPTY_MATCH;
            re.sub = [];
            break;
          case 2: {
            const old = re;
            re = re.sub[1] as Regexp;
            this.reuse(old);
            break;
          }
          default:
            re.sub.shift();
        }
      }
      return re;
    }
    if (re.op === OP_LITERAL) {
      re.rune = re.rune.slice(n);
      if (re.rune.length === 0) re.op = OP_EMPTY_MATCH;
    }
    return re;
  }

  removeLeadingRegexp(re: Regexp, reuse: boolean): Regexp {
    if (re.op === OP_CONCAT && re.sub.length > 0) {
      if (reuse) this.reuse(re.sub[0] as Regexp);
      re.sub.shift();
      switch (re.sub.length) {
        case 0:
          re.op = OP_EMPTY_MATCH;
          re.sub = [];
          break;
        case 1: {
          const old = re;
          re = re.sub[0] as Regexp;
          this.reuse(old);
          break;
        }
      }
      return re;
    }
    if (reuse) this.reuse(re);
    return this.newRegexp(OP_EMPTY_MATCH);
  }

  parseVerticalBar(): void {
    this.concat();
    if (!this.swapVerticalBar()) this.op(OP_VERTICAL_BAR);
  }

  swapVerticalBar(): boolean {
    const st = this.stack;
    const n = st.length;
    if (n >= 3 && (st[n - 2] as Regexp).op === OP_VERTICAL_BAR && isCharClass(st[n - 1] as Regexp) && isCharClass(st[n - 3] as Regexp)) {
      let re1 = st[n - 1] as Regexp;
      let re3 = st[n - 3] as Regexp;
      if (re1.op > re3.op) {
        [re1, re3] = [re3, re1];
        st[n - 3] = re3;
      }
      mergeCharClass(re3, re1);
      this.reuse(re1);
      st.pop();
      return true;
    }
    if (n >= 2) {
      const re1 = st[n - 1] as Regexp;
      const re2 = st[n - 2] as Regexp;
      if (re2.op === OP_VERTICAL_BAR) {
        if (n >= 3) cleanAlt(st[n - 3] as Regexp);
        st[n - 2] = re1;
        st[n - 1] = re2;
        return true;
      }
    }
    return false;
  }

  parseRightParen(): void {
    this.concat();
    if (this.swapVerticalBar()) this.stack.pop();
    this.alternate();
    const n = this.stack.length;
    if (n < 2) throw new GoSyntaxError(ERR_UNEXPECTED_PAREN, this.whole);
    const re1 = this.stack[n - 1] as Regexp;
    const re2 = this.stack[n - 2] as Regexp;
    this.stack.length = n - 2;
    if (re2.op !== OP_LEFT_PAREN) throw new GoSyntaxError(ERR_UNEXPECTED_PAREN, this.whole);
    this.flags = re2.flags;
    if (re2.cap === 0) this.push(re1);
    else {
      re2.op = OP_CAPTURE;
      re2.sub = [re1];
      this.push(re2);
    }
  }

  /** Go's `parsePerlFlags` at `(?`; returns the position after what it read. */
  parsePerlFlags(i: number): number {
    const s = this.whole;
    const startsWithP = s.length - i > 4 && s[i + 2] === "P" && s[i + 3] === "<";
    const startsWithName = s.length - i > 3 && s[i + 2] === "<";
    if (startsWithP || startsWithName) {
      const exprStart = i + (startsWithName ? 3 : 4);
      const end = s.indexOf(">", i);
      if (end < 0) throw new GoSyntaxError(ERR_INVALID_NAMED_CAPTURE, s.slice(i));
      const name = s.slice(exprStart, end);
      if (!isValidCaptureName(name)) throw new GoSyntaxError(ERR_INVALID_NAMED_CAPTURE, s.slice(i, end + 1));
      this.numCap++;
      const re = this.op(OP_LEFT_PAREN) as Regexp;
      re.cap = this.numCap;
      re.name = name;
      return end + 1;
    }
    let t = i + 2;
    let flags = this.flags;
    let sign = 1;
    let sawFlag = false;
    loop: while (t < s.length) {
      const c = runeAt(s, t);
      t += width(c);
      switch (c) {
        case 0x69: // i
          flags |= FOLD_CASE;
          sawFlag = true;
          break;
        case 0x6d: // m
          flags &= ~ONE_LINE;
          sawFlag = true;
          break;
        case 0x73: // s
          flags |= DOT_NL;
          sawFlag = true;
          break;
        case 0x55: // U
          flags |= NON_GREEDY;
          sawFlag = true;
          break;
        case 0x2d: // -
          if (sign < 0) break loop;
          sign = -1;
          flags = ~flags;
          sawFlag = false;
          break;
        case 0x3a: // :
        case 0x29: // )
          if (sign < 0) {
            if (!sawFlag) break loop;
            flags = ~flags;
          }
          if (c === 0x3a) this.op(OP_LEFT_PAREN);
          this.flags = flags;
          return t;
        default:
          break loop;
      }
    }
    throw new GoSyntaxError(ERR_INVALID_PERL_OP, s.slice(i, t));
  }

  /** Go's `parseEscape` at a backslash: the rune and the position after the escape. */
  parseEscape(i: number): [number, number] {
    const s = this.whole;
    let t = i + 1;
    if (t >= s.length) throw new GoSyntaxError(ERR_TRAILING_BACKSLASH, "");
    const c = runeAt(s, t);
    t += width(c);
    const invalid = (): never => {
      throw new GoSyntaxError(ERR_INVALID_ESCAPE, s.slice(i, t));
    };
    if (c < 0x80 && !isalnum(c)) return [c, t];
    // up to three octal digits, the first one read
    const octal = (): [number, number] => {
      let r = c - 0x30;
      for (let k = 1; k < 3; k++) {
        if (t >= s.length || s.charCodeAt(t) < 0x30 || s.charCodeAt(t) > 0x37) break;
        r = r * 8 + s.charCodeAt(t) - 0x30;
        t++;
      }
      return [r, t];
    };
    switch (c) {
      case 0x31:
      case 0x32:
      case 0x33:
      case 0x34:
      case 0x35:
      case 0x36:
      case 0x37:
        // a single non-zero digit is a backreference (unsupported)
        if (t >= s.length || s.charCodeAt(t) < 0x30 || s.charCodeAt(t) > 0x37) return invalid();
        return octal();
      case 0x30:
        return octal();
      case 0x78: {
        // x
        if (t >= s.length) return invalid();
        let d = runeAt(s, t);
        t += width(d);
        if (d === 0x7b) {
          let nhex = 0;
          let r = 0;
          for (;;) {
            if (t >= s.length) return invalid();
            d = runeAt(s, t);
            t += width(d);
            if (d === 0x7d) break;
            const v = unhex(d);
            if (v < 0) return invalid();
            r = r * 16 + v;
            if (r > MAX_RUNE) return invalid();
            nhex++;
          }
          if (nhex === 0) return invalid();
          return [r, t];
        }
        const x = unhex(d);
        if (t >= s.length) {
          // Go's nextRune of an empty string yields RuneError without an error: not a hex digit
          return invalid();
        }
        d = runeAt(s, t);
        t += width(d);
        const y = unhex(d);
        if (x < 0 || y < 0) return invalid();
        return [x * 16 + y, t];
      }
      case 0x61:
        return [7, t];
      case 0x66:
        return [12, t];
      case 0x6e:
        return [10, t];
      case 0x72:
        return [13, t];
      case 0x74:
        return [9, t];
      case 0x76:
        return [11, t];
    }
    return invalid();
  }

  /** Go's `parseClassChar`. */
  parseClassChar(i: number, wholeClass: number): [number, number] {
    const s = this.whole;
    if (i >= s.length) throw new GoSyntaxError(ERR_MISSING_BRACKET, s.slice(wholeClass));
    if (s[i] === "\\") return this.parseEscape(i);
    const c = runeAt(s, i);
    return [c, i + width(c)];
  }

  appendGroup(r: number[], sign: number, cls: readonly number[]): number[] {
    if ((this.flags & FOLD_CASE) === 0) return sign < 0 ? appendNegatedClass(r, cls) : appendClass(r, cls);
    const tmp = cleanClass(appendFoldedClass([], cls));
    return sign < 0 ? appendNegatedClass(r, tmp) : appendClass(r, tmp);
  }

  /** Go's `parsePerlClassEscape`: appends `\d` and the like; undefined when `i` is not at one. */
  parsePerlClassEscape(i: number, r: number[]): number | undefined {
    const s = this.whole;
    if ((this.flags & PERL_X) === 0 || s.length - i < 2 || s[i] !== "\\") return undefined;
    const c = s[i + 1] as string;
    const g = PERL_GROUPS[c.toLowerCase()];
    if (g === undefined || (c !== "d" && c !== "s" && c !== "w" && c !== "D" && c !== "S" && c !== "W")) return undefined;
    this.appendGroup(r, c === c.toUpperCase() ? -1 : 1, g);
    return i + 2;
  }

  /** Go's `parseNamedClass`: appends `[:alpha:]` and the like; undefined when `i` is not at one. */
  parseNamedClass(i: number, r: number[]): number | undefined {
    const s = this.whole;
    if (s.length - i < 2 || s[i] !== "[" || s[i + 1] !== ":") return undefined;
    const j = s.indexOf(":]", i + 2);
    if (j < 0) return undefined;
    const name = s.slice(i, j + 2);
    const neg = name[2] === "^";
    const g = Object.hasOwn(POSIX_GROUPS, name.slice(neg ? 3 : 2, -2)) ? POSIX_GROUPS[name.slice(neg ? 3 : 2, -2)] : undefined;
    if (g === undefined) throw new GoSyntaxError(ERR_INVALID_CHAR_RANGE, name);
    this.appendGroup(r, neg ? -1 : 1, g);
    return j + 2;
  }

  /** Go's `parseUnicodeClass`: appends `\pL`, `\p{Greek}` and the like; undefined when `i` is not at one. */
  parseUnicodeClass(i: number, r: number[]): number | undefined {
    const s = this.whole;
    if ((this.flags & UNICODE_GROUPS) === 0 || s.length - i < 2 || s[i] !== "\\" || (s[i + 1] !== "p" && s[i + 1] !== "P")) return undefined;
    let sign = s[i + 1] === "P" ? -1 : 1;
    let t = i + 2;
    // at the end Go reads U+FFFD without error: a one-letter name that is no table
    const c = t < s.length ? runeAt(s, t) : 0xfffd;
    if (t < s.length) t += width(c);
    let seq: string;
    let name: string;
    if (c !== 0x7b) {
      seq = s.slice(i, t);
      name = seq.slice(2);
    } else {
      const end = s.indexOf("}", i);
      if (end < 0) throw new GoSyntaxError(ERR_INVALID_CHAR_RANGE, s.slice(i));
      seq = s.slice(i, end + 1);
      t = end + 1;
      name = s.slice(i + 3, end);
    }
    if (name !== "" && name[0] === "^") {
      sign = -sign;
      name = name.slice(1);
    }
    const table = unicodeTable(name);
    if (table === undefined) throw new GoSyntaxError(ERR_INVALID_CHAR_RANGE, seq);
    if (table.sign < 0) sign = -sign;
    if ((this.flags & FOLD_CASE) === 0 || table.fold === undefined) {
      if (sign > 0) appendClass(r, table.tab);
      else appendNegatedClass(r, table.tab);
    } else {
      const tmp = cleanClass(appendClass(appendClass([], table.tab), table.fold));
      if (sign > 0) appendClass(r, tmp);
      else appendNegatedClass(r, tmp);
    }
    return t;
  }

  /** Go's `parseClass` at `[`: pushes the class; returns the position after `]`. */
  parseClass(i: number): number {
    const s = this.whole;
    let t = i + 1;
    const re = this.newRegexp(OP_CHAR_CLASS);
    re.flags = this.flags;
    const cls: number[] = [];
    let sign = 1;
    if (t < s.length && s[t] === "^") {
      sign = -1;
      t++;
      if ((this.flags & CLASS_NL) === 0) cls.push(10, 10);
    }
    let first = true;
    while (t >= s.length || s[t] !== "]" || first) {
      first = false;
      if (s.length - t > 2 && s[t] === "[" && s[t + 1] === ":") {
        const nt = this.parseNamedClass(t, cls);
        if (nt !== undefined) {
          t = nt;
          continue;
        }
      }
      const ut = this.parseUnicodeClass(t, cls);
      if (ut !== undefined) {
        t = ut;
        continue;
      }
      const pt = this.parsePerlClassEscape(t, cls);
      if (pt !== undefined) {
        t = pt;
        continue;
      }
      const rng = t;
      let lo: number;
      let hi: number;
      [lo, t] = this.parseClassChar(t, i);
      hi = lo;
      if (s.length - t >= 2 && s[t] === "-" && s[t + 1] !== "]") {
        t++;
        [hi, t] = this.parseClassChar(t, i);
        if (hi < lo) throw new GoSyntaxError(ERR_INVALID_CHAR_RANGE, s.slice(rng, t));
      }
      if ((this.flags & FOLD_CASE) === 0) appendRange(cls, lo, hi);
      else appendFoldedRange(cls, lo, hi);
    }
    t++;
    cleanClass(cls);
    re.rune = sign < 0 ? negateClass(cls) : cls;
    this.push(re);
    return t;
  }

  /** Go's `parseRepeat` at `{`: [min, max, after] (min -1: a number too large), or undefined when not a repeat. */
  parseRepeat(i: number): [number, number, number] | undefined {
    const s = this.whole;
    let t = i + 1;
    const a = parseDecimal(s, t);
    if (a === undefined) return undefined;
    let min: number;
    [min, t] = a;
    if (t >= s.length) return undefined;
    let max: number;
    if (s[t] !== ",") max = min;
    else {
      t++;
      if (t >= s.length) return undefined;
      if (s[t] === "}") max = -1;
      else {
        const b = parseDecimal(s, t);
        if (b === undefined) return undefined;
        [max, t] = b;
        if (max < 0) min = -1;
      }
    }
    if (t >= s.length || s[t] !== "}") return undefined;
    return [min, max, t + 1];
  }

  parse(): Regexp {
    const s = this.whole;
    let t = 0;
    let lastRepeat = -1;
    while (t < s.length) {
      let repeat = -1;
      const ch = s[t] as string;
      switch (ch) {
        case "(":
          if (this.flags & PERL_X && s.length - t >= 2 && s[t + 1] === "?") {
            t = this.parsePerlFlags(t);
            break;
          }
          this.numCap++;
          (this.op(OP_LEFT_PAREN) as Regexp).cap = this.numCap;
          t++;
          break;
        case "|":
          this.parseVerticalBar();
          t++;
          break;
        case ")":
          this.parseRightParen();
          t++;
          break;
        case "^":
          this.op(this.flags & ONE_LINE ? OP_BEGIN_TEXT : OP_BEGIN_LINE);
          t++;
          break;
        case "$":
          if (this.flags & ONE_LINE) (this.op(OP_END_TEXT) as Regexp).flags |= WAS_DOLLAR;
          else this.op(OP_END_LINE);
          t++;
          break;
        case ".":
          this.op(this.flags & DOT_NL ? OP_ANY_CHAR : OP_ANY_CHAR_NOT_NL);
          t++;
          break;
        case "[":
          t = this.parseClass(t);
          break;
        case "*":
        case "+":
        case "?": {
          const before = t;
          const op = ch === "*" ? OP_STAR : ch === "+" ? OP_PLUS : OP_QUEST;
          t = this.repeat(op, 0, 0, before, t + 1, lastRepeat);
          repeat = before;
          break;
        }
        case "{": {
          const before = t;
          const r = this.parseRepeat(t);
          if (r === undefined) {
            this.literal(0x7b);
            t++;
            break;
          }
          const [min, max, after] = r;
          if (min < 0 || min > 1000 || max > 1000 || (max >= 0 && min > max)) throw new GoSyntaxError(ERR_INVALID_REPEAT_SIZE, s.slice(before, after));
          t = this.repeat(OP_REPEAT, min, max, before, after, lastRepeat);
          repeat = before;
          break;
        }
        case "\\":
          t = this.parseBackslash(t);
          break;
        default: {
          const c = runeAt(s, t);
          this.literal(c);
          t += width(c);
        }
      }
      lastRepeat = repeat;
    }
    this.concat();
    if (this.swapVerticalBar()) this.stack.pop();
    this.alternate();
    if (this.stack.length !== 1) throw new GoSyntaxError(ERR_MISSING_PAREN, s);
    return this.stack[0] as Regexp;
  }

  /** A backslash outside a class: assertions, `\Q…\E`, classes, escapes. Returns the position after it. */
  parseBackslash(t: number): number {
    const s = this.whole;
    if (this.flags & PERL_X && s.length - t >= 2) {
      switch (s[t + 1]) {
        case "A":
          this.op(OP_BEGIN_TEXT);
          return t + 2;
        case "b":
          this.op(OP_WORD_BOUNDARY);
          return t + 2;
        case "B":
          this.op(OP_NO_WORD_BOUNDARY);
          return t + 2;
        case "C":
          throw new GoSyntaxError(ERR_INVALID_ESCAPE, s.slice(t, t + 2));
        case "Q": {
          const end = s.indexOf("\\E", t + 2);
          const lit = end < 0 ? s.slice(t + 2) : s.slice(t + 2, end);
          for (let k = 0; k < lit.length; ) {
            const c = runeAt(lit, k);
            this.literal(c);
            k += width(c);
          }
          return end < 0 ? s.length : end + 2;
        }
        case "z":
          this.op(OP_END_TEXT);
          return t + 2;
      }
    }
    const re = this.newRegexp(OP_CHAR_CLASS);
    re.flags = this.flags;
    if (s.length - t >= 2 && (s[t + 1] === "p" || s[t + 1] === "P")) {
      const r: number[] = [];
      const rest = this.parseUnicodeClass(t, r);
      if (rest !== undefined) {
        re.rune = r;
        this.push(re);
        return rest;
      }
    }
    const r: number[] = [];
    const rest = this.parsePerlClassEscape(t, r);
    if (rest !== undefined) {
      re.rune = r;
      this.push(re);
      return rest;
    }
    this.reuse(re);
    const [c, after] = this.parseEscape(t);
    this.literal(c);
    return after;
  }
}

/** Go's `leadingString`: the literal runes `re` begins with and their fold flag. */
function leadingString(re: Regexp): [number[], number] {
  if (re.op === OP_CONCAT && re.sub.length > 0) re = re.sub[0] as Regexp;
  if (re.op !== OP_LITERAL) return [[], 0];
  return [re.rune, re.flags & FOLD_CASE];
}

/** Go's `leadingRegexp`: the node `re` begins with (undefined for an empty match). */
function leadingRegexp(re: Regexp): Regexp | undefined {
  if (re.op === OP_EMPTY_MATCH) return undefined;
  if (re.op === OP_CONCAT && re.sub.length > 0) {
    const sub = re.sub[0] as Regexp;
    return sub.op === OP_EMPTY_MATCH ? undefined : sub;
  }
  return re;
}

/** Go's `parseInt`: a decimal without leading zeros at `i` ([value, after]; value -1 when ≥ 1e8), or undefined. */
function parseDecimal(s: string, i: number): [number, number] | undefined {
  const d = (k: number) => k < s.length && s.charCodeAt(k) >= 0x30 && s.charCodeAt(k) <= 0x39;
  if (!d(i)) return undefined;
  if (s[i] === "0" && d(i + 1)) return undefined;
  let j = i;
  while (d(j)) j++;
  let n = 0;
  for (let k = i; k < j; k++) {
    if (n >= 1e8) {
      n = -1;
      break;
    }
    n = n * 10 + s.charCodeAt(k) - 0x30;
  }
  return [n, j];
}

/** Go's `isValidCaptureName`: `[A-Za-z0-9_]+`. */
function isValidCaptureName(name: string): boolean {
  if (name === "") return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c !== 0x5f && !isalnum(c)) return false;
  }
  return true;
}

/** Go's `syntax.Parse(pattern, syntax.Perl)`: the tree, or the error (Go's `*syntax.Error`). */
export function parseGoRegexp(pattern: string): Regexp | GoSyntaxError {
  try {
    return new Parser(pattern).parse();
  } catch (e) {
    if (e instanceof GoSyntaxError) return e;
    if (e instanceof LimitPanic) return new GoSyntaxError(e.code, pattern);
    throw e;
  }
}
