/**
 * STABLE API for CEL-B — runtime value representation of the CEL evaluator.
 *
 * | CEL type | JS representation |
 * |---|---|
 * | `int` | `bigint` (always in int64 range; overflow yields an error value) |
 * | `uint` | {@link CelUint} |
 * | `double` | `number` |
 * | `bool` / `string` / `null_type` | `boolean` / `string` / `null` |
 * | `bytes` | `Uint8Array` |
 * | `list` | JS array (`readonly CelValue[]`) |
 * | `map` | {@link CelMap} |
 * | `google.protobuf.Duration` / `Timestamp` | {@link CelDuration} / {@link CelTimestamp} |
 * | `type` | {@link CelType} |
 * | `optional_type` | {@link CelOptional} |
 * | opaque (Quantity, IP, URL...) | subclasses of {@link CelOpaque} |
 * | error / unknown | {@link CelError} / {@link CelUnknown} (both extend {@link CelSpecial}) |
 *
 * @module
 */

/** Any CEL runtime value, including error and unknown values. */
export type CelValue =
  | null
  | boolean
  | bigint
  | number
  | string
  | Uint8Array
  | CelUint
  | readonly CelValue[]
  | CelMap
  | CelDuration
  | CelTimestamp
  | CelType
  | CelOptional
  | CelOpaque
  | CelSpecial;

/** A CEL `uint` (value in [0, 2^64)). */
export class CelUint {
  constructor(readonly value: bigint) {}
  toString(): string {
    return `${this.value}u`;
  }
}

/** A CEL type value (result of `type(x)`, or a type identifier like `int`). */
export class CelType {
  constructor(
    readonly name: string,
    readonly params: readonly CelType[] = [],
  ) {}
  toString(): string {
    return this.name;
  }
}

/** Well-known runtime type values (cel-go names). */
export const TYPES = {
  int: new CelType("int"),
  uint: new CelType("uint"),
  double: new CelType("double"),
  bool: new CelType("bool"),
  string: new CelType("string"),
  bytes: new CelType("bytes"),
  null: new CelType("null_type"),
  list: new CelType("list"),
  map: new CelType("map"),
  type: new CelType("type"),
  duration: new CelType("google.protobuf.Duration"),
  timestamp: new CelType("google.protobuf.Timestamp"),
  optional: new CelType("optional_type"),
  error: new CelType("error"),
  unknown: new CelType("unknown"),
} as const;

/** Marker base class of non-values flowing through evaluation (errors and unknowns). */
export abstract class CelSpecial {}

/** An evaluation error carried as a value (cel-go `types.Err`). */
export class CelError extends CelSpecial {
  constructor(
    readonly message: string,
    /** Id of the expression where the error arose (0 if unknown). */
    readonly exprId = 0,
  ) {
    super();
  }
  override toString(): string {
    return this.message;
  }
}

/** An unknown value (cel-go `types.Unknown`): the ids of the unknown attributes. */
export class CelUnknown extends CelSpecial {
  constructor(readonly ids: readonly number[]) {
    super();
  }
  /** Union of two unknown sets. */
  merge(o: CelUnknown): CelUnknown {
    return new CelUnknown([...new Set([...this.ids, ...o.ids])].sort((a, b) => a - b));
  }
}

/** An optional value (`optional.of(x)` / `optional.none()`). */
export class CelOptional {
  private constructor(readonly value: CelValue | undefined) {}
  static readonly NONE = new CelOptional(undefined);
  static of(v: CelValue): CelOptional {
    return new CelOptional(v);
  }
  hasValue(): boolean {
    return this.value !== undefined;
  }
}

/** A duration with nanosecond precision, in cel-go's int64-nanosecond range. */
export class CelDuration {
  constructor(readonly nanos: bigint) {}
}

/** A timestamp: nanoseconds since the Unix epoch, in years 0001..9999. */
export class CelTimestamp {
  constructor(readonly nanos: bigint) {}
}

/**
 * Base class for opaque extension values (Kubernetes Quantity, IP, CIDR, URL, Semver...).
 * Subclasses provide their CEL type and equality; ordering is optional.
 */
export abstract class CelOpaque {
  /** The CEL type of this value, e.g. `new CelType("kubernetes.Quantity")`. */
  abstract readonly celType: CelType;
  /** CEL `==` with another value of any type. */
  abstract equals(other: CelValue): boolean;
}

/** Normalized map key: string, boolean, or bigint (int and uint share the numeric space). */
export type MapKey = string | boolean | bigint;

/** Normalizes a CEL value for map lookup; `undefined` when it cannot be a key (or a non-integral double). */
export function mapKeyOf(k: CelValue): MapKey | undefined {
  switch (typeof k) {
    case "string":
    case "boolean":
    case "bigint":
      return k;
    case "number":
      return Number.isInteger(k) ? BigInt(k) : undefined;
    default:
      return k instanceof CelUint ? k.value : undefined;
  }
}

/** A CEL map. Implementations must support heterogeneous numeric key lookup via {@link mapKeyOf}. */
export abstract class CelMap {
  /** Number of entries. */
  abstract get size(): number;
  /** Value for `key`, or `undefined` when absent. */
  abstract get(key: CelValue): CelValue | undefined;
  /** Keys in iteration order (original key values). */
  abstract keys(): CelValue[];
  /** Whether `key` is present. */
  has(key: CelValue): boolean {
    return this.get(key) !== undefined;
  }
  /**
   * `key in m` and `has(m.key)` (cel-go `Contains` / `Find` in a presence test): {@link has}, or the error a
   * map whose values are converted on access gives for a present key whose value does not convert.
   */
  contains(key: CelValue): boolean | CelError {
    return this.has(key);
  }
  /** `get` of a string key (field selection: implementations answer it without classifying the key). */
  getString(key: string): CelValue | undefined {
    return this.get(key);
  }
  /** Entries in iteration order. */
  entries(): [CelValue, CelValue][] {
    return this.keys().map((k) => [k, this.get(k) as CelValue]);
  }
}

const NULL_KEY = Symbol("null-key");
const TWO_63 = 2 ** 63;
const TWO_64 = 2 ** 64;
const INT64_MAX_BIG = 2n ** 63n - 1n;

/**
 * General-purpose map with cel-go's key semantics: keys keep their type (`1`, `1u` and `1.0`
 * are distinct entries, as in a Go `map[ref.Val]ref.Val`), and lookups fall back across numeric
 * types losslessly (an `int` key finds a `uint` entry, a `double` key an `int` or `uint` entry).
 * Supported key types: string, bool, int, uint, double, null.
 */
export class HashCelMap extends CelMap {
  private readonly m = new Map<unknown, [CelValue, CelValue]>();
  private uintTokens: Map<bigint, object> | undefined;
  private doubleTokens: Map<number, object> | undefined;

  get size(): number {
    return this.m.size;
  }

  /** The storage key of `k` (exact type), creating tokens when `create`; undefined if unsupported. */
  private storageKey(k: CelValue, create: boolean): unknown {
    switch (typeof k) {
      case "string":
      case "boolean":
      case "bigint":
        return k;
      case "number": {
        if (Number.isNaN(k)) return undefined; // Go: NaN never equals a stored key
        const norm = k === 0 ? 0 : k;
        let t = this.doubleTokens?.get(norm);
        if (t === undefined && create) {
          if (this.doubleTokens === undefined) this.doubleTokens = new Map();
          t = {};
          this.doubleTokens.set(norm, t);
        }
        return t;
      }
      default:
        if (k === null) return NULL_KEY;
        if (k instanceof CelUint) {
          let t = this.uintTokens?.get(k.value);
          if (t === undefined && create) {
            if (this.uintTokens === undefined) this.uintTokens = new Map();
            t = {};
            this.uintTokens.set(k.value, t);
          }
          return t;
        }
        return undefined;
    }
  }

  get(key: CelValue): CelValue | undefined {
    if (typeof key === "string") return this.m.get(key)?.[1];
    const exact = this.storageKey(key, false);
    if (exact !== undefined) {
      const e = this.m.get(exact);
      if (e !== undefined) return e[1];
    }
    // cel-go refValMapAccessor.Find: lossless numeric fallbacks
    if (typeof key === "number") {
      if (Number.isInteger(key) && key > -TWO_63 && key < TWO_63) {
        const e = this.m.get(BigInt(key));
        if (e !== undefined) return e[1];
      }
      if (Number.isInteger(key) && key >= 0 && key < TWO_64) {
        const t = this.uintTokens?.get(BigInt(key));
        return t === undefined ? undefined : this.m.get(t)?.[1];
      }
      return undefined;
    }
    if (typeof key === "bigint") {
      if (key < 0n) return undefined;
      const t = this.uintTokens?.get(key);
      return t === undefined ? undefined : this.m.get(t)?.[1];
    }
    if (key instanceof CelUint && key.value <= INT64_MAX_BIG) return this.m.get(key.value)?.[1];
    return undefined;
  }

  /** Lookup by string key (field selection fast path). */
  override getString(key: string): CelValue | undefined {
    return this.m.get(key)?.[1];
  }

  keys(): CelValue[] {
    const out: CelValue[] = [];
    for (const e of this.m.values()) out.push(e[0]);
    return out;
  }

  override entries(): [CelValue, CelValue][] {
    return [...this.m.values()].map((e) => [e[0], e[1]]);
  }

  /** Inserts (or replaces) the entry with exactly this key; returns false if the key type is unsupported. */
  set(key: CelValue, value: CelValue): boolean {
    const sk = this.storageKey(key, true);
    if (sk === undefined) return false;
    this.m.set(sk, [key, value]);
    return true;
  }

  /** Removes the entry with exactly this key. */
  delete(key: CelValue): void {
    const sk = this.storageKey(key, false);
    if (sk !== undefined) this.m.delete(sk);
  }

  override has(key: CelValue): boolean {
    return this.get(key) !== undefined;
  }
}

/** Whether `k` can be a key of a {@link HashCelMap} (string, bool, int, uint, double, null). */
export function isMapKeyType(k: CelValue): boolean {
  return (
    typeof k === "string" ||
    typeof k === "boolean" ||
    typeof k === "bigint" ||
    typeof k === "number" ||
    k === null ||
    k instanceof CelUint
  );
}

/**
 * A map view of a plain JS object with string keys; values are converted lazily
 * with `convert` (cached per key). Useful for JSON/unstructured data.
 */
export class ObjectCelMap extends CelMap {
  private cache: Map<string, CelValue> | undefined;
  private keyList: string[] | undefined;
  constructor(
    private readonly obj: Readonly<Record<string, unknown>>,
    private readonly convert: (v: unknown, key: string) => CelValue,
  ) {
    super();
  }
  get size(): number {
    return this.ownKeys().length;
  }
  private ownKeys(): string[] {
    if (this.keyList === undefined) this.keyList = Object.keys(this.obj);
    return this.keyList;
  }
  get(key: CelValue): CelValue | undefined {
    if (typeof key !== "string" || !Object.hasOwn(this.obj, key)) return undefined;
    let c = this.cache?.get(key);
    if (c === undefined) {
      c = this.convert(this.obj[key], key);
      if (this.cache === undefined) this.cache = new Map();
      this.cache.set(key, c);
    }
    return c;
  }
  keys(): CelValue[] {
    return this.ownKeys();
  }
  override has(key: CelValue): boolean {
    return typeof key === "string" && Object.hasOwn(this.obj, key);
  }
}

/** Whether `v` is an error or unknown. */
export function isSpecial(v: CelValue): v is CelSpecial {
  return v instanceof CelSpecial;
}

/** Whether `v` is a CEL list. */
export function isList(v: CelValue): v is readonly CelValue[] {
  return Array.isArray(v);
}
