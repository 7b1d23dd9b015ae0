/**
 * The one matcher of crdkit's Go `regexp`: runs a {@link Prog} (from src/go/regexp-simple.ts or
 * src/go/regexp-compile.ts) in time linear in the subject, whatever the pattern.
 *
 * - `test(s)` is Go's `(*Regexp).MatchString`: a Thompson simulation (a set of instruction states per
 *   rune) with a lazy DFA over rune classes, bounded in memory. `MatchString` only asks whether some
 *   substring is in the language; thread priority never changes that, so the set of live states is all
 *   that matters. Inside the subject a transition depends on the state, the class of the rune read and,
 *   when the program asserts `\b`, `\B`, `(?m)^` or `(?m)$`, on whether the rune after it is a word rune,
 *   a newline or another rune; the last rune (where `\z` holds) is stepped uncached.
 * - `find(s, from)` is the position of Go's leftmost-first match starting at or after `from` (what
 *   `FindStringIndex` returns at `from` within `FindAllString`): the position DFAs of
 *   src/go/regexp-leftmost.ts find its end and start. When those cannot be used (no rune classes:
 *   programs past 20,000 instructions; a state too large for the cache), the `test` simulation first
 *   tells whether there is a match at all, then a Pike VM (threads in priority order, each with its
 *   start; a thread reaching `MATCH` cuts every lower-priority one) finds it, as Go's `machine` does
 *   without captures: O(subject × program), as Go.
 *
 * Runes are code points of the UTF-16 subject (a lone surrogate is itself); empty-width assertions are
 * evaluated from the runes on either side (Go's `EmptyOpContext`).
 *
 * @module
 */
import { DfaStates, UNKNOWN } from "./regexp-dfa-states.js";
import { LeftmostSearch } from "./regexp-leftmost.js";
import { ALT, ALT_MATCH, BEGIN_TEXT, CAPTURE, EMPTY_WIDTH, emptyContext, FAIL, instMatches, isContextual, MATCH, NOP, type Prog, runeAt, runeBefore, runeKind } from "./regexp-prog.js";

/** A program's matcher (see the module comment). */
export class ProgMatcher {
  private readonly op: Int8Array;
  private readonly out: Int32Array;
  private readonly arg: Int32Array;
  private readonly start: number;
  private readonly prog: Prog;
  private readonly ascii: Int32Array;
  private readonly useDfa: boolean;
  /** True when no match can start after position 0 (every path from the start passes `\A`). */
  private readonly anchored: boolean;
  /** True when some assertion depends on the runes around it (`\b`, `\B`, `(?m)^`, `(?m)$`). */
  private readonly contextual: boolean;
  /** Transition slots per DFA state: rune classes × kinds of the following rune. */
  private readonly width: number;
  private readonly mark: Int32Array;
  private readonly stack: Int32Array;
  private cur: Int32Array;
  private nxt: Int32Array;
  private nNxt = 0;
  private stamp = 0;
  /** Lazy DFA over positions strictly inside the subject: state sets, their ids, transitions by (state, class). */
  private readonly dfa: DfaStates;
  /** The DFAs of match positions, made on the first `find`. */
  private leftmost: LeftmostSearch | undefined;
  /** The Pike VM's thread lists (instruction, start), made on the first `find`. */
  private vm: { pcs: [Int32Array, Int32Array]; starts: [Int32Array, Int32Array] } | undefined;

  constructor(prog: Prog) {
    this.prog = prog;
    const n = prog.op.length;
    this.op = prog.op;
    this.out = prog.out;
    this.arg = prog.arg;
    this.start = prog.start;
    this.useDfa = prog.classes !== undefined;
    this.ascii = prog.classes?.ascii ?? new Int32Array(128);
    this.mark = new Int32Array(n);
    this.stack = new Int32Array(2 * n + 2);
    this.cur = new Int32Array(n);
    this.nxt = new Int32Array(n);
    const contextual = isContextual(prog);
    this.contextual = contextual;
    this.width = (prog.classes?.count ?? 0) * (contextual ? 3 : 1);
    this.dfa = new DfaStates(this.width);
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

  private classOf(r: number): number {
    return r < 128 ? (this.ascii[r] as number) : (this.prog.classes?.wide(r) ?? 0);
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
    return instMatches(this.prog, pc, r);
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

  /** The DFA state of the next list (sorted in place), registered on first sight; -1 when the cache cannot hold it. */
  private stateOfNext(): number {
    return this.dfa.intern(this.nxt.subarray(0, this.nNxt).sort(), false);
  }

  /** Go's `MatchString`: true when the program matches anywhere in `s`. */
  test(s: string): boolean {
    const pf = this.prog.prefilter;
    if (pf !== undefined && !pf(s)) return false;
    return this.firstEnd(s, 0) >= 0;
  }

  /**
   * The end of the match that ends first among those starting at or after `from` (the earliest position
   * where the simulation reaches `MATCH`), or -1 when there is none.
   */
  private firstEnd(s: string, from: number): number {
    const len = s.length;
    const r0 = runeAt(s, from);
    this.nNxt = 0;
    if (this.add(this.start, emptyContext(runeBefore(s, from), r0), this.nextStamp())) return from;
    if (from >= len) return -1;
    if (!this.useDfa) return this.nfaFrom(s, from);
    let state = this.stateOfNext();
    if (state < 0) return this.nfaFrom(s, from);
    const { width, contextual, ascii } = this;
    let pos = from;
    let r = r0;
    for (;;) {
      const after = pos + (r > 0xffff ? 2 : 1);
      if (after >= len) {
        // the last rune: `\z` holds after it (not cached)
        const set = this.dfa.lists[state] as Int32Array;
        return this.step(set, set.length, r, emptyContext(r, -1)) ? after : -1;
      }
      const rNext = s.codePointAt(after) as number;
      const cls = r < 128 ? (ascii[r] as number) : this.classOf(r);
      const slot = state * width + (contextual ? cls * 3 + runeKind(rNext) : cls);
      let t = this.dfa.next[slot] as number;
      if (t === UNKNOWN) {
        // strictly inside the subject: `\A` and `\z` do not hold; the other assertions depend on r and rNext
        const set = this.dfa.lists[state] as Int32Array;
        if (this.step(set, set.length, r, contextual ? emptyContext(r, rNext) : 0)) return after;
        const generation = this.dfa.generation;
        t = this.stateOfNext();
        // a state too large for the cache: go on without it from the states just computed
        if (t < 0) return this.nfaFrom(s, after);
        if (generation === this.dfa.generation) this.dfa.next[slot] = t;
      }
      state = t;
      pos = after;
      r = rNext;
      if (this.anchored && (this.dfa.lists[state] as Int32Array).length === 0) return -1;
    }
  }

  /** The Thompson simulation from position `from`, whose states are in the next list; the first match end or -1. */
  private nfaFrom(s: string, from: number): number {
    const len = s.length;
    let pos = from;
    while (pos < len) {
      const t = this.cur;
      this.cur = this.nxt;
      this.nxt = t;
      const nCur = this.nNxt;
      if (nCur === 0 && this.anchored) return -1;
      const r = s.codePointAt(pos) as number;
      const after = pos + (r > 0xffff ? 2 : 1);
      if (this.step(this.cur, nCur, r, emptyContext(r, runeAt(s, after)))) return after;
      pos = after;
    }
    return -1;
  }

  /**
   * Go's leftmost-first match among those starting at or after `from` (`from` ≤ `s.length`), as
   * `[start, end]`, or undefined. The runes before `from` count for assertions (`\b`, `(?m)^`), as in Go.
   */
  find(s: string, from: number): [number, number] | undefined {
    if (from === 0) {
      const pf = this.prog.prefilter;
      if (pf !== undefined && !pf(s)) return undefined;
    }
    const classes = this.prog.classes;
    if (classes !== undefined) {
      this.leftmost ??= new LeftmostSearch(this.prog, classes, this.anchored);
      const m = this.leftmost.find(s, from);
      if (m !== null) return m;
    }
    // the simulation is O(subject × program): first ask the DFA whether there is a match at all
    if (this.firstEnd(s, from) < 0) return undefined;
    return this.pike(s, from);
  }

  /** Adds the thread `pc0` (started at `start`) and what follows it by empty steps, in priority order. */
  private addThread(pcs: Int32Array, starts: Int32Array, n: number, pc0: number, start: number, flags: number, stamp: number): number {
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
        case FAIL:
          break;
        default:
          // rune instructions and MATCH are threads
          pcs[n] = pc;
          starts[n] = start;
          n++;
      }
    }
    return n;
  }

  /** Go's `machine.match` without captures but the match's start, leftmost-first. */
  private pike(s: string, from: number): [number, number] | undefined {
    const n = this.op.length;
    this.vm ??= { pcs: [new Int32Array(n), new Int32Array(n)], starts: [new Int32Array(n), new Int32Array(n)] };
    const { pcs, starts } = this.vm;
    const { op, out } = this;
    let which = 0;
    let nCur = 0;
    let stamp = this.nextStamp();
    let matched = false;
    let mStart = -1;
    let mEnd = -1;
    let pos = from;
    let rPrev = runeBefore(s, from);
    let r = runeAt(s, pos);
    for (;;) {
      if (nCur === 0 && (matched || (this.anchored && pos !== 0))) break;
      const curPcs = pcs[which] as Int32Array;
      const curStarts = starts[which] as Int32Array;
      if (!matched) nCur = this.addThread(curPcs, curStarts, nCur, this.start, pos, emptyContext(rPrev, r), stamp);
      const after = r < 0 ? pos : pos + (r > 0xffff ? 2 : 1);
      const rNext = r < 0 ? -1 : runeAt(s, after);
      const flags = emptyContext(r, rNext);
      const nxtPcs = pcs[1 - which] as Int32Array;
      const nxtStarts = starts[1 - which] as Int32Array;
      stamp = this.nextStamp();
      let nNext = 0;
      for (let i = 0; i < nCur; i++) {
        const pc = curPcs[i] as number;
        if (op[pc] === MATCH) {
          // first match: cut every lower-priority thread
          matched = true;
          mStart = curStarts[i] as number;
          mEnd = pos;
          break;
        }
        if (r >= 0 && this.matches(pc, r)) nNext = this.addThread(nxtPcs, nxtStarts, nNext, out[pc] as number, curStarts[i] as number, flags, stamp);
      }
      if (r < 0) break;
      which = 1 - which;
      nCur = nNext;
      pos = after;
      rPrev = r;
      r = rNext;
    }
    return matched ? [mStart, mEnd] : undefined;
  }
}

/** The matcher of `prog`. */
export function compileMatcher(prog: Prog): ProgMatcher {
  return new ProgMatcher(prog);
}
