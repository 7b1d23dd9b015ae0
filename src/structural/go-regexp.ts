/**
 * Go `regexp.Compile` check (RE2 syntax, Perl flags) for schema `pattern`s, via re2js (a port of RE2/J
 * whose syntax errors use Go's texts: ``error parsing regexp: missing closing ): `(a` ``).
 */
import { RE2JS } from "re2js";

const cache = new Map<string, string | undefined>();

/** The Go compile error text for `pattern`, or undefined when it compiles. */
export function goRegexpError(pattern: string): string | undefined {
  if (cache.has(pattern)) return cache.get(pattern);
  let err: string | undefined;
  try {
    RE2JS.compile(pattern);
  } catch (e) {
    err = e instanceof Error ? e.message : String(e);
  }
  if (cache.size > 10000) cache.clear();
  cache.set(pattern, err);
  return err;
}
