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

/**
 * A number literal kept as it was written (`-0`, `1.0`, `1e3`, `1e400`, integers beyond int64), for the texts
 * in which Kubernetes echoes it as sent: json-patch keeps patch values as raw JSON, and encoding/json names the
 * literal in `cannot unmarshal number 1.0 into … of type int64`. Only the JSON decoder's `rawNumbers` mode makes
 * them (never a request's value itself); `value` is the literal as a float64.
 */
export class RawNumber extends Float64 {
  constructor(
    value: number,
    readonly text: string,
  ) {
    super(value);
  }
}

/**
 * The first number in `v` beyond float64, in document order: its text as written when the decoder kept it
 * ({@link RawNumber}), else Go's `%v` of the infinity; undefined when there is none.
 */
export function firstOutOfRangeLiteral(v: JsonValue): string | undefined {
  if (v instanceof Float64) return Number.isFinite(v.value) ? undefined : v instanceof RawNumber ? v.text : String(v.value);
  if (Array.isArray(v)) {
    for (const e of v) {
      const t = firstOutOfRangeLiteral(e);
      if (t !== undefined) return t;
    }
  } else if (v !== null && typeof v === "object") {
    for (const k of Object.keys(v)) {
      const t = firstOutOfRangeLiteral(v[k]!);
      if (t !== undefined) return t;
    }
  }
  return undefined;
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

/** Deep copy of a JSON value. Iterative: any nesting depth (Kubernetes accepts 10,000 levels). */
export function deepClone<T extends JsonValue>(v: T): T {
  if (typeof v !== "object" || v === null || v instanceof Float64) return v;
  const root: JsonValue[] | JsonObject = Array.isArray(v) ? new Array<JsonValue>(v.length) : {};
  // the collections left to copy and their copies, on two stacks (no pair, closure or iterator per node)
  const srcs: (JsonValue[] | JsonObject)[] = [v as JsonValue[] | JsonObject];
  const dsts: (JsonValue[] | JsonObject)[] = [root];
  while (srcs.length > 0) {
    const src = srcs.pop()!;
    const dst = dsts.pop()!;
    if (Array.isArray(src)) {
      const d = dst as JsonValue[];
      for (let i = 0; i < src.length; i++) d[i] = cloneStep(src[i] as JsonValue, srcs, dsts);
    } else {
      const keys = Object.keys(src);
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i]!;
        setKey(dst as JsonObject, k, cloneStep(src[k] as JsonValue, srcs, dsts));
      }
    }
  }
  return root as T;
}

/** A scalar as it is, or an empty copy of a collection, queued to be filled by {@link deepClone}. */
function cloneStep(x: JsonValue, srcs: (JsonValue[] | JsonObject)[], dsts: (JsonValue[] | JsonObject)[]): JsonValue {
  if (typeof x !== "object" || x === null || x instanceof Float64) return x;
  const c: JsonValue[] | JsonObject = Array.isArray(x) ? new Array<JsonValue>(x.length) : {};
  srcs.push(x as JsonValue[] | JsonObject);
  dsts.push(c);
  return c;
}

/**
 * Go `reflect.DeepEqual` over unstructured values: int64 and float64 never compare equal, even when
 * numerically equal; map key order is irrelevant.
 */
export function deepEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  // iterative: any nesting depth
  const work: [JsonValue | undefined, JsonValue | undefined][] = [[a, b]];
  while (work.length > 0) {
    const [x, y] = work.pop()!;
    if (x === y) continue;
    const kx = kindOf(x);
    if (kx !== kindOf(y)) return false;
    switch (kx) {
      case "integer":
        if (BigInt(x as number | bigint) !== BigInt(y as number | bigint)) return false;
        break;
      case "number":
        if (toNumber(x as number | Float64) !== toNumber(y as number | Float64)) return false;
        break;
      case "array": {
        const xa = x as JsonValue[];
        const ya = y as JsonValue[];
        if (xa.length !== ya.length) return false;
        for (let i = xa.length - 1; i >= 0; i--) work.push([xa[i], ya[i]]);
        break;
      }
      case "object": {
        const xo = x as JsonObject;
        const yo = y as JsonObject;
        const keys = Object.keys(xo);
        if (keys.length !== Object.keys(yo).length) return false;
        for (let i = keys.length - 1; i >= 0; i--) {
          const k = keys[i]!;
          if (!Object.hasOwn(yo, k)) return false;
          work.push([xo[k], yo[k]]);
        }
        break;
      }
      default:
        return false;
    }
  }
  return true;
}
