/**
 * The `omitempty` lists and maps of a v1 CustomResourceDefinition's spec as Go's `json.Marshal` drops them when the
 * API server encodes the typed object (to store it and to answer): an empty `enum`, `required`, `allOf`/`anyOf`/
 * `oneOf`, `properties`, `patternProperties`, `dependencies`, `definitions`, `x-kubernetes-list-map-keys` or
 * `x-kubernetes-validations` of a schema, empty `shortNames`/`categories` of the names, empty
 * `additionalPrinterColumns`/`selectableFields` of a version, and a false `preserveUnknownFields`. The decoded spec keeps them (an empty list that was
 * sent is not a missing one for validation); the stored object does not.
 */
import { isObject, type JsonObject, type JsonValue } from "../../value/json-value.js";

const SCHEMA_OMITEMPTY = [
  "enum", "required", "allOf", "oneOf", "anyOf", "properties", "patternProperties", "dependencies", "definitions",
  "x-kubernetes-list-map-keys", "x-kubernetes-validations",
];
const SCHEMA_LISTS = ["allOf", "oneOf", "anyOf"];
const SCHEMA_MAPS = ["properties", "patternProperties", "definitions", "dependencies"];
const SCHEMA_ONE = ["not", "additionalProperties", "additionalItems"];

function empty(v: JsonValue | undefined): boolean {
  return (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0);
}

function dropEmpty(o: JsonObject, fields: readonly string[]): void {
  for (const k of fields) if (Object.hasOwn(o, k) && empty(o[k])) delete o[k];
}

/** Drops a schema's empty omitempty members, in it and in every schema below it (in place). */
function omitEmptySchema(s: JsonValue | undefined): void {
  if (!isObject(s)) return;
  dropEmpty(s, SCHEMA_OMITEMPTY);
  const items = s["items"];
  if (Array.isArray(items)) items.forEach(omitEmptySchema);
  else omitEmptySchema(items);
  for (const k of SCHEMA_LISTS) {
    const l = s[k];
    if (Array.isArray(l)) l.forEach(omitEmptySchema);
  }
  for (const k of SCHEMA_MAPS) {
    const m = s[k];
    // (a dependency that lists property names is no schema)
    if (isObject(m)) for (const v of Object.values(m)) omitEmptySchema(v);
  }
  for (const k of SCHEMA_ONE) omitEmptySchema(s[k]);
}

/** Drops the empty omitempty lists and maps of a CRD `spec`, and a false `preserveUnknownFields` (in place). */
export function omitEmptyCrdSpec(spec: JsonObject): void {
  // `PreserveUnknownFields bool \`json:"preserveUnknownFields,omitempty"\``: false is not written (nor, since the field
  // manager sees the typed object through the same tags, managed).
  if (spec["preserveUnknownFields"] === false) delete spec["preserveUnknownFields"];
  if (isObject(spec["names"])) dropEmpty(spec["names"], ["shortNames", "categories"]);
  const versions = spec["versions"];
  if (!Array.isArray(versions)) return;
  for (const v of versions) {
    if (!isObject(v)) continue;
    dropEmpty(v, ["additionalPrinterColumns", "selectableFields"]);
    if (isObject(v["schema"])) omitEmptySchema(v["schema"]["openAPIV3Schema"]);
  }
}
