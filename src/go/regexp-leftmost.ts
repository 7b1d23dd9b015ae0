/**
 * Go's leftmost-first match positions with two lazy DFAs over a {@link Prog}, as RE2 finds them: linear in
 * the subject with a small constant, also for hostile patterns (`(a+a?){1000}b` over 300,000 runes),
 * where a Pike VM is O(subject × program).
 *
 * - The end: a forward DFA whose states are the Pike VM's thread lists *in priority order* (rune
 *   instructions and `MATCH`), plus whether a match was seen (then no thread starts any more). Stepping a
 *   list that holds `MATCH` records a match ending there and drops every lower-priority thread, exactly as
 *   Go's `machine.step` does; the last such position before the list dies is where the leftmost-first
 *   match ends.
 * - The start: the leftmost-first match starts at the leftmost position (at or after `from`) where any
 *   match starts, so it is the smallest p with [p, end) in the language: a backward DFA over the program's
 *   reversed edges, from `MATCH` at the end, whose states are the rune instructions that may have read the
 *   rune before the position.
 *
 * Assertions are evaluated from the runes on both sides (`EmptyOpContext`); transitions are cached per
 * rune class and, for programs asserting `\b`, `\B`, `(?m)^` or `(?m)$`, per kind of the rune on the far
 * side; steps touching the text's edges are not cached.
 *
 * @module
 */
import { DfaStates, UNKNOWN } from "./regexp-dfa-states.js";
import {
  ALT,
  ALT_MATCH,
  CAPTURE,
  EMPTY_WIDTH,
  emptyContext,
  FAIL,
  instMatches,
  isContextual,
  MATCH,
  NOP,
  type Prog,
  type RuneClasses,
  runeAt,
  runeBefore,
  runeKind,
} from "./regexp-prog.js";

/** Compressed lists per instruction: `at[pc]`..`at[pc + 1]` in `items`. */
interface Lists {
  readonly at: Int32Array;
  readonly items: Int32Array;
}

function lists(n: number, edges: [number, number][]): Lists {
  const at = new Int32Array(n + 1);
  for (const [from] of edges) at[from + 1] = (at[from + 1] as number) + 1;
  for (let i = 0; i < n; i++) at[i + 1] = (at[i + 1] as number) + (at[i] as number);
  const fill = at.slice(0, n);
  const items = new Int32Array(edges.length);
  for (const [from, to] of edges) {
    const k = fill[from] as number;
    items[k] = to;
    fill[from] = k + 1;
  }
  return { at, items };
}

export class LeftmostSearch {
  private readonly op: Int8Array;
  private readonly out: Int32Array;
  private readonly arg: Int32Array;
  private readonly contextual: boolean;
  private readonly fwd: DfaStates;
  private readonly rev: DfaStates;
  /** Forward states whose list holds `MATCH` (by state id; reset with the cache). */
  private fwdMatch: boolean[] = [];
  private fwdGeneration = 0;
  private readonly mark: Int32Array;
  private readonly mark2: Int32Array;
  private stamp = 0;
  private readonly stack: Int32Array;
  private readonly buf: Int32Array;
  private readonly buf2: Int32Array;
  /** Reversed empty steps (instruction → the instructions stepping to it) and rune steps (→ rune instructions whose `out` it is). */
  private readonly epsPred: Lists;
  private readonly runePred: Lists;
  private readonly matchPcs: Int32Array;

  private readonly classes: RuneClasses;

  /** For a program with rune classes (`prog.classes`). */
  constructor(
    private readonly prog: Prog,
    classes: RuneClasses,
    private readonly anchored: boolean,
  ) {
    this.classes = classes;
    const n = prog.op.length;
    this.op = prog.op;
    this.out = prog.out;
    this.arg = prog.arg;
    this.contextual = isContextual(prog);
    const width = classes.count * (this.contextual ? 3 : 1);
    this.fwd = new DfaStates(width);
    this.rev = new DfaStates(width);
    this.mark = new Int32Array(n);
    this.mark2 = new Int32Array(n);
    this.stack = new Int32Array(2 * n + 2);
    this.buf = new Int32Array(n);
    this.buf2 = new Int32Array(n);
    const eps: [number, number][] = [];
    const rune: [number, number][] = [];
    const matchPcs: number[] = [];
    for (let pc = 0; pc < n; pc++) {
      const o = this.out[pc] as number;
      switch (this.op[pc]) {
        case ALT:
        case ALT_MATCH:
          eps.push([o, pc], [this.arg[pc] as number, pc]);
          break;
        case NOP:
        case CAPTURE:
        case EMPTY_WIDTH:
          eps.push([o, pc]);
          break;
        case MATCH:
          matchPcs.push(pc);
          break;
        case FAIL:
          break;
        default:
          rune.push([o, pc]);
      }
    }
    this.epsPred = lists(n, eps);
    this.runePred = lists(n, rune);
    this.matchPcs = Int32Array.from(matchPcs);
  }

  private nextStamp(): number {
    if (this.stamp >= 0x7ffffff0) {
      this.stamp = 0;
      this.mark.fill(0);
      this.mark2.fill(0);
    }
    return ++this.stamp;
  }

  private classSlot(state: number, r: number, side: number, width: number): number {
    const c = this.classes;
    const cls = r < 128 ? (c.ascii[r] as number) : c.wide(r);
    return state * width + (this.contextual ? cls * 3 + runeKind(side) : cls);
  }

  /**
   * `[start, end]` of Go's leftmost-first match at or after `from`, undefined when there is none, null when
   * a state does not fit the DFA cache (the caller then simulates).
   */
  find(s: string, from: number): [number, number] | undefined | null {
    const end = this.matchEnd(s, from);
    if (end === null || end < 0) return end === null ? null : undefined;
    const start = this.matchStart(s, from, end);
    if (start === null) return null;
    // a match ends at `end`, so one starts at or after `from`
    return start < 0 ? null : [start, end];
  }

  /** Appends the threads reachable from `pc0` by empty steps under `flags`, in priority order, to `buf` from `n`. */
  private closure(pc0: number, flags: number, stamp: number, n0: number): number {
    const { op, out, arg, mark, stack, buf } = this;
    let n = n0;
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
          buf[n++] = pc;
      }
    }
    return n;
  }

  private fwdState(n: number, matched: boolean): number {
    const list = this.buf.subarray(0, n);
    const id = this.fwd.intern(list, matched);
    if (id < 0) return -1;
    if (this.fwdGeneration !== this.fwd.generation) {
      this.fwdMatch = [];
      this.fwdGeneration = this.fwd.generation;
    }
    if (this.fwdMatch[id] === undefined) {
      let m = false;
      for (let i = 0; i < n; i++) if (this.op[list[i] as number] === MATCH) m = true;
      this.fwdMatch[id] = m;
    }
    return id;
  }

  /** The forward state after `state` reads `r`, with `flags` holding after it. */
  private fwdNext(state: number, r: number, flags: number): number {
    const list = this.fwd.lists[state] as Int32Array;
    let matched = this.fwd.flags[state] as boolean;
    const stamp = this.nextStamp();
    let n = 0;
    for (let i = 0; i < list.length; i++) {
      const pc = list[i] as number;
      if (this.op[pc] === MATCH) {
        // the first match in priority order: lower-priority threads are cut
        matched = true;
        break;
      }
      if (instMatches(this.prog, pc, r)) n = this.closure(this.out[pc] as number, flags, stamp, n);
    }
    if (!matched && !this.anchored) n = this.closure(this.prog.start, flags, stamp, n);
    return this.fwdState(n, matched);
  }

  /** Where the leftmost-first match at or after `from` ends: -1 for none, null when the cache cannot hold a state. */
  private matchEnd(s: string, from: number): number | null {
    const { fwd, contextual } = this;
    const { width } = fwd;
    const ascii = this.classes.ascii;
    const len = s.length;
    let r = runeAt(s, from);
    let state = this.fwdState(this.closure(this.prog.start, emptyContext(runeBefore(s, from), r), this.nextStamp(), 0), false);
    if (state < 0) return null;
    let end = -1;
    let pos = from;
    for (;;) {
      if (this.fwdMatch[state] === true) end = pos;
      if (r < 0) return end;
      if ((fwd.lists[state] as Int32Array).length === 0 && (fwd.flags[state] === true || this.anchored)) return end;
      const after = pos + (r > 0xffff ? 2 : 1);
      const rNext = after < len ? (s.codePointAt(after) as number) : -1;
      let t: number;
      if (rNext < 0) t = this.fwdNext(state, r, emptyContext(r, -1));
      else {
        const slot = contextual ? this.classSlot(state, r, rNext, width) : state * width + (r < 128 ? (ascii[r] as number) : this.classes.wide(r));
        t = fwd.next[slot] as number;
        if (t === UNKNOWN) {
          const generation = fwd.generation;
          t = this.fwdNext(state, r, contextual ? emptyContext(r, rNext) : 0);
          if (t >= 0 && generation === fwd.generation) fwd.next[slot] = t;
        }
      }
      if (t < 0) return null;
      state = t;
      pos = after;
      r = rNext;
    }
  }

  /**
   * The reverse state from the instructions in `buf2[0..n)` (marked with `stamp`): closes them backwards
   * over empty steps under `flags`, notes whether the program's start is among them, and keeps the rune
   * instructions stepping into them.
   */
  private revState(n0: number, flags: number, stamp: number): number {
    const { op, arg, mark, mark2, buf, buf2, epsPred, runePred } = this;
    let n = n0;
    for (let i = 0; i < n; i++) {
      const v = buf2[i] as number;
      for (let j = epsPred.at[v] as number; j < (epsPred.at[v + 1] as number); j++) {
        const u = epsPred.items[j] as number;
        if (mark[u] === stamp) continue;
        if (op[u] === EMPTY_WIDTH && ((arg[u] as number) & ~flags) !== 0) continue;
        mark[u] = stamp;
        buf2[n++] = u;
      }
    }
    const hasStart = mark[this.prog.start] === stamp;
    let m = 0;
    for (let i = 0; i < n; i++) {
      const v = buf2[i] as number;
      for (let j = runePred.at[v] as number; j < (runePred.at[v + 1] as number); j++) {
        const q = runePred.items[j] as number;
        if (mark2[q] === stamp) continue;
        mark2[q] = stamp;
        buf[m++] = q;
      }
    }
    return this.rev.intern(buf.subarray(0, m).sort(), hasStart);
  }

  /** The reverse state after `state` reads `r` backwards, with `flags` holding before it. */
  private revNext(state: number, r: number, flags: number): number {
    const list = this.rev.lists[state] as Int32Array;
    const stamp = this.nextStamp();
    let n = 0;
    for (let i = 0; i < list.length; i++) {
      const q = list[i] as number;
      if (instMatches(this.prog, q, r)) {
        this.mark[q] = stamp;
        this.buf2[n++] = q;
      }
    }
    return this.revState(n, flags, stamp);
  }

  /** The smallest p ≥ `from` with [p, end) a match: -1 for none, null when the cache cannot hold a state. */
  private matchStart(s: string, from: number, end: number): number | null {
    const rev = this.rev;
    const stamp = this.nextStamp();
    for (let i = 0; i < this.matchPcs.length; i++) {
      const pc = this.matchPcs[i] as number;
      this.mark[pc] = stamp;
      this.buf2[i] = pc;
    }
    let state = this.revState(this.matchPcs.length, emptyContext(runeBefore(s, end), runeAt(s, end)), stamp);
    if (state < 0) return null;
    let best = rev.flags[state] === true ? end : -1;
    let pos = end;
    while (pos > from && (rev.lists[state] as Int32Array).length > 0) {
      const r = runeBefore(s, pos);
      const before = pos - (r > 0xffff ? 2 : 1);
      const rPrev = runeBefore(s, before);
      let t: number;
      if (rPrev < 0) t = this.revNext(state, r, emptyContext(-1, r));
      else {
        const slot = this.classSlot(state, r, rPrev, rev.width);
        t = rev.next[slot] as number;
        if (t === UNKNOWN) {
          const generation = rev.generation;
          t = this.revNext(state, r, this.contextual ? emptyContext(rPrev, r) : 0);
          if (t >= 0 && generation === rev.generation) rev.next[slot] = t;
        }
      }
      if (t < 0) return null;
      state = t;
      pos = before;
      if (rev.flags[state] === true) best = pos;
    }
    return best;
  }
}
