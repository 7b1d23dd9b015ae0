/**
 * A quick rejection for src/go/regexp-matcher.ts's `test`: the literal strings every match of a parse
 * tree contains (case-sensitive literals of concatenations, captures and repeats of at least one copy).
 * A subject missing one of them cannot match, whatever the rest of the pattern; Go scans such a subject to
 * its end (same answer, more time).
 *
 * @module
 */
import { FOLD_CASE, OP_CAPTURE, OP_CONCAT, OP_LITERAL, OP_PLUS, OP_REPEAT, type Regexp } from "./regexp-syntax.js";

/** At most this many strings are checked (the longest ones). */
const MAX_STRINGS = 4;

function required(re: Regexp, out: Set<string>): void {
  switch (re.op) {
    case OP_LITERAL:
      if ((re.flags & FOLD_CASE) === 0 && re.rune.length > 0) out.add(String.fromCodePoint(...re.rune.slice(0, 64)));
      return;
    case OP_CONCAT:
      for (const sub of re.sub) required(sub, out);
      return;
    case OP_CAPTURE:
    case OP_PLUS:
      required(re.sub[0] as Regexp, out);
      return;
    case OP_REPEAT:
      if (re.min >= 1) required(re.sub[0] as Regexp, out);
      return;
  }
}

/** False when `s` cannot contain a match of `re`; undefined when nothing is required. */
export function prefilterOf(re: Regexp): ((s: string) => boolean) | undefined {
  const set = new Set<string>();
  required(re, set);
  if (set.size === 0) return undefined;
  const strings = [...set].sort((a, b) => b.length - a.length).slice(0, MAX_STRINGS);
  return (s) => {
    for (const x of strings) if (!s.includes(x)) return false;
    return true;
  };
}
