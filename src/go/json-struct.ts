/**
 * Go `encoding/json` of typed values (Go structs): a struct's fields come in declaration order, a Go map's keys
 * sorted, everything without a type (`interface{}`, raw JSON) as {@link goJsonMarshal} writes it. A value is
 * described by a {@link GoShape}; members that are absent are not written. A struct's fields may be marked
 * `omitempty` for their slices and maps: {@link goOmitEmptyCollections} drops those that are empty, as the API
 * server's encoding of a typed object does (the marshaller itself writes what it is given).
 */
import { isObject, type JsonObject, type JsonValue } from "../value/json-value.js";
import { compareGoStrings } from "./fmt.js";
import { goJsonFloat, goJsonMarshal, goJsonString, goKeyText, goSortedKeys } from "./json.js";

/**
 * How a value is encoded: a struct (fields in order), a Go map of a shape, `any` (an untyped value: sorted
 * keys), or `pick` (a shape chosen by the value, such as a RawExtension holding some object). A struct or map
 * shape applies to each element of an array (a slice of that type).
 */
export type GoShape = GoStruct | GoMap | GoPick | "any";

export interface GoStruct {
  readonly fields: readonly (readonly [string, GoShape])[];
  /** `"name":` of each field, as encoding/json writes it. */
  readonly keys: readonly string[];
  /** Each field's position. */
  readonly index: ReadonlyMap<string, number>;
  /** The fields tagged `omitempty` whose empty slice or map is dropped ({@link goOmitEmptyCollections}). */
  readonly omitEmpty: ReadonlySet<string>;
  /** The fields tagged `nullable`: JSON null sets them to nil (other fields keep their value). */
  readonly nullable: ReadonlySet<string>;
  /** The fields tagged `replaces`: a second value replaces the first whole (other structs are decoded into). */
  readonly replaces: ReadonlySet<string>;
}

/**
 * What a field's Go type means for decoding and encoding: `omitempty` (a slice or map dropped when empty),
 * `nullable` (a pointer, slice or map, or a type that resets on JSON null: null sets it to nil; null leaves a
 * string, number, bool or struct value as it was), `replaces` (a type with its own `UnmarshalJSON` that builds a
 * new value: a second occurrence of the field is not decoded into the first).
 */
export type GoFieldTag = "omitempty" | "nullable" | "replaces";

/** A field: its JSON name (an untyped value that null leaves as it was), or its name, shape and tags. */
export type GoField = string | readonly [string, GoShape, ...GoFieldTag[]];

export interface GoMap {
  readonly map: GoShape;
}

export interface GoPick {
  readonly pick: (v: JsonObject) => GoShape;
}

/** A struct shape from its JSON field names in declaration order (a field without a shape is `any`). */
export function goStruct(fields: readonly GoField[]): GoStruct {
  return goStructAppend({ fields: [], keys: [], index: new Map(), omitEmpty: new Set(), nullable: new Set(), replaces: new Set() }, fields);
}

/** Adds fields to `s` (for a struct that refers to itself: made empty, then given its fields). */
export function goStructAppend(s: GoStruct, fields: readonly GoField[]): GoStruct {
  const fs = s.fields as (readonly [string, GoShape])[];
  for (const f of fields) {
    const field: readonly [string, GoShape] = typeof f === "string" ? [f, "any"] : [f[0], f[1]];
    (s.index as Map<string, number>).set(field[0], fs.length);
    fs.push(field);
    (s.keys as string[]).push(`${goJsonString(field[0])}:`);
    if (typeof f === "string") continue;
    for (let i = 2; i < f.length; i++) {
      const tag = f[i] as GoFieldTag;
      (tag === "omitempty" ? (s.omitEmpty as Set<string>) : tag === "nullable" ? (s.nullable as Set<string>) : (s.replaces as Set<string>)).add(field[0]);
    }
  }
  return s;
}

function emptyCollection(v: JsonValue | undefined): boolean {
  return Array.isArray(v) ? v.length === 0 : isObject(v) && Object.keys(v).length === 0;
}

/**
 * Drops, in place, every member of `v` (and of the typed values below it) whose struct field is tagged
 * `omitempty` and holds an empty slice or map: what `json.Marshal` leaves out of the typed object. Untyped values
 * (`any`: raw JSON such as a schema's `default`) are not entered.
 */
export function goOmitEmptyCollections(v: JsonValue | undefined, shape: GoShape): void {
  if (shape === "any" || v === null || typeof v !== "object") return;
  if (Array.isArray(v)) {
    for (const x of v) goOmitEmptyCollections(x, shape);
    return;
  }
  if (!isObject(v)) return;
  if ("pick" in shape) {
    goOmitEmptyCollections(v, shape.pick(v));
    return;
  }
  if ("map" in shape) {
    for (const k of Object.keys(v)) goOmitEmptyCollections(v[k], shape.map);
    return;
  }
  for (const k of Object.keys(v)) {
    const p = shape.index.get(k);
    if (p === undefined) continue;
    if (shape.omitEmpty.has(k) && emptyCollection(v[k])) delete v[k];
    else goOmitEmptyCollections(v[k], shape.fields[p]![1]);
  }
}

/** Values nested deeper are written as untyped values (sorted keys): far beyond any object the server keeps. */
const MAX_STRUCT_DEPTH = 2000;

function marshal(v: JsonValue | undefined, shape: GoShape, depth: number): string {
  // Most members are strings, numbers and booleans: written here, without the untyped encoder's call.
  switch (typeof v) {
    case "string":
      return goJsonString(v);
    case "number":
      return Number.isInteger(v) ? String(v) : goJsonFloat(v);
    case "boolean":
      return v ? "true" : "false";
  }
  if (shape === "any" || v === null || typeof v !== "object" || depth > MAX_STRUCT_DEPTH) return goJsonMarshal(v);
  if (Array.isArray(v)) {
    let out = "[";
    for (let i = 0; i < v.length; i++) out += (i > 0 ? "," : "") + marshal(v[i], shape, depth + 1);
    return `${out}]`;
  }
  if (!isObject(v)) return goJsonMarshal(v);
  if ("pick" in shape) return marshal(v, shape.pick(v), depth);
  if ("map" in shape) {
    const keys = goSortedKeys(v);
    let out = "{";
    for (let i = 0; i < keys.length; i++) out += `${i > 0 ? "," : ""}${goKeyText(keys[i]!)}${marshal(v[keys[i]!], shape.map, depth + 1)}`;
    return `${out}}`;
  }
  // The positions of the object's members among the struct's fields (an object has few of a struct's many
  // fields, JSONSchemaProps' 45 among them), in declaration order.
  const names = Object.keys(v);
  const { fields, keys, index } = shape;
  const at: number[] = [];
  let undeclared = false;
  for (let i = 0; i < names.length; i++) {
    const p = index.get(names[i]!);
    if (p === undefined) undeclared = true;
    else {
      let j = at.length;
      while (j > 0 && at[j - 1]! > p) j--;
      at.splice(j, 0, p);
    }
  }
  let out = "{";
  let n = 0;
  for (let i = 0; i < at.length; i++) {
    const p = at[i]!;
    const x = v[fields[p]![0]];
    if (x === undefined) continue;
    out += `${n++ > 0 ? "," : ""}${keys[p]}${marshal(x, fields[p]![1], depth + 1)}`;
  }
  // Members the struct does not declare (none in an object the server built) follow, sorted.
  if (undeclared) {
    for (const k of names.sort(compareGoStrings)) {
      if (index.has(k) || v[k] === undefined) continue;
      out += `${n++ > 0 ? "," : ""}${goJsonString(k)}:${goJsonMarshal(v[k])}`;
    }
  }
  return `${out}}`;
}

/** `json.Marshal` of a typed value whose type `shape` describes. */
export function goJsonMarshalStruct(v: JsonValue | undefined, shape: GoShape): string {
  return marshal(v, shape, 0);
}
