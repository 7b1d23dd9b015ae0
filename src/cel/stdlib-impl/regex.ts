/**
 * RE2 regular expressions for CEL (`matches`, and the Kubernetes regex library): Go `regexp` semantics
 * and error texts from src/go/regexp.ts (compiled once per pattern, cached there).
 *
 * @module
 */

import { compileGoRegexp, type GoRegexp } from "../../go/regexp.js";
import type { CelValue } from "../values/values.js";
import { CelError } from "../values/values.js";

/** Compiles `pattern`; an invalid pattern yields Go's `regexp.Compile` error, as cel-go returns it. */
export function compileRegex(pattern: string): GoRegexp | CelError {
  const r = compileGoRegexp(pattern);
  return r.regexp ? r.regexp : new CelError(r.error);
}

/** `s.matches(re)`: true when `re` matches anywhere in `s` (RE2 `MatchString`). */
export function matches(s: string, pattern: string): CelValue {
  const r = compileRegex(pattern);
  if (r instanceof CelError) return r;
  // Go `MatchString` (remembered per subject)
  return r.test(s);
}
