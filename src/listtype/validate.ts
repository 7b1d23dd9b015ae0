/**
 * `x-kubernetes-list-type` uniqueness (apiextensions `pkg/apiserver/schema/listtype/validation.go`):
 * `set` lists must not repeat an element, `map` lists must not repeat a key (tuple of
 * `x-kubernetes-list-map-keys`). Only the second occurrence of each repeated value is reported.
 */
import { type FieldError, fieldError } from "../errors/field-error.js";
import { FieldPath } from "../errors/field-path.js";
import type { Structural } from "../structural/structural.js";
import { hasListTypes } from "../structural/subtree-facts.js";
import { goJsonMarshal } from "../go/json.js";
import { type JsonObject, type JsonValue, isObject, kindOf, setKey, toNumber } from "../value/json-value.js";

/** Marker for "the key field is absent" (Go's `unspecifiedKeyValue{}`), distinct from an explicit null. */
const UNSPECIFIED = Symbol("unspecified-key");
type KeyValue = JsonValue | typeof UNSPECIFIED;

function keyPath(p: FieldPath | null, k: string): FieldPath {
  return (p ?? FieldPath.of("")).key(k);
}
function childPath(p: FieldPath | null, k: string): FieldPath {
  return p ? p.child(k) : FieldPath.of(k);
}

/**
 * `listtype.ValidateListSetsAndMaps(fldPath, s, obj)`: walks properties / additionalProperties and arrays
 * by schema and returns Duplicate / Invalid errors (e.g. `spec.list[2]: Duplicate value: "a"`).
 */
export function validateListSetsAndMaps(
  path: FieldPath | null,
  s: Structural | undefined | null,
  obj: JsonObject | null | undefined,
): FieldError[] {
  const errs: FieldError[] = [];
  if (s && obj && hasListTypes(s)) walkObject(path, s, obj, errs);
  return errs;
}

function walkObject(path: FieldPath | null, s: Structural, obj: JsonObject, errs: FieldError[]): void {
  // indexed loops: a for-of allocates an iterator (and a result per step) in V8's lower tiers
  const aps = s.additionalProperties?.schema;
  if (aps && hasListTypes(aps)) {
    const keys = Object.keys(obj);
    for (let i = 0; i < keys.length; i++) walkValue(keyPath(path, keys[i]!), aps, obj[keys[i]!]!, errs);
  }
  const props = s.properties;
  if (props) {
    const keys = Object.keys(obj);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      const sub = props.get(k);
      if (sub !== undefined && hasListTypes(sub)) walkValue(childPath(path, k), sub, obj[k]!, errs);
    }
  }
}

function walkValue(path: FieldPath, s: Structural, v: JsonValue, errs: FieldError[]): void {
  if (Array.isArray(v)) walkArray(path, s, v, errs);
  else if (isObject(v)) walkObject(path, s, v, errs);
}

function walkArray(path: FieldPath, s: Structural, arr: JsonValue[], errs: FieldError[]): void {
  if (s.xListType === "set") {
    for (const i of nonUniqueIndices(arr)) errs.push(fieldError.duplicate(path.index(i), arr[i]));
  } else if (s.xListType === "map") {
    validateListMap(path, s, arr, errs);
  }
  const items = s.items;
  if (items && hasListTypes(items)) {
    for (let i = 0; i < arr.length; i++) walkValue(path.index(i), items, arr[i]!, errs);
  }
}

/** Go map-key identity of a scalar (`int64(1)` ≠ `float64(1)`), or JSON text of a compound value. */
function identity(x: KeyValue): string {
  if (x === UNSPECIFIED) return "u";
  switch (kindOf(x)) {
    case "null":
      return "n";
    case "boolean":
      return x ? "b1" : "b0";
    case "string":
      return "s" + (x as string);
    case "integer":
      return "i" + String(x);
    case "number": {
      const n = toNumber(x as number);
      return "f" + (n === 0 ? "0" : String(n));
    }
    default:
      return "c" + goJsonMarshal(x as JsonValue);
  }
}

/** Indices of the second occurrence of each repeated value (Go `validateListSet`). */
function nonUniqueIndices(values: readonly KeyValue[]): number[] {
  const out: number[] = [];
  if (values.length <= 1) return out;
  const seen = new Map<string, number>();
  for (let i = 0; i < values.length; i++) {
    const id = identity(values[i]!);
    const times = seen.get(id);
    if (times === undefined) seen.set(id, 1);
    else {
      seen.set(id, times + 1);
      if (times === 1) out.push(i);
    }
  }
  return out;
}

function validateListMap(path: FieldPath, s: Structural, arr: JsonValue[], errs: FieldError[]): void {
  for (let i = 0; i < arr.length; i++) {
    const x = arr[i]!;
    if (x !== null && !isObject(x)) {
      errs.push(fieldError.invalid(path.index(i), x, "must be an object for an array of list-type map"));
      return;
    }
  }
  if (arr.length <= 1) return;
  const keyFields = s.xListMapKeys ?? [];
  if (keyFields.length === 1) {
    const keyField = keyFields[0]!;
    const keys: KeyValue[] = arr.map((x) =>
      x === null || !Object.hasOwn(x as JsonObject, keyField) ? UNSPECIFIED : (x as JsonObject)[keyField]!,
    );
    for (const i of nonUniqueIndices(keys)) {
      const k = keys[i]!;
      const shown: JsonObject = {};
      if (k !== UNSPECIFIED) setKey(shown, keyField, k);
      errs.push(fieldError.duplicate(path.index(i), shown));
    }
    return;
  }
  const keys: JsonObject[] = arr.map((x) => {
    const key: JsonObject = {};
    if (x === null) return key;
    for (const f of keyFields) if (Object.hasOwn(x as JsonObject, f)) setKey(key, f, (x as JsonObject)[f]!);
    return key;
  });
  for (const i of nonUniqueIndices(keys)) errs.push(fieldError.duplicate(path.index(i), keys[i]));
}
