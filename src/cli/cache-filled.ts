/**
 * Whether this process added to the compiled-CRD cache (./schema-cache.ts): a verdict, index, decoded CRD,
 * rule programs or built-in kind it had to compute (file-stat memos do not count). Such a run took the
 * first-time path — CRD checks, CEL compilation — that repeat runs of the same command skip. bin/load-cli.js
 * reads it at exit (through the bundle's exports) to keep its V8 code-cache entry to what repeat runs use.
 */
let filled = false;

/** Records that the compiled-CRD cache was written to. */
export function noteCacheFilled(): void {
  filled = true;
}

/** True when this process wrote a compiled-CRD cache entry other than a file-stat memo. */
export function cacheFilled(): boolean {
  return filled;
}
