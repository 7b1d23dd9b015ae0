/**
 * Large hostile subjects for patterns whose programs are large (`(a+a?){1000}b`): re2js' own `test` (used
 * before crdkit had a compiler of its own) needed ~0.2 ms a rune on the first ones once its DFA gives up (about a minute for each of these subjects),
 * src/go/regexp-matcher.ts a few µs at most.
 * Go's answers are recorded in hostile-answers.json by `npm run golden:regexp -- --hostile`.
 */

/** A subject built as `unit` repeated `times`, then `suffix` (kept small in the fixture). */
export interface HostileSubject {
  readonly unit: string;
  readonly times: number;
  readonly suffix: string;
}

export interface HostileCase {
  readonly pattern: string;
  readonly subject: HostileSubject;
}

export const HOSTILE_CASES: readonly HostileCase[] = [
  { pattern: "(a+a?){1000}b", subject: { unit: "a", times: 300_000, suffix: "b" } },
  { pattern: "(a+a?){1000}b", subject: { unit: "a", times: 300_000, suffix: "cb" } },
  { pattern: "(\\pL\\pL?){1000}!", subject: { unit: "é", times: 300_000, suffix: "!" } },
  { pattern: "(\\pL\\pL?){1000}!", subject: { unit: "é", times: 300_000, suffix: "?!" } },
  { pattern: "(a+){1000}b", subject: { unit: "a", times: 300_000, suffix: "cb" } },
  { pattern: "([a-z]+-?){400}!", subject: { unit: "ab-", times: 100_000, suffix: "!" } },
  { pattern: "(?i)(k+){1000}\\b", subject: { unit: "k", times: 20_000, suffix: "!" } },
  { pattern: "(?i)(k+){1000}\\b", subject: { unit: "\u212a", times: 20_000, suffix: "!" } },
  { pattern: "(?m)^(a+){1000}$", subject: { unit: "a", times: 20_000, suffix: "b\n" } },
  { pattern: "(?m)^(a+){1000}$", subject: { unit: "a", times: 20_000, suffix: "\nb" } },
  // past 20,000 instructions: no DFA, the simulation alone
  { pattern: `(?:${"[a-z]{1000}".repeat(21)}|!x)`, subject: { unit: "ab", times: 2_000, suffix: "!x" } },
  { pattern: `(?:${"[a-z]{1000}".repeat(21)}|!x)`, subject: { unit: "ab", times: 2_000, suffix: "!y" } },
];

export function hostileSubject(h: HostileSubject): string {
  return h.unit.repeat(h.times) + h.suffix;
}
