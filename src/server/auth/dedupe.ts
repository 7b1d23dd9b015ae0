/** The distinct strings of a list, first occurrence first. */
export function dedupe(list: readonly string[]): string[] {
  return [...new Set(list)];
}
