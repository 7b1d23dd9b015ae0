/**
 * Go `regexp` (RE2 syntax) on top of `re2js`: compile once, match unanchored like Go's `MatchString`,
 * and report compile failures with Go's exact `regexp/syntax` error text.
 */
import type { RE2JS } from "re2js";
import { re2jsModule } from "./re2js-module.js";
import { compileMatcher, type ProgMatcher } from "./regexp-matcher.js";
import { programSize, progOfRe2js } from "./regexp-re2js-prog.js";
import { compileSimpleRegexp, isSimpleSyntax } from "./regexp-simple.js";
import { restoreErrorText, rewriteUnicodeClassNames } from "./regexp-unicode-class.js";

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
  /** The compiled re2js program (compiled on first use). */
  readonly re: RE2JS;
}

/** Result of {@link compileGoRegexp}: the regexp, or Go's error text. */
export type GoRegexpResult = { regexp: GoRegexp; error?: undefined } | { regexp?: undefined; error: string };

const cache = new Map<string, GoRegexpResult>();
/**
 * From this many instructions on, `test` runs src/go/regexp-matcher.ts over re2js' program instead of
 * re2js' own DFA, whose cost per new state grows with the program (`(a+a?){1000}b` over 300,000 `a`s:
 * 27-33 s CPU, the program matcher ~0.1 s). Below it re2js is as fast or faster (one run, 3,001 runes:
 * `(a+){25}b`, 103 instructions, 5 ms re2js vs 10 ms; `(a+){50}b`, 203 instructions, 24 ms vs 6 ms).
 * No pattern of the corpus reaches it.
 */
const PROG_MATCHER_MIN_INSTRUCTIONS = 200;
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
  // Unicode class names as Go 1.25+ reads them (`\p{Letter}`, `\pz`): spelt the one way re2js knows
  const rewritten = rewriteUnicodeClassNames(pattern);
  if (rewritten === undefined) return compileAsWritten(pattern);
  const r = compileAsWritten(rewritten.pattern);
  const inner = r.regexp;
  if (inner) {
    return {
      regexp: {
        source: pattern,
        test: inner.test,
        find: inner.find,
        get re() {
          return inner.re;
        },
      },
    };
  }
  return { error: restoreErrorText(r.error, pattern, rewritten) };
}

function compileAsWritten(pattern: string): GoRegexpResult {
  // the simple subset is matched without re2js (same answers: see regexp-simple.ts); a pattern in it
  // is valid RE2, and re2js compiles it only when positions are asked for
  const simple = compileSimpleRegexp(pattern);
  if (simple !== undefined) return { regexp: lazyRegexp(pattern, simple) };
  if (isSimpleSyntax(pattern)) return { regexp: lazyRegexp(pattern) };
  try {
    const re = re2jsModule().RE2JS.compile(pattern);
    return { regexp: re2jsRegexp(pattern, re) };
  } catch (e) {
    if (e instanceof RangeError) return { error: `error parsing regexp: expression nests too deeply: \`${pattern}\`` };
    // Go accepts duplicate capture-group names (RE2/J does not): retry with every group given a fresh unique name.
    if (e instanceof re2jsModule().RE2JSSyntaxException && /duplicate capture group name/.test(e.message)) {
      const renamed = renameGroups(pattern);
      if (renamed !== pattern) {
        const r = compileAsWritten(renamed);
        if (r.regexp) return { regexp: { source: pattern, test: r.regexp.test, find: r.regexp.find, re: r.regexp.re } };
        // Errors naming the whole expression must name the original one (a function: no `$` expansion).
        return { error: r.error.replace(`\`${renamed}\``, () => `\`${pattern}\``) };
      }
    }
    return { error: goRegexpErrorText(e, pattern) };
  }
}

/**
 * The matcher of re2js' program for `re` (undefined when re2js' internals are not the ones expected),
 * made on first use.
 */
function progMatcherOf(re: RE2JS): () => ProgMatcher | undefined {
  let made = false;
  let m: ProgMatcher | undefined;
  return () => {
    if (!made) {
      const prog = progOfRe2js(re);
      m = prog && compileMatcher(prog);
      made = true;
    }
    return m;
  };
}

/** re2js' own answer to `find` (only when its program cannot be read). */
function re2jsFind(re: RE2JS, s: string, from: number): [number, number] | undefined {
  const m = re.matcher(s);
  return m.find(from) ? [m.start(), m.end()] : undefined;
}

/** A pattern compiled by re2js: `test` by re2js or, on large programs, by the program matcher; `find` by the program matcher. */
function re2jsRegexp(pattern: string, re: RE2JS): GoRegexp {
  const matcher = progMatcherOf(re);
  const large = programSize(re) >= PROG_MATCHER_MIN_INSTRUCTIONS ? matcher() : undefined;
  return {
    source: pattern,
    test: memoizedTest(large ?? re),
    find: (s, from) => {
      const m = matcher();
      return m ? m.find(s, from) : re2jsFind(re, s, from);
    },
    re,
  };
}

/**
 * A pattern known to be valid (see `isSimpleSyntax`), compiled by re2js only when first needed: for
 * matching and positions unless `matcher` (the simple subset's program) is given, and for `re`.
 * Compiling a pattern just to validate it (CEL's regex literal check) starts no re2js.
 */
function lazyRegexp(pattern: string, matcher?: ProgMatcher): GoRegexp {
  let re: RE2JS | undefined;
  let viaRe2js: GoRegexp | undefined;
  const compiled = (): RE2JS => {
    re ??= re2jsModule().RE2JS.compile(pattern);
    return re;
  };
  const backed = (): GoRegexp => {
    viaRe2js ??= re2jsRegexp(pattern, compiled());
    return viaRe2js;
  };
  return {
    source: pattern,
    test: matcher ? memoizedTest(matcher) : (s) => backed().test(s),
    find: matcher ? (s, from) => matcher.find(s, from) : (s, from) => backed().find(s, from),
    get re() {
      return compiled();
    },
  };
}

/**
 * Gives every valid named group `(?P<name>` / `(?<name>` a fresh unique name (`(?P<g0>`, `(?P<g1>`, ...),
 * skipping escapes, `\Q…\E` quotes and character classes. Matching is unchanged (names do not affect it),
 * and what follows a group's opening still reads as Go reads it (stripping the name to `(` made
 * `(?<n>?b)` the flag group `(?b`).
 */
function renameGroups(p: string): string {
  let out = "";
  let named = 0;
  let i = 0;
  let inClass = false;
  while (i < p.length) {
    const c = p[i]!;
    if (c === "\\") {
      if (p[i + 1] === "Q") {
        const end = p.indexOf("\\E", i + 2);
        const stop = end < 0 ? p.length : end + 2;
        out += p.slice(i, stop);
        i = stop;
        continue;
      }
      out += p.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
      out += c;
      i++;
      continue;
    }
    if (c === "[") {
      inClass = true;
      out += c;
      i++;
      if (p[i] === "^") out += p[i++];
      if (p[i] === "]") out += p[i++];
      continue;
    }
    if (c === "(" && p[i + 1] === "?") {
      const m = /^\(\?P?<([A-Za-z0-9_]+)>/.exec(p.slice(i));
      if (m) {
        out += `(?P<g${named++}>`;
        i += m[0].length;
        continue;
      }
    }
    out += c;
    i++;
  }
  return out;
}

/** Maps an re2js exception to Go's `(*syntax.Error).Error()` text. */
function goRegexpErrorText(e: unknown, pattern: string): string {
  if (e instanceof re2jsModule().RE2JSSyntaxException) {
    // Go always prints `: <expr>` in backquotes, even when the expression is empty
    // (trailing backslash); re2js omits it when there is no input. Size/nesting errors carry the
    // whole expression in Go.
    const code = e.error;
    const whole = code === "expression nests too deeply" || code === "expression too large";
    const expr = whole ? pattern : (e.input ?? "");
    if (typeof code === "string" && code.length > 0) return `error parsing regexp: ${code}: \`${expr}\``;
    return e.message;
  }
  if (e instanceof Error) {
    if (/too large|program too/i.test(e.message)) return "error parsing regexp: expression too large";
    return `error parsing regexp: ${e.message}`;
  }
  return `error parsing regexp: ${String(e)}`;
}

/** Compiles a pattern that is known to be valid (internal format patterns). */
export function mustCompileGoRegexp(pattern: string): GoRegexp {
  const r = compileGoRegexp(pattern);
  if (!r.regexp) throw new Error(`invalid built-in pattern ${pattern}: ${r.error}`);
  return r.regexp;
}
