/**
 * A small parser and compiler for the common, simple subset of Go `regexp` (RE2) patterns that CRDs
 * and CEL rules use (`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$` and the like):
 * it emits Go's program ({@link Prog}, run by src/go/regexp-matcher.ts) with fewer steps than Go's
 * parser and compiler (src/go/regexp-syntax.ts, src/go/regexp-compile.ts) take, which short
 * `crdkit validate` runs pay for on every pattern.
 *
 * Why the program is Go's: alternatives and repeats are compiled in Go's shapes and priority order
 * (greedy and non-greedy), so match positions are Go's too, not only `MatchString`'s answer. The
 * accepted syntax is a subset whose language is unambiguous in Go's `syntax.Perl` mode: ASCII literals
 * and escapes, `.` (any rune but `\n`), classes of ASCII members (possibly negated, so matching every
 * non-ASCII rune too), `\d \w \s` and their negations (ASCII-only in RE2), groups, alternation,
 * `* + ? {n} {n,} {n,m}` (also non-greedy), and `^`/`$` (start/end of text: `OneLine`). Every other
 * construct, and anything RE2 might reject, makes {@link compileSimpleRegexp} return undefined so that
 * the caller uses Go's parser and compiler (which also give Go's error texts). A class of ASCII members can only tell
 * ASCII runes apart; every non-ASCII rune (a surrogate pair counts as one) is one symbol
 * that either all classes of a kind accept or none do: 129 rune classes for the matcher's lazy DFA.
 *
 * @module
 */

import { compileMatcher, type ProgMatcher } from "./regexp-matcher.js";
import { ALT, BEGIN_TEXT, EMPTY_WIDTH, END_TEXT, MATCH, type Prog, RUNE, type RuneClasses } from "./regexp-prog.js";

/** A set of runes: entries 0..127 for ASCII, entry 128 for every non-ASCII rune. */
type RuneSet = Uint8Array;

/** Parsed pattern. */
type Node =
  | { readonly k: "set"; readonly set: RuneSet }
  | { readonly k: "cat"; readonly items: readonly Node[] }
  | { readonly k: "alt"; readonly items: readonly Node[] }
  | { readonly k: "rep"; readonly sub: Node; readonly min: number; readonly max: number; readonly greedy: boolean }
  | { readonly k: "begin" }
  | { readonly k: "end" };

/** Above this many instructions the pattern is left to Go's compiler. */
const MAX_INSTRUCTIONS = 2000;
/** Above this nesting depth the pattern is left to Go's parser (Go limits nesting at 1000). */
const MAX_DEPTH = 50;
/** RE2's limit of a repeat count. */
const MAX_REPEAT = 1000;

const NON_ASCII = 128;

function newSet(): RuneSet {
  return new Uint8Array(129);
}

function addRange(s: RuneSet, lo: number, hi: number): void {
  for (let c = lo; c <= hi; c++) s[c] = 1;
}

function negate(s: RuneSet): RuneSet {
  const out = newSet();
  for (let c = 0; c <= NON_ASCII; c++) out[c] = s[c] === 1 ? 0 : 1;
  return out;
}

function union(into: RuneSet, s: RuneSet): void {
  for (let c = 0; c <= NON_ASCII; c++) if (s[c] === 1) into[c] = 1;
}

/** `\d`, `\w`, `\s` (RE2's Perl classes are ASCII-only) and their negations. */
function perlClass(c: string): RuneSet | undefined {
  const s = newSet();
  switch (c.toLowerCase()) {
    case "d":
      addRange(s, 48, 57);
      break;
    case "w":
      addRange(s, 48, 57);
      addRange(s, 65, 90);
      addRange(s, 97, 122);
      s[95] = 1;
      break;
    case "s":
      for (const x of [9, 10, 12, 13, 32]) s[x] = 1;
      break;
    default:
      return undefined;
  }
  return c === c.toUpperCase() ? negate(s) : s;
}

const SIMPLE_ESCAPES: Readonly<Record<string, number>> = { t: 9, n: 10, f: 12, r: 13, v: 11 };

function isAsciiPunct(c: number): boolean {
  return (c >= 0x21 && c <= 0x2f) || (c >= 0x3a && c <= 0x40) || (c >= 0x5b && c <= 0x60) || (c >= 0x7b && c <= 0x7e);
}

const HEX = /^[0-9A-Fa-f]{2}$/;

/** Gives up on the pattern (Go's parser decides). */
class Unsupported extends Error {}

const unsupported = (): never => {
  throw new Unsupported();
};

class Parser {
  private i = 0;
  constructor(private readonly p: string) {}

  parse(): Node {
    const n = this.alt(0);
    if (this.i !== this.p.length) unsupported();
    return n;
  }

  private alt(depth: number): Node {
    if (depth > MAX_DEPTH) unsupported();
    const items = [this.cat(depth)];
    while (this.p[this.i] === "|") {
      this.i++;
      items.push(this.cat(depth));
    }
    return items.length === 1 ? (items[0] as Node) : { k: "alt", items };
  }

  private cat(depth: number): Node {
    const items: Node[] = [];
    const p = this.p;
    while (this.i < p.length) {
      const c = p[this.i] as string;
      if (c === "|" || c === ")") break;
      let atom: Node;
      if (c === "(") {
        this.i++;
        if (p[this.i] === "?") {
          if (p[this.i + 1] !== ":") unsupported();
          this.i += 2;
        }
        atom = this.alt(depth + 1);
        if (p[this.i] !== ")") unsupported();
        this.i++;
      } else if (c === "[") atom = { k: "set", set: this.cls() };
      else if (c === "\\") atom = { k: "set", set: this.escape() };
      else if (c === ".") {
        this.i++;
        const s = negate(newSet());
        s[10] = 0;
        atom = { k: "set", set: s };
      } else if (c === "^" || c === "$") {
        this.i++;
        // a repeated assertion is left to Go's parser
        if (this.isRepeatAhead()) unsupported();
        items.push(c === "^" ? { k: "begin" } : { k: "end" });
        continue;
      } else if (c === "*" || c === "+" || c === "?" || c === "{" || c === "]" || c === "}") {
        // a repetition without an argument (an error in Go), `{` as a literal, stray brackets
        return unsupported();
      } else {
        const code = c.charCodeAt(0);
        if (code < 0x20 || code > 0x7e) unsupported();
        this.i++;
        const s = newSet();
        s[code] = 1;
        atom = { k: "set", set: s };
      }
      items.push(this.repeat(atom));
    }
    return items.length === 1 ? (items[0] as Node) : { k: "cat", items };
  }

  private isRepeatAhead(): boolean {
    const c = this.p[this.i];
    return c === "*" || c === "+" || c === "?" || c === "{";
  }

  /** One optional repetition operator after an atom (a second one is left to Go's parser). */
  private repeat(atom: Node): Node {
    const p = this.p;
    const c = p[this.i];
    let min: number;
    let max: number;
    if (c === "*" || c === "+" || c === "?") {
      this.i++;
      min = c === "+" ? 1 : 0;
      max = c === "?" ? 1 : -1;
    } else if (c === "{") {
      // Go reads `{01}` (a leading zero) as literal text: such patterns are left to Go's parser
      const m = /^\{(0|[1-9]\d{0,3})(,(0|[1-9]\d{0,3})?)?\}/.exec(p.slice(this.i));
      if (!m) return unsupported();
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === undefined ? -1 : Number(m[3]);
      if (min > MAX_REPEAT || max > MAX_REPEAT || (max !== -1 && max < min)) unsupported();
      this.i += m[0].length;
    } else return atom;
    const greedy = p[this.i] !== "?";
    if (!greedy) this.i++;
    if (this.isRepeatAhead()) unsupported();
    const rep: Node = { k: "rep", sub: atom, min, max, greedy };
    // Go rejects nested counted repeats of more than 1000 copies (`(a{10}){200}`): left to Go's parser
    if ((min >= 2 || max >= 2) && !repeatIsValid(rep, MAX_REPEAT)) unsupported();
    return rep;
  }

  /** An escape outside or inside a class: a single rune or a Perl class. */
  private escape(): RuneSet {
    const p = this.p;
    const c = p[this.i + 1];
    if (c === undefined) return unsupported();
    const code = c.charCodeAt(0);
    this.i += 2;
    const s = newSet();
    if (code < 0x80 && isAsciiPunct(code)) {
      s[code] = 1;
      return s;
    }
    const perl = perlClass(c);
    if (perl) return perl;
    const simple = SIMPLE_ESCAPES[c];
    if (simple !== undefined) {
      s[simple] = 1;
      return s;
    }
    if (c === "x") {
      const h = p.slice(this.i, this.i + 2);
      if (!HEX.test(h)) return unsupported();
      const v = Number.parseInt(h, 16);
      if (v >= 0x80) return unsupported();
      this.i += 2;
      s[v] = 1;
      return s;
    }
    return unsupported();
  }

  /** A single class member rune (undefined when the member is a Perl class). */
  private classRune(): { rune: number } | { set: RuneSet } {
    const p = this.p;
    const c = p[this.i] as string;
    if (c === "\\") {
      const before = this.i;
      const s = this.escape();
      const esc = p[before + 1] as string;
      if (perlClass(esc) !== undefined) return { set: s };
      let rune = -1;
      for (let x = 0; x < NON_ASCII; x++) if (s[x] === 1) rune = x;
      return { rune };
    }
    const code = c.charCodeAt(0);
    if (code < 0x20 || code > 0x7e) unsupported();
    // POSIX classes `[:alpha:]` and nested `[` are left to Go's parser
    if (c === "[") unsupported();
    this.i++;
    return { rune: code };
  }

  private cls(): RuneSet {
    const p = this.p;
    this.i++; // [
    let neg = false;
    if (p[this.i] === "^") {
      neg = true;
      this.i++;
    }
    // `[]a]` and `[^]a]` (a literal `]` first) are left to Go's parser
    if (p[this.i] === "]") unsupported();
    const s = newSet();
    let first = true;
    for (;;) {
      if (this.i >= p.length) unsupported();
      if (p[this.i] === "]") {
        this.i++;
        break;
      }
      if (p[this.i] === "-" && !first && p[this.i + 1] !== "]") unsupported();
      first = false;
      const lo = this.classRune();
      if ("set" in lo) {
        union(s, lo.set);
        continue;
      }
      if (p[this.i] === "-" && p[this.i + 1] !== "]" && this.i + 1 < p.length) {
        this.i++;
        const hi = this.classRune();
        if ("set" in hi || hi.rune < lo.rune) return unsupported();
        addRange(s, lo.rune, hi.rune);
      } else s[lo.rune] = 1;
    }
    return neg ? negate(s) : s;
  }
}

/**
 * Go's `syntax.repeatIsValid`: the repeat counts nested in `n` (a count dividing what it contains) allow
 * at most `limit` copies of the innermost thing. `* + ?` count as `{0,} {1,} {0,1}`, which divide by 0 or 1.
 */
function repeatIsValid(n: Node, limit: number): boolean {
  switch (n.k) {
    case "rep": {
      if (n.max === 0) return true;
      const m = n.max < 0 ? n.min : n.max;
      if (m > limit) return false;
      return repeatIsValid(n.sub, m > 0 ? Math.floor(limit / m) : limit);
    }
    case "cat":
    case "alt":
      return n.items.every((it) => repeatIsValid(it, limit));
    default:
      return true;
  }
}

/** Whether `n` matches the empty string. */
function nullable(n: Node): boolean {
  switch (n.k) {
    case "set":
      return false;
    case "cat":
      return n.items.every(nullable);
    case "alt":
      return n.items.some(nullable);
    case "rep":
      return n.min === 0 || nullable(n.sub);
    default:
      return true;
  }
}

/** The program being built ({@link Prog}'s instructions, growable). */
class Program {
  readonly op: number[] = [];
  readonly out: number[] = [];
  readonly arg: number[] = [];
  readonly sets: (RuneSet | undefined)[] = [];

  emit(op: number, out = -1, arg = 0, set?: RuneSet): number {
    if (this.op.length >= MAX_INSTRUCTIONS) unsupported();
    this.op.push(op);
    this.out.push(out);
    this.arg.push(arg);
    this.sets.push(set);
    return this.op.length - 1;
  }

  /** An `ALT` whose preferred branch is `first`. */
  alt(first: number, second: number): number {
    return this.emit(ALT, first, second);
  }
}

/**
 * Compiles `n` so that it continues at `next`; returns its entry instruction. Built back to front, so
 * every instruction's successors exist when it is emitted. Repeats take the shapes (and so the thread
 * priorities) of Go's `syntax.Simplify` and compiler: `x{n,m}` is n copies of x then `(x(x)?)?`, `x{n,}`
 * is n-1 copies then `x+`, and `x*` of a nullable x is `(x+)?` (golang.org/issue/46123).
 */
function compileNode(prog: Program, n: Node, next: number): number {
  switch (n.k) {
    case "set":
      return prog.emit(RUNE, next, 0, n.set);
    case "begin":
      return prog.emit(EMPTY_WIDTH, next, BEGIN_TEXT);
    case "end":
      return prog.emit(EMPTY_WIDTH, next, END_TEXT);
    case "cat": {
      let pc = next;
      for (let i = n.items.length - 1; i >= 0; i--) pc = compileNode(prog, n.items[i] as Node, pc);
      return pc;
    }
    case "alt": {
      const entries = n.items.map((it) => compileNode(prog, it, next));
      let pc = entries[entries.length - 1] as number;
      for (let i = entries.length - 2; i >= 0; i--) pc = prog.alt(entries[i] as number, pc);
      return pc;
    }
    case "rep": {
      const { sub, min, max, greedy } = n;
      const choose = (body: number, skip: number): number => (greedy ? prog.alt(body, skip) : prog.alt(skip, body));
      if (max === 0) return next;
      if (max === -1) {
        // x+: the body, then a loop back to it; x* is the loop itself, or (x+)? when x is nullable
        const loop = prog.emit(ALT);
        const body = compileNode(prog, sub, loop);
        prog.out[loop] = greedy ? body : next;
        prog.arg[loop] = greedy ? next : body;
        let pc = min === 0 ? (nullable(sub) ? choose(body, next) : loop) : body;
        for (let i = 1; i < min; i++) pc = compileNode(prog, sub, pc);
        return pc;
      }
      let pc = next;
      // (x(x(x)?)?)? for the optional copies, each of which may skip to `next`
      for (let i = min; i < max; i++) pc = choose(compileNode(prog, sub, pc), next);
      for (let i = 0; i < min; i++) pc = compileNode(prog, sub, pc);
      return pc;
    }
  }
}

const ASCII_CLASSES = Int32Array.from({ length: 128 }, (_, i) => i);
/** Rune classes of a simple program: each ASCII rune its own, every other rune one more. */
const SIMPLE_CLASSES: RuneClasses = { ascii: ASCII_CLASSES, wide: () => NON_ASCII, count: NON_ASCII + 1 };

function toProg(prog: Program, start: number): Prog {
  const sets = prog.sets;
  return {
    op: Int8Array.from(prog.op),
    out: Int32Array.from(prog.out),
    arg: Int32Array.from(prog.arg),
    start,
    matchRune: (pc, r) => (sets[pc] as RuneSet)[Math.min(r, NON_ASCII)] === 1,
    classes: SIMPLE_CLASSES,
    prefilter: undefined,
  };
}

/**
 * The program of `pattern` when it is in the simple subset (see the module comment) and valid in Go;
 * undefined otherwise (then Go's parser decides, and reports Go's errors).
 */
export function compileSimpleProg(pattern: string): Prog | undefined {
  try {
    const ast = new Parser(pattern).parse();
    const prog = new Program();
    const start = compileNode(prog, ast, prog.emit(MATCH));
    return toProg(prog, start);
  } catch (e) {
    if (e instanceof Unsupported || e instanceof RangeError) return undefined;
    throw e;
  }
}

/** The matcher of {@link compileSimpleProg}'s program, or undefined outside the simple subset. */
export function compileSimpleRegexp(pattern: string): ProgMatcher | undefined {
  const prog = compileSimpleProg(pattern);
  return prog && compileMatcher(prog);
}
