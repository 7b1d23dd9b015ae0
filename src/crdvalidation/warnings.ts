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

function unrecognizedFormats(spec: InternalSpec): string[] {
  const out: string[] = [];
  for (const s of specSchemas(spec)) {
    forEachSchema(s, (n) => {
      if (n.format) out.push(...getUnrecognizedFormats({ type: n.type ?? "", format: n.format }));
    });
  }
  return out;
}

function setListWarnings(spec: InternalSpec): string[] {
  const seen = new Set<string>();
  for (const s of specSchemas(spec)) {
    forEachSchema(s, (n) => {
      const items = n.items;
      if (n["x-kubernetes-list-type"] === "set" && items !== undefined && !Array.isArray(items) && (items.type === "object" || items.type === "array")) {
        seen.add(`x-kubernetes-list-type: set for items of type "${items.type}" is not supported by server-side apply or CEL validation rules`);
      }
    });
  }
  return [...seen].sort();
}

function dedupe(ws: string[]): string[] {
  return [...new Set(ws)];
}

/** `WarningsOnCreate`. */
export function warningsOnCreate(spec: InternalSpec): string[] {
  return dedupe([...unrecognizedFormats(spec).map((f) => `unrecognized format ${JSON.stringify(f)}`), ...setListWarnings(spec)]);
}

/** `WarningsOnUpdate`: only new unrecognized formats and new set-list warnings. */
export function warningsOnUpdate(spec: InternalSpec, oldSpec: InternalSpec): string[] {
  const oldFormats = new Set(unrecognizedFormats(oldSpec));
  const oldSets = new Set(setListWarnings(oldSpec));
  return dedupe([
    ...unrecognizedFormats(spec).filter((f) => !oldFormats.has(f)).map((f) => `unrecognized format ${JSON.stringify(f)}`),
    ...setListWarnings(spec).filter((w) => !oldSets.has(w)),
  ]);
}
