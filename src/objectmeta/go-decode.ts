/**
 * An emulation of `json.Unmarshal(json.Marshal(metadata), &metav1.ObjectMeta{})` as Kubernetes runs it
 * (sigs.k8s.io/json: case-sensitive field names, optional strict mode collecting unknown fields), working
 * directly on crdkit values. It reproduces Go's behaviour that matters for users:
 *
 * - map keys are visited in Go's sorted order (the value was marshaled from a Go map);
 * - the first `*json.UnmarshalTypeError` is kept and decoding continues (`json: cannot unmarshal number
 *   into Go struct field ObjectMeta.labels of type string`), while an error from `metav1.Time`'s
 *   `UnmarshalJSON` aborts at once and wins;
 * - `null` leaves primitives at their zero value and clears pointers, maps and slices;
 * - strict mode reports unknown fields by path (`ownerReferences[0].foo`) only when decoding succeeded.
 */
import { compareGoStrings } from "../go/fmt.js";
import { goJsonFloat } from "../go/json.js";
import { type JsonObject, type JsonValue, deepClone, int64, isObject, kindOf, toNumber } from "../value/json-value.js";
import { type GoTime, ZERO_TIME, parseRFC3339 } from "../go/time.js";
import type { ManagedFieldsEntry, ObjectMeta, OwnerReference } from "./types.js";

type GoType =
  | { k: "string"; name: string }
  | { k: "int64" }
  | { k: "bool" }
  | { k: "time" }
  | { k: "raw" }
  | { k: "ptr"; elem: GoType }
  | { k: "map"; name: string; elem: GoType }
  | { k: "slice"; name: string; elem: GoType }
  | { k: "struct"; name: string; typeName: string; fields: Map<string, GoType>; zero: () => Record<string, unknown> };

const STRING: GoType = { k: "string", name: "string" };
const INT64: GoType = { k: "int64" };
const BOOL: GoType = { k: "bool" };
const TIME: GoType = { k: "time" };

const OWNER_REFERENCE: GoType = {
  k: "struct",
  name: "OwnerReference",
  typeName: "v1.OwnerReference",
  fields: new Map<string, GoType>([
    ["apiVersion", STRING],
    ["kind", STRING],
    ["name", STRING],
    ["uid", { k: "string", name: "types.UID" }],
    ["controller", { k: "ptr", elem: BOOL }],
    ["blockOwnerDeletion", { k: "ptr", elem: BOOL }],
  ]),
  zero: () => ({ apiVersion: "", kind: "", name: "", uid: "" }) satisfies OwnerReference,
};

const MANAGED_FIELDS_ENTRY: GoType = {
  k: "struct",
  name: "ManagedFieldsEntry",
  typeName: "v1.ManagedFieldsEntry",
  fields: new Map<string, GoType>([
    ["manager", STRING],
    ["operation", { k: "string", name: "v1.ManagedFieldsOperationType" }],
    ["apiVersion", STRING],
    ["time", { k: "ptr", elem: TIME }],
    ["fieldsType", STRING],
    ["fieldsV1", { k: "ptr", elem: { k: "raw" } }],
    ["subresource", STRING],
  ]),
  zero: () =>
    ({ manager: "", operation: "", apiVersion: "", fieldsType: "", subresource: "" }) satisfies ManagedFieldsEntry,
};

const STRING_MAP: GoType = { k: "map", name: "map[string]string", elem: STRING };

/** The Go shape of `metav1.ObjectMeta`. */
export const OBJECT_META: GoType = {
  k: "struct",
  name: "ObjectMeta",
  typeName: "v1.ObjectMeta",
  fields: new Map<string, GoType>([
    ["name", STRING],
    ["generateName", STRING],
    ["namespace", STRING],
    ["selfLink", STRING],
    ["uid", { k: "string", name: "types.UID" }],
    ["resourceVersion", STRING],
    ["generation", INT64],
    ["creationTimestamp", TIME],
    ["deletionTimestamp", { k: "ptr", elem: TIME }],
    ["deletionGracePeriodSeconds", { k: "ptr", elem: INT64 }],
    ["labels", STRING_MAP],
    ["annotations", STRING_MAP],
    ["ownerReferences", { k: "slice", name: "[]v1.OwnerReference", elem: OWNER_REFERENCE }],
    ["finalizers", { k: "slice", name: "[]string", elem: STRING }],
    ["managedFields", { k: "slice", name: "[]v1.ManagedFieldsEntry", elem: MANAGED_FIELDS_ENTRY }],
  ]),
  zero: () => emptyObjectMeta() as unknown as Record<string, unknown>,
};

/** A zero `metav1.ObjectMeta`. */
export function emptyObjectMeta(): ObjectMeta {
  return {
    name: "",
    generateName: "",
    namespace: "",
    selfLink: "",
    uid: "",
    resourceVersion: "",
    generation: 0,
    creationTimestamp: ZERO_TIME,
  };
}

class Abort {
  constructor(readonly message: string) {}
}

/** Go's description of a JSON value in `UnmarshalTypeError.Value`. */
function describe(v: JsonValue): string {
  switch (kindOf(v)) {
    case "string":
      return "string";
    case "boolean":
      return "bool";
    case "array":
      return "array";
    case "object":
      return "object";
    default:
      return "number";
  }
}

/** The JSON text Go's encoder writes for a number. */
function numberText(v: JsonValue): string {
  return kindOf(v) === "integer" ? String(v) : goJsonFloat(toNumber(v as number));
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

class Decoder {
  private fieldStack: string[] = [];
  private struct: string | null = null;
  private strictStack: string[] = [];
  savedError: string | null = null;
  readonly unknown: string[] = [];
  /** Unknown paths already recorded (made on the first unknown field). */
  private seenUnknown: Set<string> | null = null;

  constructor(private readonly strict: boolean) {}

  private typeError(value: string, type: string): string {
    if (this.struct !== null || this.fieldStack.length > 0) {
      return `json: cannot unmarshal ${value} into Go struct field ${this.struct ?? ""}.${this.fieldStack.join(".")} of type ${type}`;
    }
    return `json: cannot unmarshal ${value} into Go value of type ${type}`;
  }

  private save(value: string, type: string): void {
    if (this.savedError === null) this.savedError = this.typeError(value, type);
  }

  private pushStrictKey(key: string): number {
    const n = this.strictStack.length;
    if (!this.strict) return n;
    if (n > 0) this.strictStack.push(".");
    this.strictStack.push(key);
    return n;
  }

  private recordUnknown(key: string): void {
    if (!this.strict || this.unknown.length >= 100) return;
    const p = this.strictStack.length > 0 ? this.strictStack.join("") + "." + key : key;
    this.seenUnknown ??= new Set();
    if (this.seenUnknown.has(p)) return;
    this.seenUnknown.add(p);
    this.unknown.push(p);
  }

  /** Decodes `v` into a value of type `t`; `current` is the existing Go value (for null semantics). */
  decode(v: JsonValue, t: GoType, current: unknown): unknown {
    if (v === null) {
      switch (t.k) {
        case "ptr":
        case "map":
        case "slice":
          return undefined;
        case "time":
          return ZERO_TIME;
        default:
          return current;
      }
    }
    switch (t.k) {
      case "ptr":
        return this.decode(v, t.elem, undefined);
      case "raw":
        return deepClone(v);
      case "time":
        return this.decodeTime(v);
      case "string":
        if (typeof v === "string") return v;
        this.save(describe(v), t.name);
        return current;
      case "bool":
        if (typeof v === "boolean") return v;
        this.save(describe(v), "bool");
        return current;
      case "int64": {
        const kind = kindOf(v);
        if (kind !== "integer" && kind !== "number") {
          this.save(describe(v), "int64");
          return current;
        }
        const text = numberText(v);
        if (/^-?\d+$/.test(text)) {
          const b = BigInt(text);
          if (b >= INT64_MIN && b <= INT64_MAX) return int64(b);
        }
        this.save(`number ${text}`, "int64");
        return current;
      }
      case "map": {
        if (!isObject(v)) {
          this.save(describe(v), t.name);
          return current;
        }
        const m = current instanceof Map ? (current as Map<string, unknown>) : new Map<string, unknown>();
        const strings = t.elem.k === "string";
        // indexed loops: a for-of allocates an iterator (and a result per step) in V8's lower tiers
        const keys = Object.keys(v).sort(compareGoStrings);
        for (let i = 0; i < keys.length; i++) {
          const key = keys[i]!;
          const x = v[key]!;
          // a string into a string (labels, annotations): nothing to check, nothing unknown below it
          if (strings && typeof x === "string") {
            m.set(key, x);
            continue;
          }
          const n = this.pushStrictKey(key);
          m.set(key, this.decode(x, t.elem, strings ? "" : undefined));
          this.strictStack.length = n;
        }
        return m;
      }
      case "slice": {
        if (!Array.isArray(v)) {
          this.save(describe(v), t.name);
          return current;
        }
        const out: unknown[] = [];
        for (let i = 0; i < v.length; i++) {
          const n = this.strictStack.length;
          if (this.strict) this.strictStack.push(`[${i}]`);
          out.push(this.decode(v[i]!, t.elem, zeroOf(t.elem)));
          this.strictStack.length = n;
        }
        return out;
      }
      case "struct":
        return this.decodeStruct(v, t, current);
    }
  }

  private decodeTime(v: JsonValue): GoTime {
    if (typeof v !== "string") {
      // metav1.Time.UnmarshalJSON: json.Unmarshal(b, &str) fails; the decoder adds its field context.
      throw new Abort(this.typeError(describe(v), "string"));
    }
    const r = parseRFC3339(v);
    if (!r.ok) throw new Abort(r.error);
    return r.time;
  }

  private decodeStruct(v: JsonValue, t: Extract<GoType, { k: "struct" }>, current: unknown): unknown {
    if (!isObject(v)) {
      this.save(describe(v), t.typeName);
      return current;
    }
    const out = (current as Record<string, unknown> | undefined) ?? t.zero();
    const origFields = this.fieldStack.length;
    const origStruct = this.struct;
    const keys = Object.keys(v).sort(compareGoStrings);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const ft = t.fields.get(key);
      if (ft === undefined) {
        this.recordUnknown(key);
        continue;
      }
      this.fieldStack.push(key);
      this.struct = t.name;
      const n = this.pushStrictKey(key);
      const decoded = this.decode((v as JsonObject)[key]!, ft, out[key]);
      if (decoded === undefined) delete out[key];
      else out[key] = decoded;
      this.strictStack.length = n;
      this.fieldStack.length = origFields;
      this.struct = origStruct;
    }
    return out;
  }
}

function zeroOf(t: GoType): unknown {
  switch (t.k) {
    case "string":
      return "";
    case "int64":
      return 0;
    case "bool":
      return false;
    case "time":
      return ZERO_TIME;
    case "struct":
      return t.zero();
    default:
      return undefined;
  }
}

/** Result of one unmarshal of a metadata value. */
export interface DecodeResult {
  meta: ObjectMeta;
  /** Go's error text, when unmarshaling failed. */
  error?: string;
  /** Unknown field paths relative to the metadata object (strict mode only, successful decodes only). */
  unknown: string[];
}

/**
 * `json.Unmarshal(json.Marshal(value), &meta)` (strict = `UnmarshalStrict`). `into` is an existing
 * ObjectMeta to decode into (field-by-field accumulation), else a fresh one.
 */
export function unmarshalObjectMeta(value: JsonValue, strict: boolean, into?: ObjectMeta): DecodeResult {
  const d = new Decoder(strict);
  const target = (into ?? emptyObjectMeta()) as unknown as Record<string, unknown>;
  let meta: ObjectMeta;
  try {
    meta = d.decode(value, OBJECT_META, target) as ObjectMeta;
  } catch (e) {
    if (e instanceof Abort) return { meta: target as unknown as ObjectMeta, error: e.message, unknown: [] };
    throw e;
  }
  if (d.savedError !== null) return { meta, error: d.savedError, unknown: [] };
  return { meta, unknown: d.unknown };
}
