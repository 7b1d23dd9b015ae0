/**
 * A fast path for the common JSON request body: `JSON.parse` gives exactly what the API server's decoder
 * (`io/json-decode.ts`) gives when the text has no escapes, no floats, no integer longer than 15 digits, no
 * `-0` and no duplicate key. Those are checked on the text with its strings emptied (without backslashes a
 * string is `"…"` with no `"` inside); anything else — and any text `JSON.parse` refuses — is left to the
 * full decoder (undefined), which also words the errors. Duplicates: every key token becomes one own
 * property unless a key repeats, so the counts agree exactly when none does.
 */
import type { JsonValue } from "../../value/json-value.js";

/** A key token in the emptied text. */
const KEY = /""\s*:/g;

/** The body's value when the fast path applies, else undefined. */
export function parseSimpleJsonBody(text: string): JsonValue | undefined {
  if (text.includes("\\")) return undefined;
  const skeleton = text.replace(/"[^"]*"/g, '""');
  // A float has a digit before its `.`/`e` (outside strings only numbers have digits); 16 digits may not fit
  // a double exactly; `-0` is int64 0 for Go.
  if (/\d[.eE]|\d{16}|-0/.test(skeleton)) return undefined;
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
  const keys = skeleton.match(KEY)?.length ?? 0;
  return countKeys(value) === keys ? value : undefined;
}

/** Own keys of every object in `v`. */
function countKeys(v: JsonValue): number {
  let n = 0;
  const todo: JsonValue[] = [v];
  while (todo.length > 0) {
    const x = todo.pop()!;
    if (x === null || typeof x !== "object") continue;
    if (Array.isArray(x)) {
      for (const e of x) if (e !== null && typeof e === "object") todo.push(e);
      continue;
    }
    for (const k in x) {
      n++;
      const e = (x as Record<string, JsonValue>)[k]!;
      if (e !== null && typeof e === "object") todo.push(e);
    }
  }
  return n;
}
