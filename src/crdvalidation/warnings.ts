/**
 * CRD create/update warnings (`pkg/registry/customresourcedefinition/strategy.go`): `unrecognized format
 * "<f>"` for every format the value validator would drop, and the set-list warning for object/array items.
 * On update only newly introduced formats / set warnings are reported. Duplicate texts are removed (the
 * API server's warning recorder de-duplicates).
 */
import type { InternalSpec } from "../crd/internal.js";
import { getUnrecognizedFormats } from "../validation/formats.js";
import { forEachSchema } from "./schema-walk.js";
import { specSchemas } from "./spec.js";

/** Verdicts of `getUnrecognizedFormats` by type and format (a CRD repeats a few pairs on many nodes). */
const verdicts = new Map<string, boolean>();

function unrecognized(type: string, format: string): boolean {
  const key = `${type}\n${format}`;
  let r = verdicts.get(key);
  if (r === undefined) {
    r = getUnrecognizedFormats({ type, format }).length > 0;
    if (verdicts.size < 4096) verdicts.set(key, r);
  }
  return r;
}

/** The unrecognized formats (in visiting order) and the sorted set-list warnings of a spec, in one walk. */
function schemaWarnings(spec: InternalSpec): { formats: string[]; sets: string[] } {
  const formats: string[] = [];
  const sets = new Set<string>();
  for (const s of specSchemas(spec)) {
    forEachSchema(s, (n) => {
      if (n.format && unrecognized(n.type ?? "", n.format)) formats.push(n.format);
      const items = n.items;
      if (n["x-kubernetes-list-type"] === "set" && items !== undefined && !Array.isArray(items) && (items.type === "object" || items.type === "array")) {
        sets.add(`x-kubernetes-list-type: set for items of type "${items.type}" is not supported by server-side apply or CEL validation rules`);
      }
    });
  }
  return { formats, sets: [...sets].sort() };
}

function dedupe(ws: string[]): string[] {
  return [...new Set(ws)];
}

/** `WarningsOnCreate`. */
export function warningsOnCreate(spec: InternalSpec): string[] {
  const w = schemaWarnings(spec);
  return dedupe([...w.formats.map((f) => `unrecognized format ${JSON.stringify(f)}`), ...w.sets]);
}

/** `WarningsOnUpdate`: only new unrecognized formats and new set-list warnings. */
export function warningsOnUpdate(spec: InternalSpec, oldSpec: InternalSpec): string[] {
  const old = schemaWarnings(oldSpec);
  const oldFormats = new Set(old.formats);
  const oldSets = new Set(old.sets);
  const w = schemaWarnings(spec);
  return dedupe([
    ...w.formats.filter((f) => !oldFormats.has(f)).map((f) => `unrecognized format ${JSON.stringify(f)}`),
    ...w.sets.filter((x) => !oldSets.has(x)),
  ]);
}
