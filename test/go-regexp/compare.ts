/**
 * Compares crdkit's Go `regexp` (src/go/regexp.ts `compileGoRegexp`; Go's parser and compiler of
 * src/go/regexp-syntax.ts and src/go/regexp-compile.ts on every pattern; the simple fast path
 * src/go/regexp-simple.ts on its own) with answers of real Go (tools/go-regexp-oracle). Shared by the
 * fixture replay test and scripts/fuzz-regexp.ts.
 */
import { compileGoRegexp } from "../../src/go/regexp.js";
import { compileProg } from "../../src/go/regexp-compile.js";
import { findAllIndex } from "../../src/go/regexp-find-all.js";
import { compileMatcher } from "../../src/go/regexp-matcher.js";
import type { Prog } from "../../src/go/regexp-prog.js";
import { compileSimpleProg, compileSimpleRegexp } from "../../src/go/regexp-simple.js";
import { GoSyntaxError, parseGoRegexp } from "../../src/go/regexp-syntax.js";

/** One pattern and Go's answers: `regexp.Compile`'s error text, or `MatchString` of each subject. */
export interface GoRegexpCase {
  readonly pattern: string;
  readonly subjects: readonly string[];
  readonly error?: string;
  readonly matches?: readonly boolean[];
  /** Go's `FindAllStringIndex(s, -1)` of each subject (UTF-8 byte offsets), when recorded. */
  readonly finds?: readonly (readonly (readonly [number, number])[])[];
}

/** One disagreement with Go (or between the fast path and Go's compiler). */
export interface RegexpMismatch {
  /** What kind of disagreement (groups the fuzzer's report). */
  readonly kind: string;
  readonly pattern: string;
  readonly subject?: string;
  readonly go: string;
  readonly crdkit: string;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * The subject as Go sees it: Go strings are UTF-8, so a lone UTF-16 surrogate reaches Go (through its JSON
 * decoder) as U+FFFD, and crdkit's decoders do the same (src/io/json-decode.ts), so `test` never sees one
 * in a document. Lone surrogates are still fed raw to the fast path vs compiler comparison.
 */
export function asGoSees(s: string): string {
  return s.replace(LONE_SURROGATE, "\ufffd");
}

/** Every disagreement of crdkit with Go's answers in `c`. */
export function compareWithGo(c: GoRegexpCase): RegexpMismatch[] {
  const out: RegexpMismatch[] = [];
  const { pattern } = c;
  const r = compileGoRegexp(pattern);
  const simple = compileSimpleRegexp(pattern);
  const path = simple ? "simple" : "compiler";
  if (c.error !== undefined) {
    if (simple) out.push({ kind: "simple path accepts a pattern Go rejects", pattern, go: c.error, crdkit: "accepted" });
    if (r.error === undefined) out.push({ kind: `compile: Go fails, crdkit (${path}) compiles`, pattern, go: c.error, crdkit: "compiled" });
    else if (r.error !== c.error) out.push({ kind: "compile: different error text", pattern, go: c.error, crdkit: r.error });
    return out;
  }
  if (r.error !== undefined) {
    out.push({ kind: "compile: Go compiles, crdkit fails", pattern, go: "compiled", crdkit: r.error });
    return out;
  }
  const matches = c.matches ?? [];
  // Go's compiler on every pattern, also the ones the simple path takes
  const tree = parseGoRegexp(pattern);
  const fullProg: Prog | undefined = tree instanceof GoSyntaxError ? undefined : compileProg(tree);
  const prog = fullProg && compileMatcher(fullProg);
  // the same program without rune classes: no DFA, positions by the Pike VM (the path of programs past 20,000 instructions)
  const simpleProg = compileSimpleProg(pattern);
  const pikeProg = simpleProg ?? fullProg;
  const pike = c.finds && pikeProg ? compileMatcher({ ...pikeProg, classes: undefined }) : undefined;
  c.subjects.forEach((s, i) => {
    const wantFind = c.finds?.[i];
    if (wantFind) {
      const g = asGoSees(s);
      const utf8 = (at: number): number => Buffer.byteLength(g.slice(0, at));
      const got = JSON.stringify(findAllIndex(r.regexp, g, -1).map(([a, b]) => [utf8(a), utf8(b)]));
      if (got !== JSON.stringify(wantFind)) out.push({ kind: `findAll (${path})`, pattern, subject: s, go: JSON.stringify(wantFind), crdkit: got });
      if (pike) {
        const byPike = JSON.stringify(findAllIndex(pike, g, -1).map(([a, b]) => [utf8(a), utf8(b)]));
        if (byPike !== JSON.stringify(wantFind)) out.push({ kind: `findAll (Pike VM, ${path})`, pattern, subject: s, go: JSON.stringify(wantFind), crdkit: byPike });
      }
    }
    const want = matches[i];
    const got = r.regexp.test(asGoSees(s));
    if (got !== want) out.push({ kind: `match (${path})`, pattern, subject: s, go: String(want), crdkit: String(got) });
    const byProg = prog?.test(asGoSees(s));
    if (byProg !== want) out.push({ kind: "match (Go's compiler)", pattern, subject: s, go: String(want), crdkit: String(byProg) });
    if (simple && prog) {
      const want2 = prog.test(s);
      const fast = simple.test(s);
      if (fast !== want2) out.push({ kind: "simple path vs Go's compiler", pattern, subject: s, go: `compiler ${want2}`, crdkit: String(fast) });
    }
  });
  return out;
}
