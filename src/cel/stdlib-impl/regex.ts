/**
 * RE2 regular expressions (via `re2js`, Go `regexp` semantics) with a bounded
 * compile cache so planned programs do not recompile per evaluation.
 *
 * @module
 */

import { RE2JS } from "re2js";
import type { CelValue } from "../values/values.js";
import { CelError } from "../values/values.js";

const cache = new Map<string, RE2JS | CelError>();
const MAX_CACHE = 500;

/** Compiles `pattern` (cached); an invalid pattern yields cel-go's error text. */
export function compileRegex(pattern: string): RE2JS | CelError {
  let r = cache.get(pattern);
  if (r !== undefined) return r;
  try {
    r = RE2JS.compile(pattern);
  } catch (e) {
    r = new CelError(e instanceof Error ? e.message : String(e));
  }
  if (cache.size >= MAX_CACHE) cache.clear();
  cache.set(pattern, r);
  return r;
}

/** `s.matches(re)`: true when `re` matches anywhere in `s` (RE2 `MatchString`). */
export function matches(s: string, pattern: string): CelValue {
  const r = compileRegex(pattern);
  if (r instanceof CelError) return r;
  return r.matcher(s).find();
}
