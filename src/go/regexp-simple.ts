/**
 * A small, linear-time matcher for the common, simple subset of Go `regexp` (RE2) patterns that CRDs
 * and CEL rules use (`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$` and the like):
 * it answers Go's `(*Regexp).MatchString` without starting re2js (its parser, compiler, one-pass and DFA
 * set-up and Unicode tables), which short `crdkit validate` runs pay for on every pattern.
 *
 * Why the answer is RE2's: `MatchString` only asks whether *some* substring of the subject is in the
 * pattern's language; leftmost-first preference, greediness and captures never change that answer. The
 * accepted syntax is a subset whose language is unambiguous in Go's `syntax.Perl` mode: ASCII literals
 * and escapes, `.` (any rune but `\n`), classes of ASCII members (possibly negated, so matching every
 * non-ASCII rune too), `\d \w \s` and their negations (ASCII-only in RE2), groups, alternation,
 * `* + ? {n} {n,} {n,m}` (also non-greedy), and `^`/`$` (start/end of text: `OneLine`). Every other
 * construct, and anything RE2 might reject, makes {@link compileSimpleRegexp} return undefined so that
 * the caller uses re2js (which also produces Go's error texts). A class of ASCII members can only tell
 * ASCII runes apart; every non-ASCII rune (a surrogate pair counts as one, as in re2js) is one symbol
 * that either all classes of a kind accept or none do. The automaton is simulated Thompson-style (a set
 * of states per rune), so matching is O(subject × pattern) whatever the subject.
 *
 * @module
 */

/** Instruction kinds. */
const CHAR = 0;
const SPLIT = 1;
const BEGIN = 2;
const END = 3;
const MATCH = 4;

/** A set of runes: entries 0..127 for ASCII, entry 128 for every non-ASCII rune. */
type RuneSet = Uint8Array;

/** Parsed pattern. */
type Node =
  | { readonly k: "set"; readonly set: RuneSet }
  | { readonly k: "cat"; readonly items: readonly Node[] }
  | { readonly k: "alt"; readonly items: readonly Node[] }
  | { readonly k: "rep"; readonly sub: Node; readonly min: number; readonly max: number }
  | { readonly k: "begin" }
  | { readonly k: "end" };

/** Above this many instructions the pattern is left to re2js. */
const MAX_INSTRUCTIONS = 2000;
/** Above this nesting depth the pattern is left to re2js (Go limits nesting at 1000). */
const MAX_DEPTH = 50;
/** RE2's limit of a repeat count. */
const MAX_REPEAT = 1000;

const NON_ASCII = 128;
/** A transition not computed yet / one that reaches the match state. */
const UNKNOWN = -1;
const MATCHED = -2;
/** Bound of the lazy DFA's states per pattern (past it the remaining runes are simulated uncached). */
const MAX_DFA_STATES = 1000;

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

/** Gives up on the pattern (re2js decides). */
class Unsupported extends Error {}

const unsupported = (): never => {
  throw new Unsupported();
};

class Parser {
  private i = 0;
  /** @param flagGroups also accept flag groups `(?imsU)` / `(?imsU:…)` (for {@link isSimpleSyntax}: parsed, not honoured) */
  constructor(
    private readonly p: string,
    private readonly flagGroups = false,
  ) {}

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
          if (p[this.i + 1] !== ":") {
            if (!this.flagGroups || !this.flags()) unsupported();
            // `(?flags)` sets flags for the rest of the group (a repeat after it is an error in Go)
            if (p[this.i - 1] === ")") {
              if (this.isRepeatAhead()) unsupported();
              continue;
            }
          } else this.i += 2;
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
        // a repeated assertion is left to re2js
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

  /**
   * At `?` of `(?`: reads Go flags `[imsU]+` and the `)` or `:` after them (true), positioned after it;
   * false (unread) for anything else, such as a `-` (negated flags) or a group name.
   */
  private flags(): boolean {
    const p = this.p;
    let j = this.i + 1;
    while (j < p.length && "imsU".includes(p[j] as string)) j++;
    if (j === this.i + 1 || (p[j] !== ")" && p[j] !== ":")) return false;
    this.i = j + 1;
    return true;
  }

  private isRepeatAhead(): boolean {
    const c = this.p[this.i];
    return c === "*" || c === "+" || c === "?" || c === "{";
  }

  /** One optional repetition operator after an atom (a second one is left to re2js). */
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
      // Go reads `{01}` (a leading zero) as literal text: such patterns are left to re2js
      const m = /^\{(0|[1-9]\d{0,3})(,(0|[1-9]\d{0,3})?)?\}/.exec(p.slice(this.i));
      if (!m) return unsupported();
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === undefined ? -1 : Number(m[3]);
      if (min > MAX_REPEAT || max > MAX_REPEAT || (max !== -1 && max < min)) unsupported();
      this.i += m[0].length;
    } else return atom;
    // non-greedy: the same language
    if (p[this.i] === "?") this.i++;
    if (this.isRepeatAhead()) unsupported();
    const rep: Node = { k: "rep", sub: atom, min, max };
    // Go rejects nested counted repeats of more than 1000 copies (`(a{10}){200}`): left to re2js
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
    // POSIX classes `[:alpha:]` and nested `[` are left to re2js
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
    // `[]a]` and `[^]a]` (a literal `]` first) are left to re2js
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

/** The compiled automaton. */
class Program {
  readonly op: number[] = [];
  readonly x: number[] = [];
  readonly y: number[] = [];
  readonly sets: (RuneSet | undefined)[] = [];

  emit(op: number, set?: RuneSet): number {
    if (this.op.length >= MAX_INSTRUCTIONS) unsupported();
    this.op.push(op);
    this.x.push(-1);
    this.y.push(-1);
    this.sets.push(set);
    return this.op.length - 1;
  }
}

/**
 * Compiles `n` so that it continues at `next`; returns its entry instruction. Built back to front, so
 * every instruction's successors exist when it is emitted.
 */
function compileNode(prog: Program, n: Node, next: number): number {
  switch (n.k) {
    case "set": {
      const pc = prog.emit(CHAR, n.set);
      prog.x[pc] = next;
      return pc;
    }
    case "begin":
    case "end": {
      const pc = prog.emit(n.k === "begin" ? BEGIN : END);
      prog.x[pc] = next;
      return pc;
    }
    case "cat": {
      let pc = next;
      for (let i = n.items.length - 1; i >= 0; i--) pc = compileNode(prog, n.items[i] as Node, pc);
      return pc;
    }
    case "alt": {
      const entries = n.items.map((it) => compileNode(prog, it, next));
      let pc = entries[entries.length - 1] as number;
      for (let i = entries.length - 2; i >= 0; i--) {
        const s = prog.emit(SPLIT);
        prog.x[s] = entries[i] as number;
        prog.y[s] = pc;
        pc = s;
      }
      return pc;
    }
    case "rep": {
      let pc = next;
      if (n.max === -1) {
        // x*: a loop through a split placed before it
        const loop = prog.emit(SPLIT);
        const body = compileNode(prog, n.sub, loop);
        prog.x[loop] = body;
        prog.y[loop] = next;
        pc = loop;
      } else {
        // (x(x(x)?)?)? for the optional copies, each of which may skip to `next`
        for (let i = n.min; i < n.max; i++) {
          const s = prog.emit(SPLIT);
          prog.x[s] = compileNode(prog, n.sub, pc);
          prog.y[s] = next;
          pc = s;
        }
      }
      for (let i = 0; i < n.min; i++) pc = compileNode(prog, n.sub, pc);
      return pc;
    }
  }
}

/** A compiled simple pattern: `test(s)` is Go's `MatchString`. */
export interface SimpleRegexp {
  test(s: string): boolean;
}

/**
 * Compiles `pattern` when it is in the simple subset (see the module comment) and valid in Go; undefined
 * otherwise (then re2js decides, and reports Go's errors).
 */
export function compileSimpleRegexp(pattern: string): SimpleRegexp | undefined {
  let prog: Program;
  let start: number;
  try {
    const ast = new Parser(pattern).parse();
    prog = new Program();
    const match = prog.emit(MATCH);
    start = compileNode(prog, ast, match);
  } catch (e) {
    if (e instanceof Unsupported || e instanceof RangeError) return undefined;
    throw e;
  }
  return new SimpleMatcher(prog, start);
}

/**
 * Whether `pattern` is certainly valid in Go (`regexp.Compile` succeeds): it is in the simple subset
 * once flag groups `(?imsU)` / `(?imsU:…)` are allowed too (flags change what a pattern matches, never
 * whether Go accepts it; {@link compileSimpleRegexp} declines them). False means unknown (re2js decides).
 * For callers that need a pattern's validity before (or without) matching it.
 */
export function isSimpleSyntax(pattern: string): boolean {
  try {
    const ast = new Parser(pattern, true).parse();
    const prog = new Program();
    compileNode(prog, ast, prog.emit(MATCH));
    return true;
  } catch (e) {
    if (e instanceof Unsupported || e instanceof RangeError) return false;
    throw e;
  }
}

/** Thompson simulation of a {@link Program}: a list of CHAR states per position. */
class SimpleMatcher implements SimpleRegexp {
  private readonly op: Int8Array;
  private readonly x: Int32Array;
  private readonly y: Int32Array;
  private readonly sets: (RuneSet | undefined)[];
  /** Per-instruction mark of the position it was last added at (+1). */
  private readonly mark: Int32Array;
  private readonly stack: Int32Array;
  private cur: Int32Array;
  private nxt: Int32Array;
  private nCur = 0;
  private nNxt = 0;
  /** The mark of the position being filled; marks restart from 0 when they would overflow. */
  private stamp = 0;
  /** True when no match can start after position 0 (every path from the start passes `^`). */
  private readonly anchored: boolean;
  /** Lazy DFA over positions inside the subject: state sets, their ids, transitions by (state, symbol). */
  private readonly dfaIds = new Map<string, number>();
  private readonly dfaSets: Int32Array[] = [];
  private dfaNext = new Int32Array(0);
  /**
   * The DFA state before the first rune of a non-empty subject (the same for every such subject; ids are
   * never reused), once computed: each `test` then starts without building and looking up its set's key.
   */
  private firstState = UNKNOWN;

  constructor(
    prog: Program,
    private readonly start: number,
  ) {
    const n = prog.op.length;
    this.op = Int8Array.from(prog.op);
    this.x = Int32Array.from(prog.x);
    this.y = Int32Array.from(prog.y);
    this.sets = prog.sets;
    this.mark = new Int32Array(n);
    this.stack = new Int32Array(2 * n + 2);
    this.cur = new Int32Array(n);
    this.nxt = new Int32Array(n);
    this.anchored = this.startsAnchored();
  }

  private startsAnchored(): boolean {
    // every path from the start reaches a BEGIN before any rune or the match
    const seen = new Uint8Array(this.op.length);
    const todo = [this.start];
    while (todo.length > 0) {
      const pc = todo.pop() as number;
      if (seen[pc] === 1) continue;
      seen[pc] = 1;
      const op = this.op[pc];
      if (op === SPLIT) todo.push(this.x[pc] as number, this.y[pc] as number);
      else if (op === END) todo.push(this.x[pc] as number);
      else if (op !== BEGIN) return false;
    }
    return true;
  }

  /**
   * Adds the CHAR states reachable from `pc` at position `pos` to the next list; true when the match
   * state is reachable (the whole search then succeeds).
   */
  private add(pc0: number, pos: number, atEnd: boolean, stamp: number): boolean {
    const { op, x, y, mark, stack } = this;
    let sp = 0;
    stack[sp++] = pc0;
    while (sp > 0) {
      const pc = stack[--sp] as number;
      if (mark[pc] === stamp) continue;
      mark[pc] = stamp;
      switch (op[pc]) {
        case CHAR:
          this.nxt[this.nNxt++] = pc;
          break;
        case SPLIT:
          stack[sp++] = y[pc] as number;
          stack[sp++] = x[pc] as number;
          break;
        case BEGIN:
          if (pos === 0) stack[sp++] = x[pc] as number;
          break;
        case END:
          if (atEnd) stack[sp++] = x[pc] as number;
          break;
        default:
          return true;
      }
    }
    return false;
  }

  private nextStamp(): number {
    if (this.stamp >= 0x7ffffff0) {
      this.stamp = 0;
      this.mark.fill(0);
    }
    return ++this.stamp;
  }

  /** The rune class of `s` at `pos` (0..127, or 128 for any non-ASCII rune) and its width in code units. */
  private static symbolAt(s: string, pos: number): number {
    const c = s.charCodeAt(pos);
    if (c < NON_ASCII) return c;
    if (c >= 0xd800 && c <= 0xdbff && pos + 1 < s.length) {
      const d = s.charCodeAt(pos + 1);
      if (d >= 0xdc00 && d <= 0xdfff) return NON_ASCII + 129; // a surrogate pair: non-ASCII, width 2
    }
    return NON_ASCII;
  }

  /**
   * The DFA state of the states added to the next list (their sorted set), registered on first sight;
   * -1 when the cache is full.
   */
  private stateOfNext(): number {
    const pcs = Array.from(this.nxt.subarray(0, this.nNxt)).sort((a, b) => a - b);
    const key = pcs.join(",");
    const hit = this.dfaIds.get(key);
    if (hit !== undefined) return hit;
    if (this.dfaSets.length >= MAX_DFA_STATES) return -1;
    const id = this.dfaSets.length;
    this.dfaSets.push(Int32Array.from(pcs));
    this.dfaIds.set(key, id);
    if (this.dfaNext.length < (id + 1) * 129) {
      const grown = new Int32Array(Math.max(this.dfaNext.length * 2, (id + 1) * 129)).fill(UNKNOWN);
      grown.set(this.dfaNext);
      this.dfaNext = grown;
    }
    return id;
  }

  /**
   * Fills the next list with the states after `set` reads symbol `c` at a position strictly inside the
   * subject (there `^` and `$` never hold, so the answer does not depend on the position); true when the
   * match state is reached.
   */
  private stepInside(set: Int32Array, c: number): boolean {
    const { x, sets } = this;
    this.nNxt = 0;
    const st = this.nextStamp();
    for (let i = 0; i < set.length; i++) {
      const pc = set[i] as number;
      if ((sets[pc] as RuneSet)[c] === 1 && this.add(x[pc] as number, 1, false, st)) return true;
    }
    // an unanchored search may start a match at every rune boundary
    return !this.anchored && this.add(this.start, 1, false, st);
  }

  test(s: string): boolean {
    const len = s.length;
    const { x, sets } = this;
    let state = this.firstState;
    if (len === 0 || state === UNKNOWN) {
      this.nNxt = 0;
      if (this.add(this.start, 0, len === 0, this.nextStamp())) return true;
      if (len === 0) return false;
      state = this.stateOfNext();
      if (state < 0) return this.nfaFrom(s, 0);
      this.firstState = state;
    }
    let next = this.dfaNext;
    let pos = 0;
    for (;;) {
      let c = s.charCodeAt(pos);
      let after = pos + 1;
      if (c >= NON_ASCII) {
        if (SimpleMatcher.symbolAt(s, pos) > NON_ASCII) after = pos + 2;
        c = NON_ASCII;
      }
      if (after === len) {
        // the last rune: `$` holds after it (not cached)
        const set = this.dfaSets[state] as Int32Array;
        this.nNxt = 0;
        const st = this.nextStamp();
        for (let i = 0; i < set.length; i++) {
          const pc = set[i] as number;
          if ((sets[pc] as RuneSet)[c] === 1 && this.add(x[pc] as number, after, true, st)) return true;
        }
        return !this.anchored && this.add(this.start, after, true, st);
      }
      const slot = state * 129 + c;
      let t = next[slot] as number;
      if (t === UNKNOWN) {
        if (this.stepInside(this.dfaSets[state] as Int32Array, c)) t = MATCHED;
        else {
          t = this.stateOfNext();
          // a full cache: go on without it from the states just computed
          if (t < 0) return this.nfaFrom(s, after);
          next = this.dfaNext;
        }
        next[slot] = t;
      }
      if (t === MATCHED) return true;
      state = t;
      pos = after;
      // no state left and no new start: no match
      if (this.anchored && (this.dfaSets[state] as Int32Array).length === 0) return false;
    }
  }

  /** The Thompson simulation from position `pos`, whose states are in the next list. */
  private nfaFrom(s: string, from: number): boolean {
    const len = s.length;
    const { x, sets } = this;
    let pos = from;
    while (pos < len) {
      // swap: the states added for `pos` become current
      const t = this.cur;
      this.cur = this.nxt;
      this.nxt = t;
      this.nCur = this.nNxt;
      this.nNxt = 0;
      if (this.nCur === 0 && this.anchored) return false;
      let c = SimpleMatcher.symbolAt(s, pos);
      let next = pos + 1;
      if (c > NON_ASCII) {
        c = NON_ASCII;
        next = pos + 2;
      }
      const atEnd = next === len;
      const st = this.nextStamp();
      const cur = this.cur;
      for (let i = 0; i < this.nCur; i++) {
        const pc = cur[i] as number;
        if ((sets[pc] as RuneSet)[c] === 1 && this.add(x[pc] as number, next, atEnd, st)) return true;
      }
      if (!this.anchored && this.add(this.start, next, atEnd, st)) return true;
      pos = next;
    }
    return false;
  }
}
