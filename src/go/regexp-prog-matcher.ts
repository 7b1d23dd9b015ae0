/**
 * Go's `(*Regexp).MatchString` over the program re2js compiles (the same instructions Go's
 * `regexp/syntax.Compile` emits), without captures: a Thompson simulation (a set of instruction states
 * per rune, so O(subject × program) whatever the pattern) with a lazy DFA over rune classes, bounded in
 * memory. Inside the subject a transition depends on the state, the class of the rune read and, when
 * the program asserts `\b`, `\B`, `(?m)^` or `(?m)$`, on whether the rune after it is a word rune, a
 * newline or another rune; the last rune (where `\z` holds) is stepped uncached.
 *
 * re2js answers `test` with its own lazy DFA, whose states hold every instruction of their closure in a
 * `Set` and are rebuilt for every new state: on large programs with many distinct states (`(a+){1000}`
 * over a run of `a`s, a CRD author's pattern applied to every document) that costs ~0.3 ms per rune.
 * This matcher keeps only rune-consuming states in typed arrays and answers the same question.
 *
 * Why the answer is Go's: `MatchString` only asks whether some substring is in the language; captures
 * and thread priority never change that, so the set of live states is all that matters. Empty-width
 * assertions are evaluated from the runes on either side (Go's `EmptyOpContext`), runes are code points
 * (a lone surrogate is itself, as in re2js' UTF-16 input), and rune instructions match with re2js' own
 * `matchRune` (case folding included).
 *
 * @module
 */
import type { RE2JS } from "re2js";

/** re2js instruction codes (Inst.ALT … Inst.RUNE_ANY_NOT_NL). */
const ALT = 1;
const ALT_MATCH = 2;
const CAPTURE = 3;
const EMPTY_WIDTH = 4;
const FAIL = 5;
const MATCH = 6;
const NOP = 7;
const RUNE = 8;
const RUNE1 = 9;
const RUNE_ANY = 10;
const RUNE_ANY_NOT_NL = 11;

/** Go's `syntax.EmptyOp` bits (re2js `Utils.EMPTY_*`). */
const BEGIN_LINE = 1;
const END_LINE = 2;
const BEGIN_TEXT = 4;
const END_TEXT = 8;
const WORD_BOUNDARY = 16;
const NO_WORD_BOUNDARY = 32;

/**
 * Bounds of the lazy DFA per pattern (about 8 MB at most, as re2js' own DFA): states, instruction entries
 * over all states, and transition slots (states × rune classes × kinds of the following rune).
 */
const MAX_DFA_STATES = 4096;
const MAX_DFA_ENTRIES = 1 << 20;
const MAX_DFA_SLOTS = 1 << 20;
/**
 * Past this many instructions no DFA: re2js computes its rune classes in O(instructions × ranges) (seconds
 * for `(?:\pL{1000}){100}`), and on such programs the simulation is O(subject × program) as in Go anyway.
 */
const MAX_DFA_PROGRAM = 20_000;
const UNKNOWN = -1;

/** The parts of re2js' compiled program this matcher reads (not in its type declarations). */
interface Re2jsInst {
  readonly op: number;
  readonly out: number;
  readonly arg: number;
  matchRune(r: number): boolean;
}
/** re2js' prefilter: literals some of which every match contains (`type` NONE 0, EXACT 1, AND 2, OR 3). */
interface Re2jsPrefilter {
  readonly type: number;
  readonly str: string;
  readonly subs: readonly Re2jsPrefilter[];
}
interface Re2jsInternals {
  readonly prog: { readonly inst: readonly Re2jsInst[]; readonly start: number; readonly numLb?: number };
  /** re2js' rune classes (absent for programs past {@link MAX_DFA_PROGRAM}). */
  readonly dfa?: { runeClass(r: number): number; readonly numClasses: number };
  readonly prefilter?: Re2jsPrefilter | null;
}

/** True when `s` may match: it holds the literals re2js' prefilter requires (re2js' own `test` checks them first). */
function prefilterAllows(pf: Re2jsPrefilter, s: string): boolean {
  switch (pf.type) {
    case 1:
      return s.includes(pf.str);
    case 2:
      return pf.subs.every((sub) => prefilterAllows(sub, s));
    case 3:
      return pf.subs.some((sub) => prefilterAllows(sub, s));
    default:
      return true;
  }
}

function validPrefilter(pf: unknown, depth = 0): pf is Re2jsPrefilter {
  if (typeof pf !== "object" || pf === null || depth > 64) return false;
  const { type, str, subs } = pf as Partial<Re2jsPrefilter>;
  if (type === 0) return true;
  if (type === 1) return typeof str === "string";
  return (type === 2 || type === 3) && Array.isArray(subs) && subs.every((x) => validPrefilter(x, depth + 1));
}

function internalsOf(re: RE2JS): Re2jsInternals | undefined {
  const r2 = (re as unknown as { re2Input?: Partial<Re2jsInternals> }).re2Input;
  const prog = r2?.prog;
  if (!prog || !Array.isArray(prog.inst) || typeof prog.start !== "number" || (prog.numLb ?? 0) !== 0) return undefined;
  const prefilter = r2.prefilter ?? null;
  if (prefilter !== null && !validPrefilter(prefilter)) return undefined;
  if (prog.inst.length > MAX_DFA_PROGRAM) return { prog, prefilter };
  const dfa = r2.dfa;
  if (!dfa || typeof dfa.runeClass !== "function" || typeof dfa.numClasses !== "number") return undefined;
  return { prog, dfa, prefilter };
}

/** The number of instructions of the program of `re` (0 when its internals are not the ones expected). */
export function programSize(re: RE2JS): number {
  const n = (re as unknown as { re2Input?: { prog?: { inst?: unknown } } }).re2Input?.prog?.inst;
  return Array.isArray(n) ? n.length : 0;
}

/** A compiled program's matcher: `test(s)` is Go's `MatchString`. */
export interface ProgMatcher {
  test(s: string): boolean;
}

/**
 * A matcher for the program of `re` (an RE2JS compiled without flags: Go's `syntax.Perl`), or undefined
 * when its internals are not the ones expected (then re2js' own `test` answers).
 */
export function compileProgMatcher(re: RE2JS): ProgMatcher | undefined {
  const internals = internalsOf(re);
  if (!internals) return undefined;
  const { inst } = internals.prog;
  for (const i of inst) {
    if (typeof i.op !== "number" || typeof i.out !== "number" || typeof i.arg !== "number" || typeof i.matchRune !== "function") return undefined;
    if (i.op < ALT || i.op > RUNE_ANY_NOT_NL) return undefined;
  }
  return new Matcher(internals);
}

function isWordRune(r: number): boolean {
  return (r >= 48 && r <= 57) || (r >= 65 && r <= 90) || (r >= 97 && r <= 122) || r === 95;
}

/** Go's `syntax.EmptyOpContext(r1, r2)`: the assertions that hold between runes r1 and r2 (-1: the text's edge). */
function emptyContext(r1: number, r2: number): number {
  let op = 0;
  if (r1 < 0) op |= BEGIN_TEXT | BEGIN_LINE;
  else if (r1 === 10) op |= BEGIN_LINE;
  if (r2 < 0) op |= END_TEXT | END_LINE;
  else if (r2 === 10) op |= END_LINE;
  op |= isWordRune(r1) !== isWordRune(r2) ? WORD_BOUNDARY : NO_WORD_BOUNDARY;
  return op;
}

/** The kind of the rune after a position, as far as assertions there are concerned: word rune, newline, other. */
function nextKind(r: number): number {
  return isWordRune(r) ? 1 : r === 10 ? 2 : 0;
}

/** The code point at `pos` (a lone surrogate is itself) and, past it, the next position. */
function runeAt(s: string, pos: number): number {
  return s.codePointAt(pos) as number;
}

function sameStates(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

class Matcher implements ProgMatcher {
  private readonly op: Int8Array;
  private readonly out: Int32Array;
  private readonly arg: Int32Array;
  private readonly inst: readonly Re2jsInst[];
  private readonly start: number;
  private readonly prefilter: Re2jsPrefilter | null;
  private readonly classOf: (r: number) => number;
  private readonly numClasses: number;
  private readonly useDfa: boolean;
  /** True when no match can start after position 0 (every path from the start passes `\A`). */
  private readonly anchored: boolean;
  /**
   * True when some assertion depends on the runes around it (`\b`, `\B`, `(?m)^`, `(?m)$`): transitions are
   * then cached per kind of the following rune too (re2js' rune classes already split at `\n` and at
   * word runes for such programs, so the class of the rune read determines its side).
   */
  private readonly contextual: boolean;
  /** Transition slots per DFA state: rune classes × kinds of the following rune. */
  private readonly width: number;
  private readonly mark: Int32Array;
  private readonly stack: Int32Array;
  private cur: Int32Array;
  private nxt: Int32Array;
  private nCur = 0;
  private nNxt = 0;
  private stamp = 0;
  /** Lazy DFA over positions strictly inside the subject: state sets, their ids, transitions by (state, class). */
  private readonly dfaIds = new Map<number, number[]>();
  private readonly dfaSets: Int32Array[] = [];
  private dfaEntries = 0;
  private dfaNext = new Int32Array(0);
  /** Counts {@link resetDfa}s: a transition computed across a reset names states that are gone. */
  private generation = 0;

  constructor({ prog, dfa, prefilter }: Re2jsInternals) {
    this.prefilter = prefilter ?? null;
    const n = prog.inst.length;
    this.inst = prog.inst;
    this.op = Int8Array.from(prog.inst, (i) => i.op);
    this.out = Int32Array.from(prog.inst, (i) => i.out);
    this.arg = Int32Array.from(prog.inst, (i) => i.arg);
    this.start = prog.start;
    this.classOf = dfa ? (r) => dfa.runeClass(r) : () => 0;
    this.numClasses = dfa ? dfa.numClasses : 0;
    this.useDfa = dfa !== undefined;
    this.mark = new Int32Array(n);
    this.stack = new Int32Array(2 * n + 2);
    this.cur = new Int32Array(n);
    this.nxt = new Int32Array(n);
    let contextual = false;
    for (let pc = 0; pc < n; pc++) {
      if (this.op[pc] === EMPTY_WIDTH && ((this.arg[pc] as number) & (BEGIN_LINE | END_LINE | WORD_BOUNDARY | NO_WORD_BOUNDARY)) !== 0) contextual = true;
    }
    this.contextual = contextual;
    this.width = this.numClasses * (contextual ? 3 : 1);
    this.anchored = this.startsAnchored();
  }

  private startsAnchored(): boolean {
    const seen = new Uint8Array(this.op.length);
    const todo = [this.start];
    while (todo.length > 0) {
      const pc = todo.pop() as number;
      if (seen[pc] === 1) continue;
      seen[pc] = 1;
      switch (this.op[pc]) {
        case ALT:
        case ALT_MATCH:
          todo.push(this.out[pc] as number, this.arg[pc] as number);
          break;
        case NOP:
        case CAPTURE:
          todo.push(this.out[pc] as number);
          break;
        case EMPTY_WIDTH:
          if (((this.arg[pc] as number) & BEGIN_TEXT) === 0) todo.push(this.out[pc] as number);
          break;
        case FAIL:
          break;
        default:
          return false;
      }
    }
    return true;
  }

  private nextStamp(): number {
    if (this.stamp >= 0x7ffffff0) {
      this.stamp = 0;
      this.mark.fill(0);
    }
    return ++this.stamp;
  }

  /** Adds the rune states reachable from `pc0` under assertions `flags` to the next list; true on reaching a match. */
  private add(pc0: number, flags: number, stamp: number): boolean {
    const { op, out, arg, mark, stack } = this;
    let sp = 0;
    stack[sp++] = pc0;
    while (sp > 0) {
      const pc = stack[--sp] as number;
      if (mark[pc] === stamp) continue;
      mark[pc] = stamp;
      switch (op[pc]) {
        case ALT:
        case ALT_MATCH:
          stack[sp++] = arg[pc] as number;
          stack[sp++] = out[pc] as number;
          break;
        case NOP:
        case CAPTURE:
          stack[sp++] = out[pc] as number;
          break;
        case EMPTY_WIDTH:
          if (((arg[pc] as number) & ~flags) === 0) stack[sp++] = out[pc] as number;
          break;
        case MATCH:
          return true;
        case FAIL:
          break;
        default:
          this.nxt[this.nNxt++] = pc;
      }
    }
    return false;
  }

  private matches(pc: number, r: number): boolean {
    switch (this.op[pc]) {
      case RUNE_ANY:
        return true;
      case RUNE_ANY_NOT_NL:
        return r !== 10;
      case RUNE:
      case RUNE1:
        return (this.inst[pc] as Re2jsInst).matchRune(r);
      default:
        return false;
    }
  }

  /** From the states of `set`, reads rune `r` and fills the next list under `flags`; true on a match. */
  private step(set: Int32Array, n: number, r: number, flags: number): boolean {
    const out = this.out;
    this.nNxt = 0;
    const st = this.nextStamp();
    for (let i = 0; i < n; i++) {
      const pc = set[i] as number;
      if (this.matches(pc, r) && this.add(out[pc] as number, flags, st)) return true;
    }
    return !this.anchored && this.add(this.start, flags, st);
  }

  /** Forgets every DFA state; transitions being computed must not be stored (see {@link generation}). */
  private resetDfa(): void {
    this.dfaNext.fill(UNKNOWN, 0, this.dfaSets.length * this.width);
    this.dfaIds.clear();
    this.dfaSets.length = 0;
    this.dfaEntries = 0;
    this.generation++;
  }

  /** The DFA state of the next list (sorted in place), registered on first sight; -1 when the cache is full. */
  private stateOfNext(): number {
    const n = this.nNxt;
    const pcs = this.nxt.subarray(0, n).sort();
    let h = n;
    for (let i = 0; i < n; i++) h = Math.imul(h ^ (pcs[i] as number), 0x9e3779b1) ^ (h >>> 15);
    const bucket = this.dfaIds.get(h);
    if (bucket !== undefined) {
      for (const id of bucket) if (sameStates(this.dfaSets[id] as Int32Array, pcs)) return id;
    }
    if (this.dfaSets.length >= MAX_DFA_STATES || this.dfaEntries + n > MAX_DFA_ENTRIES || (this.dfaSets.length + 1) * this.width > MAX_DFA_SLOTS) {
      // full: start afresh (as RE2 does), unless even an empty cache cannot hold this state
      if (n > MAX_DFA_ENTRIES || this.width > MAX_DFA_SLOTS) return -1;
      this.resetDfa();
      return this.stateOfNext();
    }
    const id = this.dfaSets.length;
    this.dfaSets.push(pcs.slice());
    this.dfaEntries += n;
    if (bucket) bucket.push(id);
    else this.dfaIds.set(h, [id]);
    const width = this.width;
    if (this.dfaNext.length < (id + 1) * width) {
      const grown = new Int32Array(Math.min(Math.max(this.dfaNext.length * 2, (id + 1) * width), MAX_DFA_SLOTS)).fill(UNKNOWN);
      grown.set(this.dfaNext);
      this.dfaNext = grown;
    }
    return id;
  }

  test(s: string): boolean {
    if (this.prefilter !== null && !prefilterAllows(this.prefilter, s)) return false;
    const len = s.length;
    const r0 = len === 0 ? -1 : runeAt(s, 0);
    this.nNxt = 0;
    if (this.add(this.start, emptyContext(-1, r0), this.nextStamp())) return true;
    if (len === 0) return false;
    if (!this.useDfa) return this.nfaFrom(s, 0);
    let state = this.stateOfNext();
    if (state < 0) return this.nfaFrom(s, 0);
    const { width, contextual } = this;
    let pos = 0;
    let r = r0;
    for (;;) {
      const after = pos + (r > 0xffff ? 2 : 1);
      if (after >= len) {
        // the last rune: `\z` holds after it (not cached)
        const set = this.dfaSets[state] as Int32Array;
        return this.step(set, set.length, r, emptyContext(r, -1));
      }
      const rNext = runeAt(s, after);
      const slot = state * width + (contextual ? this.classOf(r) * 3 + nextKind(rNext) : this.classOf(r));
      let t = this.dfaNext[slot] as number;
      if (t === UNKNOWN) {
        // strictly inside the subject: `\A` and `\z` do not hold; the other assertions depend on r and rNext
        const set = this.dfaSets[state] as Int32Array;
        if (this.step(set, set.length, r, contextual ? emptyContext(r, rNext) : 0)) return true;
        const generation = this.generation;
        t = this.stateOfNext();
        // a state too large for the cache: go on without it from the states just computed
        if (t < 0) return this.nfaFrom(s, after);
        if (generation === this.generation) this.dfaNext[slot] = t;
      }
      state = t;
      pos = after;
      r = rNext;
      if (this.anchored && (this.dfaSets[state] as Int32Array).length === 0) return false;
    }
  }

  /** The Thompson simulation from position `from`, whose states are in the next list. */
  private nfaFrom(s: string, from: number): boolean {
    const len = s.length;
    let pos = from;
    while (pos < len) {
      const t = this.cur;
      this.cur = this.nxt;
      this.nxt = t;
      this.nCur = this.nNxt;
      if (this.nCur === 0 && this.anchored) return false;
      const r = runeAt(s, pos);
      const after = pos + (r > 0xffff ? 2 : 1);
      const rNext = after < len ? runeAt(s, after) : -1;
      if (this.step(this.cur, this.nCur, r, emptyContext(r, rNext))) return true;
      pos = after;
    }
    return false;
  }
}
