/**
 * Go's `(*Regexp).FindAllStringIndex(s, n)` loop (`allMatches`) over {@link GoRegexp.find}: matches in
 * order, none overlapping; an empty match right after the previous match is skipped, and after an
 * empty match the search resumes one rune (a code point: two UTF-16 units for a surrogate pair) later.
 *
 * @module
 */
import type { GoRegexp } from "./regexp.js";

/**
 * At most `n` matches (all when `n` < 0; none when 0) as `[start, end]` UTF-16 offsets into `s`.
 * `FindAllString(s, n)` is their substrings; `FindString(s)` the first one's, or "" when there is none.
 */
export function findAllIndex(re: Pick<GoRegexp, "find">, s: string, n: number): [number, number][] {
  const out: [number, number][] = [];
  const end = s.length;
  let prevMatchEnd = -1;
  let pos = 0;
  while ((n < 0 || out.length < n) && pos <= end) {
    const m = re.find(s, pos);
    if (m === undefined) break;
    let accept = true;
    if (m[1] === pos) {
      // an empty match (at pos): not right after the previous match; go on one rune later
      if (m[0] === prevMatchEnd) accept = false;
      if (pos < end) {
        const c = s.charCodeAt(pos);
        const d = s.charCodeAt(pos + 1);
        pos += c >= 0xd800 && c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff ? 2 : 1;
      } else pos = end + 1;
    } else pos = m[1];
    prevMatchEnd = m[1];
    if (accept) out.push(m);
  }
  return out;
}
