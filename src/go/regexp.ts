/**
 * Go `regexp` (RE2 syntax), crdkit's own: compile once, match unanchored like Go's `MatchString`, and
 * report compile failures with Go's exact `regexp/syntax` error text. Patterns are parsed as Go parses
 * them (src/go/regexp-syntax.ts, Go's limits included), compiled into Go's program
 * (src/go/regexp-compile.ts; both through src/go/regexp-go-module.ts, a file of its own in the CLI
 * bundle) and run by src/go/regexp-matcher.ts; the common simple subset takes a shorter path with the
 * same program (src/go/regexp-simple.ts).
 */
import { goRegexpModule } from "./regexp-go-module.js";
import { compileMatcher, type ProgMatcher } from "./regexp-matcher.js";
import { compileSimpleProg } from "./regexp-simple.js";
import type { Prog } from "./regexp-prog.js";
import type { GoSyntaxError, Regexp } from "./regexp-syntax.js";

/** A compiled Go regular expression. */
export interface GoRegexp {
  /** The source pattern. */
  readonly source: string;
  /** Go `(*Regexp).MatchString`: true when the pattern matches anywhere in `s`. */
  test(s: string): boolean;
  /**
   * Go's leftmost-first match starting at or after `from` (0 ≤ `from` ≤ `s.length`) as `[start, end]`, or
   * undefined: what `FindStringIndex` finds at `from` inside `FindAllString` (the runes before `from`
   * count for `\b` and `(?m)^`). Linear in the subject whatever the pattern (src/go/regexp-matcher.ts).
   */
  find(s: string, from: number): [number, number] | undefined;
}

/** Result of {@link compileGoRegexp}: the regexp, or Go's error text. */
export type GoRegexpResult = { regexp: GoRegexp; error?: undefined } | { regexp?: undefined; error: string };

const cache = new Map<string, GoRegexpResult>();
const CACHE_LIMIT = 4096;

/**
 * Go `regexp.Compile(pattern)`. Errors are Go's texts, e.g.
 * ``error parsing regexp: missing argument to repetition operator: `+` `` or
 * ``error parsing regexp: invalid or unsupported Perl syntax: `(?=` ``. Never throws.
 * Results are cached by pattern (bounded), so callers may compile repeatedly.
 */
export function compileGoRegexp(pattern: string): GoRegexpResult {
  const hit = cache.get(pattern);
  if (hit) return hit;
  const res = compileUncached(pattern);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(pattern, res);
  return res;
}

/**
 * Match results are remembered per regexp for short subjects (documents repeat the same names, kinds and
 * hosts): matching is a pure function of (pattern, subject). All memos together hold at most
 * MEMO_LIMIT entries of at most MEMO_MAX_SUBJECT characters; past that they all start afresh.
 */
const MEMO_LIMIT = 16384;
const MEMO_MAX_SUBJECT = 256;
let memoEntries = 0;
let memoGeneration = 0;

function memoizedTest(re: { test(s: string): boolean }): (s: string) => boolean {
  let memo = new Map<string, boolean>();
  let generation = memoGeneration;
  return (s: string) => {
    if (s.length > MEMO_MAX_SUBJECT) return re.test(s);
    if (generation !== memoGeneration) {
      memo = new Map();
      generation = memoGeneration;
    }
    const hit = memo.get(s);
    if (hit !== undefined) return hit;
    const r = re.test(s);
    if (memoEntries >= MEMO_LIMIT) {
      memoEntries = 0;
      memoGeneration++;
      memo = new Map();
      generation = memoGeneration;
    }
    memo.set(s, r);
    memoEntries++;
    return r;
  };
}

function compileUncached(pattern: string): GoRegexpResult {
  const simple = compileSimpleProg(pattern);
  if (simple !== undefined) return { regexp: lazyMatcher(pattern, () => simple) };
  const go = goRegexpModule();
  let tree: Regexp | GoSyntaxError;
  try {
    tree = go.parseGoRegexp(pattern);
  } catch (e) {
    // a stack overflow on a deeply nested pattern the limits let through
    if (e instanceof RangeError) return { error: `error parsing regexp: expression nests too deeply: \`${pattern}\`` };
    throw e;
  }
  if (tree instanceof go.GoSyntaxError) return { error: tree.message };
  return { regexp: lazyMatcher(pattern, () => goRegexpModule().compileProg(tree)) };
}

/**
 * A valid pattern whose matcher (and, outside the simple subset, program) is made on first use:
 * compiling a pattern just to validate it (CEL's regex literal check, a CRD's `pattern`) stops at the
 * parse (the simple subset's program, which decides whether the pattern is in that subset).
 */
function lazyMatcher(pattern: string, prog: () => Prog): GoRegexp {
  let m: ProgMatcher | undefined;
  const matcher = (): ProgMatcher => {
    m ??= compileMatcher(prog());
    return m;
  };
  return { source: pattern, test: memoizedTest({ test: (s) => matcher().test(s) }), find: (s, from) => matcher().find(s, from) };
}

/** Compiles a pattern that is known to be valid (internal format patterns). */
export function mustCompileGoRegexp(pattern: string): GoRegexp {
  const r = compileGoRegexp(pattern);
  if (!r.regexp) throw new Error(`invalid built-in pattern ${pattern}: ${r.error}`);
  return r.regexp;
}
