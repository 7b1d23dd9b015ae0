/**
 * The program re2js compiles (the same instructions Go's `regexp/syntax.Compile` emits), read into
 * crdkit's {@link Prog} format so that src/go/regexp-matcher.ts runs it. Relies on re2js internals
 * (not in its type declarations); anything unexpected yields undefined and re2js' own matcher answers.
 *
 * @module
 */
import type { RE2JS } from "re2js";
import { ALT, type Prog, RUNE_ANY_NOT_NL, type RuneClasses } from "./regexp-prog.js";

/**
 * Past this many instructions no DFA classes: re2js computes its rune classes in O(instructions × ranges)
 * (seconds for `(?:\pL{1000}){100}`), and on such programs the simulation is O(subject × program) as in Go anyway.
 */
const MAX_DFA_PROGRAM = 20_000;

/** The parts of re2js' compiled program read here. */
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

/** The number of instructions of the program of `re` (0 when its internals are not the ones expected). */
export function programSize(re: RE2JS): number {
  const n = (re as unknown as { re2Input?: { prog?: { inst?: unknown } } }).re2Input?.prog?.inst;
  return Array.isArray(n) ? n.length : 0;
}

/**
 * The program of `re` (an RE2JS compiled without flags: Go's `syntax.Perl`), or undefined when its
 * internals are not the ones expected.
 */
export function progOfRe2js(re: RE2JS): Prog | undefined {
  const r2 = (re as unknown as { re2Input?: Partial<Re2jsInternals> }).re2Input;
  const prog = r2?.prog;
  if (!prog || !Array.isArray(prog.inst) || typeof prog.start !== "number" || (prog.numLb ?? 0) !== 0) return undefined;
  const prefilter = r2.prefilter ?? null;
  if (prefilter !== null && !validPrefilter(prefilter)) return undefined;
  const inst = prog.inst;
  const n = inst.length;
  if (prog.start < 0 || prog.start >= n) return undefined;
  for (const i of inst) {
    if (typeof i.op !== "number" || typeof i.out !== "number" || typeof i.arg !== "number" || typeof i.matchRune !== "function") return undefined;
    if (i.op < ALT || i.op > RUNE_ANY_NOT_NL) return undefined;
  }
  let classes: RuneClasses | undefined;
  if (n <= MAX_DFA_PROGRAM) {
    const dfa = r2.dfa;
    if (!dfa || typeof dfa.runeClass !== "function" || typeof dfa.numClasses !== "number") return undefined;
    const ascii = new Int32Array(128);
    for (let c = 0; c < 128; c++) ascii[c] = dfa.runeClass(c);
    classes = { ascii, wide: (r) => dfa.runeClass(r), count: dfa.numClasses };
  }
  return {
    op: Int8Array.from(inst, (i) => i.op),
    out: Int32Array.from(inst, (i) => i.out),
    arg: Int32Array.from(inst, (i) => i.arg),
    start: prog.start,
    matchRune: (pc, r) => (inst[pc] as Re2jsInst).matchRune(r),
    classes,
    prefilter: prefilter === null || prefilter.type === 0 ? undefined : (s) => prefilterAllows(prefilter, s),
  };
}
