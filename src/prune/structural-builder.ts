/**
 * A compact way to build {@link Structural} values by hand (tests, and callers that synthesise schemas).
 * Mirrors the Go literals of the upstream tests: `st({ type: "object", properties: { a: st() } })`.
 */
import type { Structural } from "../structural/structural.js";
import type { JsonValue } from "../value/json-value.js";

/** The fields of a hand-written structural node. */
export interface StructuralSpec {
  type?: string;
  properties?: Record<string, Structural>;
  items?: Structural;
  /** A schema, or `true`/`false` for `additionalProperties: <bool>` without schema. */
  additionalProperties?: Structural | boolean;
  nullable?: boolean;
  /** The default; `undefined` and `null` both mean "no default" (as Go's nil `Default.Object`). */
  default?: JsonValue;
  preserveUnknownFields?: boolean;
  embeddedResource?: boolean;
  intOrString?: boolean;
  listType?: string;
  listMapKeys?: string[];
  mapType?: string;
}

/** Builds a structural node from a {@link StructuralSpec}. */
export function st(spec: StructuralSpec = {}): Structural {
  const s: Structural = {
    type: spec.type ?? "",
    hasDefault: spec.default !== undefined && spec.default !== null,
    nullable: spec.nullable ?? false,
    xPreserveUnknownFields: spec.preserveUnknownFields ?? false,
    xEmbeddedResource: spec.embeddedResource ?? false,
    xIntOrString: spec.intOrString ?? false,
    raw: {},
  };
  if (s.hasDefault) s.default = spec.default;
  if (spec.properties) s.properties = new Map(Object.entries(spec.properties));
  if (spec.items) s.items = spec.items;
  if (spec.additionalProperties !== undefined) {
    const ap = spec.additionalProperties;
    s.additionalProperties = typeof ap === "boolean" ? { allows: ap } : { schema: ap, allows: true };
  }
  if (spec.listType !== undefined) s.xListType = spec.listType;
  if (spec.listMapKeys !== undefined) s.xListMapKeys = spec.listMapKeys;
  if (spec.mapType !== undefined) s.xMapType = spec.mapType;
  return s;
}
