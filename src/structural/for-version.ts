/**
 * The schema of one served version, as the pipeline needs it: the raw `openAPIV3Schema` (per-version or
 * hoisted top-level) and its structural form. Defaults are NOT pruned here: `defaulting.PruneDefaults` is
 * src/defaulting's `pruneDefaults` (apply it to a copy for served schemas unless preserveUnknownFields).
 */
import { type InternalCrd, schemaForVersion } from "../crd/internal.js";
import type { JSONSchemaProps } from "../crd/types.js";
import { newStructural, StructuralError } from "./new-structural.js";
import type { Structural } from "./structural.js";

export interface VersionSchema {
  /** The raw schema, undefined when the version has none. */
  schema?: JSONSchemaProps;
  /** The structural schema (undefined without schema or when NewStructural failed). */
  structural?: Structural;
  /** NewStructural's error text. */
  error?: string;
}

/** `GetSchemaForVersion` + `NewStructural`. */
export function structuralForVersion(crd: InternalCrd, version: string): VersionSchema {
  const schema = schemaForVersion(crd, version)?.openAPIV3Schema;
  if (!schema) return {};
  const s = newStructural(schema);
  if (s instanceof StructuralError) return { schema, error: s.message };
  return { schema, structural: s };
}
