/**
 * Go `regexp` (RE2 syntax) on top of `re2js`: compile once, match unanchored like Go's `MatchString`,
 * and report compile failures with Go's exact `regexp/syntax` error text.
 */
import { RE2JS, RE2JSSyntaxException } from "re2js";

/** A compiled Go regular expression. */
export interface GoRegexp {
  /** The source pattern. */
  readonly source: string;
  /** Go `(*Regexp).MatchString`: true when the pattern matches anywhere in `s`. */
  test(s: string): boolean;
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

function compileUncached(pattern: string): GoRegexpResult {
  try {
    const re = RE2JS.compile(pattern);
    return { regexp: { source: pattern, test: (s: string) => re.test(s) } };
  } catch (e) {
    if (e instanceof RangeError) return { error: `error parsing regexp: expression nests too deeply: \`${pattern}\`` };
    return { error: goRegexpErrorText(e) };
  }
}

/** Maps an re2js exception to Go's `(*syntax.Error).Error()` text. */
function goRegexpErrorText(e: unknown): string {
  if (e instanceof RE2JSSyntaxException) {
    // Go always prints `: <expr>` in backquotes, even when the expression is empty
    // (trailing backslash); re2js omits it when there is no input.
    const code = e.error;
    const expr = e.input ?? "";
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
