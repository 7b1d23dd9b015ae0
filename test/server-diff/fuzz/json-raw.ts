/**
 * JSON text for fuzzed bodies that JSON.stringify cannot write: numbers beyond float64/int64 precision written
 * as they are, and objects with a key twice.
 */

/** A number (or any text) written as it is. */
export class RawJson {
  constructor(readonly text: string) {}
}

/** An object written with these entries in this order, keys possibly repeated. */
export class Entries {
  constructor(readonly entries: [string, unknown][]) {}
}

/** Whether `v` holds a RawJson or Entries (then its text needs `jsonRawText`). */
export function needsRaw(v: unknown): boolean {
  if (v instanceof RawJson || v instanceof Entries) return true;
  if (Array.isArray(v)) return v.some(needsRaw);
  if (v !== null && typeof v === "object") return Object.values(v).some(needsRaw);
  return false;
}

export function jsonRawText(v: unknown): string {
  if (v instanceof RawJson) return v.text;
  if (v instanceof Entries) return `{${v.entries.map(([k, x]) => `${JSON.stringify(k)}:${jsonRawText(x)}`).join(",")}}`;
  if (Array.isArray(v)) return `[${v.map(jsonRawText).join(",")}]`;
  if (v !== null && typeof v === "object") return `{${Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => `${JSON.stringify(k)}:${jsonRawText(x)}`).join(",")}}`;
  return JSON.stringify(v);
}
