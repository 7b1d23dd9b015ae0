/**
 * Go's `regexp/syntax` `Simplify` and `Compile`: the parse tree of src/go/regexp-syntax.ts to the program
 * ({@link Prog}) src/go/regexp-matcher.ts runs, instruction for instruction as Go emits it (instruction 0
 * is `FAIL`; repeats expanded by `Simplify`; alternatives, loops and non-greedy choices in Go's order, so
 * threads have Go's priorities and match positions are Go's), with the rune classes of its lazy DFA and
 * the literals a match needs (src/go/regexp-prefilter.ts).
 *
 * @module
 */
import { prefilterOf } from "./regexp-prefilter.js";
import { ALT, CAPTURE, EMPTY_WIDTH, FAIL, MATCH, NOP, type Prog, RUNE, RUNE1, RUNE_ANY, RUNE_ANY_NOT_NL, type RuneClasses } from "./regexp-prog.js";
import {
  FOLD_CASE,
  NON_GREEDY,
  OP_ALTERNATE,
  OP_ANY_CHAR,
  OP_ANY_CHAR_NOT_NL,
  OP_BEGIN_LINE,
  OP_BEGIN_TEXT,
  OP_CAPTURE,
  OP_CHAR_CLASS,
  OP_CONCAT,
  OP_EMPTY_MATCH,
  OP_END_LINE,
  OP_END_TEXT,
  OP_LITERAL,
  OP_NO_MATCH,
  OP_NO_WORD_BOUNDARY,
  OP_PLUS,
  OP_QUEST,
  OP_REPEAT,
  OP_STAR,
  OP_WORD_BOUNDARY,
  Regexp,
} from "./regexp-syntax.js";
import { MAX_RUNE, simpleFold } from "./regexp-unicode.js";

/**
 * Past this many instructions no DFA rune classes: the simulation alone, O(subject × program) as in Go
 * (the DFA's states would be as large as the program).
 */
const MAX_DFA_PROGRAM = 20_000;

/** Go's `anyRuneNotNL` and `anyRune`. */
const ANY_RUNE_NOT_NL: readonly number[] = [0, 9, 11, MAX_RUNE];
const ANY_RUNE: readonly number[] = [0, MAX_RUNE];

/** Go's `syntax.EmptyOp` bits. */
const EMPTY_BEGIN_LINE = 1;
const EMPTY_END_LINE = 2;
const EMPTY_BEGIN_TEXT = 4;
const EMPTY_END_TEXT = 8;
const EMPTY_WORD_BOUNDARY = 16;
const EMPTY_NO_WORD_BOUNDARY = 32;

/** Go's `(*Regexp).Simplify`: counted repeats expanded into `*`, `+`, `?` and concatenations. */
export function simplify(re: Regexp): Regexp {
  switch (re.op) {
    case OP_CAPTURE:
    case OP_CONCAT:
    case OP_ALTERNATE: {
      let nre = re;
      for (let i = 0; i < re.sub.length; i++) {
        const sub = re.sub[i] as Regexp;
        const nsub = simplify(sub);
        if (nre === re && nsub !== sub) {
          nre = copyOf(re);
          nre.sub = re.sub.slice(0, i);
        }
        if (nre !== re) nre.sub.push(nsub);
      }
      return nre;
    }
    case OP_STAR:
    case OP_PLUS:
    case OP_QUEST:
      return simplify1(re.op, re.flags, simplify(re.sub[0] as Regexp), re);
    case OP_REPEAT: {
      if (re.min === 0 && re.max === 0) return new Regexp(OP_EMPTY_MATCH);
      const sub = simplify(re.sub[0] as Regexp);
      if (re.max === -1) {
        if (re.min === 0) return simplify1(OP_STAR, re.flags, sub, undefined);
        if (re.min === 1) return simplify1(OP_PLUS, re.flags, sub, undefined);
        const nre = new Regexp(OP_CONCAT);
        for (let i = 0; i < re.min - 1; i++) nre.sub.push(sub);
        nre.sub.push(simplify1(OP_PLUS, re.flags, sub, undefined));
        return nre;
      }
      if (re.min === 1 && re.max === 1) return sub;
      let prefix: Regexp | undefined;
      if (re.min > 0) {
        prefix = new Regexp(OP_CONCAT);
        for (let i = 0; i < re.min; i++) prefix.sub.push(sub);
      }
      if (re.max > re.min) {
        let suffix = simplify1(OP_QUEST, re.flags, sub, undefined);
        for (let i = re.min + 1; i < re.max; i++) {
          const nre2 = new Regexp(OP_CONCAT);
          nre2.sub = [sub, suffix];
          suffix = simplify1(OP_QUEST, re.flags, nre2, undefined);
        }
        if (prefix === undefined) return suffix;
        prefix.sub.push(suffix);
      }
      if (prefix !== undefined) return prefix;
      return new Regexp(OP_NO_MATCH);
    }
  }
  return re;
}

function copyOf(re: Regexp): Regexp {
  const c = new Regexp(re.op);
  c.flags = re.flags;
  c.min = re.min;
  c.max = re.max;
  c.cap = re.cap;
  c.name = re.name;
  return c;
}

/** Go's `simplify1`: `op` of `sub`, without doubling an operator (`(a*)*` is `a*`). */
function simplify1(op: number, flags: number, sub: Regexp, re: Regexp | undefined): Regexp {
  if (sub.op === OP_EMPTY_MATCH) return sub;
  if (op === sub.op && (flags & NON_GREEDY) === (sub.flags & NON_GREEDY)) return sub;
  if (re !== undefined && re.op === op && (re.flags & NON_GREEDY) === (flags & NON_GREEDY) && sub === re.sub[0]) return re;
  const n = new Regexp(op);
  n.flags = flags;
  n.sub = [sub];
  return n;
}

/** A fragment: its first instruction (0: none, it never matches), the list of outs to patch, nullability. */
interface Frag {
  i: number;
  head: number;
  tail: number;
  nullable: boolean;
}

/** Go's `compiler`: instructions in growable typed arrays; rune instructions' runes in one pool. */
class Compiler {
  op = new Int8Array(64);
  out = new Int32Array(64);
  arg = new Int32Array(64);
  /** Per instruction: offset and length of its runes in `pool` (rune instructions only). */
  runeAt = new Int32Array(64);
  runeLen = new Int32Array(64);
  pool: number[] = [];
  /** Where each rune array of the tree is in `pool`. */
  readonly offsets = new Map<readonly number[], number>();
  n = 0;

  inst(op: number): Frag {
    if (this.n === this.op.length) {
      const grow = <T extends Int8Array | Int32Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(a.length * 2);
        b.set(a);
        return b;
      };
      this.op = grow(this.op);
      this.out = grow(this.out);
      this.arg = grow(this.arg);
      this.runeAt = grow(this.runeAt);
      this.runeLen = grow(this.runeLen);
    }
    const i = this.n++;
    this.op[i] = op;
    return { i, head: 0, tail: 0, nullable: true };
  }

  patch(f: Frag, val: number): void {
    let head = f.head;
    while (head !== 0) {
      const pc = head >>> 1;
      if ((head & 1) === 0) {
        head = this.out[pc] as number;
        this.out[pc] = val;
      } else {
        head = this.arg[pc] as number;
        this.arg[pc] = val;
      }
    }
  }

  /** Go's `patchList.append`: l1 then l2. */
  append(h1: number, t1: number, h2: number, t2: number): [number, number] {
    if (h1 === 0) return [h2, t2];
    if (h2 === 0) return [h1, t1];
    const pc = t1 >>> 1;
    if ((t1 & 1) === 0) this.out[pc] = h2;
    else this.arg[pc] = h2;
    return [h1, t2];
  }

  private readonly singles = new Map<number, readonly number[]>();

  /** The one-rune array of `r` (one per rune, so that the pool holds it once). */
  single(r: number): readonly number[] {
    let a = this.singles.get(r);
    if (a === undefined) {
      a = [r];
      this.singles.set(r, a);
    }
    return a;
  }

  nop(): Frag {
    const f = this.inst(NOP);
    f.head = f.tail = f.i << 1;
    return f;
  }

  cap(arg: number): Frag {
    const f = this.inst(CAPTURE);
    f.head = f.tail = f.i << 1;
    this.arg[f.i] = arg;
    return f;
  }

  cat(f1: Frag, f2: Frag): Frag {
    if (f1.i === 0 || f2.i === 0) return { i: 0, head: 0, tail: 0, nullable: false };
    this.patch(f1, f2.i);
    return { i: f1.i, head: f2.head, tail: f2.tail, nullable: f1.nullable && f2.nullable };
  }

  alt(f1: Frag, f2: Frag): Frag {
    if (f1.i === 0) return f2;
    if (f2.i === 0) return f1;
    const f = this.inst(ALT);
    this.out[f.i] = f1.i;
    this.arg[f.i] = f2.i;
    [f.head, f.tail] = this.append(f1.head, f1.tail, f2.head, f2.tail);
    f.nullable = f1.nullable || f2.nullable;
    return f;
  }

  quest(f1: Frag, nongreedy: boolean): Frag {
    const f = this.inst(ALT);
    if (nongreedy) {
      this.arg[f.i] = f1.i;
      f.head = f.tail = f.i << 1;
    } else {
      this.out[f.i] = f1.i;
      f.head = f.tail = (f.i << 1) | 1;
    }
    [f.head, f.tail] = this.append(f.head, f.tail, f1.head, f1.tail);
    return f;
  }

  loop(f1: Frag, nongreedy: boolean): Frag {
    const f = this.inst(ALT);
    if (nongreedy) {
      this.arg[f.i] = f1.i;
      f.head = f.tail = f.i << 1;
    } else {
      this.out[f.i] = f1.i;
      f.head = f.tail = (f.i << 1) | 1;
    }
    this.patch(f1, f.i);
    return f;
  }

  star(f1: Frag, nongreedy: boolean): Frag {
    if (f1.nullable) return this.quest(this.plus(f1, nongreedy), nongreedy);
    return this.loop(f1, nongreedy);
  }

  plus(f1: Frag, nongreedy: boolean): Frag {
    const l = this.loop(f1, nongreedy);
    return { i: f1.i, head: l.head, tail: l.tail, nullable: f1.nullable };
  }

  empty(op: number): Frag {
    const f = this.inst(EMPTY_WIDTH);
    this.arg[f.i] = op;
    f.head = f.tail = f.i << 1;
    return f;
  }

  rune(r: readonly number[], flags: number): Frag {
    const f = this.inst(RUNE);
    f.nullable = false;
    let fl = flags & FOLD_CASE;
    if (fl !== 0 && (r.length !== 1 || simpleFold(r[0] as number) === r[0])) fl = 0;
    this.arg[f.i] = fl;
    // the copies of a repeated class share one array of the tree (Simplify repeats the node): stored once
    let offset = this.offsets.get(r);
    if (offset === undefined) {
      offset = this.pool.length;
      for (const x of r) this.pool.push(x);
      this.offsets.set(r, offset);
    }
    this.runeAt[f.i] = offset;
    this.runeLen[f.i] = r.length;
    f.head = f.tail = f.i << 1;
    if (fl === 0 && (r.length === 1 || (r.length === 2 && r[0] === r[1]))) this.op[f.i] = RUNE1;
    else if (r.length === 2 && r[0] === 0 && r[1] === MAX_RUNE) this.op[f.i] = RUNE_ANY;
    else if (r.length === 4 && r[0] === 0 && r[1] === 9 && r[2] === 11 && r[3] === MAX_RUNE) this.op[f.i] = RUNE_ANY_NOT_NL;
    return f;
  }

  compile(re: Regexp): Frag {
    switch (re.op) {
      case OP_NO_MATCH:
        return { i: 0, head: 0, tail: 0, nullable: false };
      case OP_EMPTY_MATCH:
        return this.nop();
      case OP_LITERAL: {
        if (re.rune.length === 0) return this.nop();
        let f = this.rune(this.single(re.rune[0] as number), re.flags);
        for (let j = 1; j < re.rune.length; j++) f = this.cat(f, this.rune(this.single(re.rune[j] as number), re.flags));
        return f;
      }
      case OP_CHAR_CLASS:
        return this.rune(re.rune, re.flags);
      case OP_ANY_CHAR_NOT_NL:
        return this.rune(ANY_RUNE_NOT_NL, 0);
      case OP_ANY_CHAR:
        return this.rune(ANY_RUNE, 0);
      case OP_BEGIN_LINE:
        return this.empty(EMPTY_BEGIN_LINE);
      case OP_END_LINE:
        return this.empty(EMPTY_END_LINE);
      case OP_BEGIN_TEXT:
        return this.empty(EMPTY_BEGIN_TEXT);
      case OP_END_TEXT:
        return this.empty(EMPTY_END_TEXT);
      case OP_WORD_BOUNDARY:
        return this.empty(EMPTY_WORD_BOUNDARY);
      case OP_NO_WORD_BOUNDARY:
        return this.empty(EMPTY_NO_WORD_BOUNDARY);
      case OP_CAPTURE: {
        const bra = this.cap(re.cap << 1);
        const sub = this.compile(re.sub[0] as Regexp);
        const ket = this.cap((re.cap << 1) | 1);
        return this.cat(this.cat(bra, sub), ket);
      }
      case OP_STAR:
        return this.star(this.compile(re.sub[0] as Regexp), (re.flags & NON_GREEDY) !== 0);
      case OP_PLUS:
        return this.plus(this.compile(re.sub[0] as Regexp), (re.flags & NON_GREEDY) !== 0);
      case OP_QUEST:
        return this.quest(this.compile(re.sub[0] as Regexp), (re.flags & NON_GREEDY) !== 0);
      case OP_CONCAT: {
        if (re.sub.length === 0) return this.nop();
        let f = this.compile(re.sub[0] as Regexp);
        for (let i = 1; i < re.sub.length; i++) f = this.cat(f, this.compile(re.sub[i] as Regexp));
        return f;
      }
      case OP_ALTERNATE: {
        let f: Frag = { i: 0, head: 0, tail: 0, nullable: false };
        for (const sub of re.sub) f = this.alt(f, this.compile(sub));
        return f;
      }
    }
    throw new Error(`regexp: unhandled op ${re.op} in compile`);
  }
}

/** Go's `InstRune` matching (`MatchRunePos` ≥ 0, with its special cases by length) over the compiler's rune pool. */
function runeMatcher(c: Compiler): (pc: number, r: number) => boolean {
  const pool = Int32Array.from(c.pool);
  const at = c.runeAt.subarray(0, c.n);
  const len = c.runeLen.subarray(0, c.n);
  const fold = c.arg.subarray(0, c.n);
  return (pc, r) => {
    const base = at[pc] as number;
    const n = len[pc] as number;
    if (n === 2) return r >= (pool[base] as number) && r <= (pool[base + 1] as number);
    if (n === 1) {
      const r0 = pool[base] as number;
      if (r === r0) return true;
      if ((fold[pc] as number) & FOLD_CASE) for (let f = simpleFold(r0); f !== r0; f = simpleFold(f)) if (r === f) return true;
      return false;
    }
    if (n <= 8) {
      for (let j = base; j < base + n; j += 2) {
        if (r < (pool[j] as number)) return false;
        if (r <= (pool[j + 1] as number)) return true;
      }
      return false;
    }
    let lo = 0;
    let hi = n >> 1;
    while (lo < hi) {
      const m = (lo + hi) >>> 1;
      if ((pool[base + 2 * m] as number) <= r) {
        if (r <= (pool[base + 2 * m + 1] as number)) return true;
        lo = m + 1;
      } else hi = m;
    }
    return false;
  };
}

/**
 * Rune classes: the runes between two consecutive boundaries of any rune instruction's ranges (a folded
 * literal counts each rune of its orbit), of `\n` and of the word runes, are matched alike everywhere.
 */
function runeClasses(c: Compiler): RuneClasses {
  const b = new Set<number>([10, 11, 0x30, 0x3a, 0x41, 0x5b, 0x5f, 0x60, 0x61, 0x7b]);
  const pool = c.pool;
  const seen = new Set<number>();
  for (let pc = 0; pc < c.n; pc++) {
    const op = c.op[pc];
    if (op !== RUNE && op !== RUNE1) continue;
    const base = c.runeAt[pc] as number;
    const n = c.runeLen[pc] as number;
    // an empty class (never matches) adds no boundary; its offset is the next array's, so it must not mark it seen
    if (n === 0) continue;
    // one pass per rune array and fold flag
    const key = base * 2 + ((c.arg[pc] as number) & FOLD_CASE);
    if (seen.has(key)) continue;
    seen.add(key);
    if (n === 1) {
      const r0 = pool[base] as number;
      b.add(r0).add(r0 + 1);
      if ((c.arg[pc] as number) & FOLD_CASE) for (let f = simpleFold(r0); f !== r0; f = simpleFold(f)) b.add(f).add(f + 1);
      continue;
    }
    for (let k = 0; k < n; k += 2) b.add(pool[base + k] as number).add((pool[base + k + 1] as number) + 1);
  }
  b.delete(0);
  const bounds = Int32Array.from(b).sort();
  /** The class of r: how many boundaries are ≤ r. */
  const classOf = (r: number): number => {
    let lo = 0;
    let hi = bounds.length;
    while (lo < hi) {
      const m = (lo + hi) >>> 1;
      if ((bounds[m] as number) <= r) lo = m + 1;
      else hi = m;
    }
    return lo;
  };
  const ascii = new Int32Array(128);
  for (let r = 0; r < 128; r++) ascii[r] = classOf(r);
  return { ascii, wide: classOf, count: bounds.length + 1 };
}

/** Go's `syntax.Compile(re.Simplify())`: the program of a parse tree. */
export function compileProg(re: Regexp): Prog {
  const c = new Compiler();
  c.inst(FAIL);
  const f = c.compile(simplify(re));
  c.patch(f, c.inst(MATCH).i);
  const n = c.n;
  return {
    op: c.op.slice(0, n),
    out: c.out.slice(0, n),
    arg: c.arg.slice(0, n),
    start: f.i,
    matchRune: runeMatcher(c),
    classes: n <= MAX_DFA_PROGRAM ? runeClasses(c) : undefined,
    prefilter: prefilterOf(re),
  };
}
