/**
 * The value model shared by every pipeline stage.
 *
 * Kubernetes decodes JSON into Go `interface{}` values where integer literals become `int64` and every
 * other number becomes `float64`. The two print differently (`%v`), compare differently
 * (`reflect.DeepEqual(int64(1), float64(1))` is false) and validate differently (format int64 rejects a
 * float64). crdkit keeps that distinction with the cheapest possible representation:
 *
 * - an integer (`int64`) is a JS `number` for which `Number.isInteger` holds, or a `bigint` when it does
 *   not fit in a safe integer;
 * - a `float64` is a JS `number` that is not an integer, or a {@link Float64} box when its value is
 *   integral (JSON `1.0`, `1e3`, YAML values of 1e21 and more). Boxes are rare: use {@link kindOf} and
 *   {@link toNumber} rather than `typeof`.
 *
 * Objects are plain JS objects with string keys (insertion order = source order); arrays are arrays.
 * Use {@link setKey} to add keys that come from user data (it is safe for `__proto__`).
 */
export class Float64 {
  constructor(readonly value: number) {}
  toJSON(): number {
    return this.value;
  }
}

export type JsonScalar = null | boolean | number | bigint | string | Float64;
export type JsonValue = JsonScalar | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

/** JSON kinds as Kubernetes' validators see them (`integer` = Go int64, `number` = Go float64). */
export type JsonKind = "null" | "boolean" | "integer" | "number" | "string" | "array" | "object";

export function kindOf(v: JsonValue | undefined): JsonKind {
  switch (typeof v) {
    case "string":
      return "string";
    case "number":
      return Number.isInteger(v) ? "integer" : "number";
    case "boolean":
      return "boolean";
    case "bigint":
      return "integer";
    case "object":
      if (v === null) return "null";
      if (Array.isArray(v)) return "array";
      if (v instanceof Float64) return "number";
      return "object";
    default:
      return "null";
  }
}

/** True for a JSON object (not null, not an array, not a Float64 box). */
export function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Float64);
}

/** True for any number (int64 or float64 in Go terms). */
export function isNumeric(v: unknown): v is number | bigint | Float64 {
  return typeof v === "number" || typeof v === "bigint" || v instanceof Float64;
}

/** True when the value is a Go int64. */
export function isInt(v: unknown): v is number | bigint {
  return (typeof v === "number" && Number.isInteger(v)) || typeof v === "bigint";
}

/** True when the value is a Go float64. */
export function isFloat(v: unknown): v is number | Float64 {
  return (typeof v === "number" && !Number.isInteger(v)) || v instanceof Float64;
}

/** Numeric value as a JS number (bigints lose precision, as Go's float64(int64) does). */
export function toNumber(v: number | bigint | Float64): number {
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  return v.value;
}

/** Builds a Go float64 value: a plain number when non-integral, else a box. */
export function float64(n: number): number | Float64 {
  return Number.isInteger(n) ? new Float64(n) : n;
}

/** Builds a Go int64 value. */
export function int64(n: bigint | number): number | bigint {
  if (typeof n === "number") return n;
  return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
}

/** Sets a key that may come from user data (safe for `__proto__`). */
export function setKey(obj: JsonObject, key: string, value: JsonValue): void {
  if (key === "__proto__") {
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    obj[key] = value;
  }
}

/** Own-property lookup (never reads the prototype chain). */
export function getKey(obj: JsonObject, key: string): JsonValue | undefined {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** Deep copy of a JSON value. */
export function deepClone<T extends JsonValue>(v: T): T {
  if (typeof v !== "object" || v === null || v instanceof Float64) return v;
  if (Array.isArray(v)) return v.map((x) => deepClone(x)) as T;
  const out: JsonObject = {};
  for (const k of Object.keys(v)) setKey(out, k, deepClone(v[k] as JsonValue));
  return out as T;
}

/**
 * Go `reflect.DeepEqual` over unstructured values: int64 and float64 never compare equal, even when
 * numerically equal; map key order is irrelevant.
 */
export function deepEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  const ka = kindOf(a);
  if (ka !== kindOf(b)) return false;
  switch (ka) {
    case "integer":
      return BigInt(a as number | bigint) === BigInt(b as number | bigint);
    case "number":
      return toNumber(a as number | Float64) === toNumber(b as number | Float64);
    case "array": {
      const x = a as JsonValue[];
      const y = b as JsonValue[];
      if (x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) if (!deepEqual(x[i], y[i])) return false;
      return true;
    }
    case "object": {
      const x = a as JsonObject;
      const y = b as JsonObject;
      const kx = Object.keys(x);
      if (kx.length !== Object.keys(y).length) return false;
      for (const k of kx) {
        if (!Object.hasOwn(y, k)) return false;
        if (!deepEqual(x[k], y[k])) return false;
      }
      return true;
    }
    default:
      return false;
  }
}
