/**
 * Unstructured (JSON) values → CEL values, guided by the structural schema (apiserver
 * `pkg/cel/common/valuesunstructured.go UnstructuredToVal`), including Kubernetes' list-type set/map
 * equality and `+` semantics.
 */
import { goBase64StdDecode } from "../go/base64.js";
import { CelDuration, CelError, CelMap, CelSpecial, CelTimestamp, type CelValue } from "../cel/index.js";
import { celEquals } from "../cel/index.js";
import type { Structural } from "../structural/structural.js";
import { deepEqual, Float64, isObject, type JsonObject, type JsonValue, kindOf } from "../value/json-value.js";
import { withTypeAndObjectMeta } from "./decl-type.js";
import { escapeProperty, unescapeProperty } from "./escaping.js";
import { parseGoDuration } from "../go/time.js";

/** List semantics of a converted list (x-kubernetes-list-type set / map). */
interface ListInfo {
  kind: "set" | "map";
  /** Escaped list-map keys. */
  keys: string[];
}

const LIST_INFO = new WeakMap<readonly CelValue[], ListInfo>();

/** {@link KubeMap}'s memo of a key without a value. */
const ABSENT: unique symbol = Symbol("absent");

/** An object or map value backed by unstructured data. */
export class KubeMap extends CelMap {
  /** CEL key → its value or {@link ABSENT} (the raw data does not change while rules are evaluated). */
  private cache: Map<string, CelValue | typeof ABSENT> | undefined;
  constructor(
    readonly raw: JsonObject,
    readonly schema: Structural,
    /** `object`: properties (escaped names); `map`: additionalProperties; `empty`: no accessible keys. */
    readonly mode: "object" | "map" | "empty",
  ) {
    super();
  }
  get size(): number {
    return Object.keys(this.raw).length;
  }
  propSchema(key: string): Structural | undefined {
    if (this.mode === "object") return this.schema.properties?.get(key);
    if (this.mode === "map") return this.schema.additionalProperties?.schema;
    return undefined;
  }
  /** The value for a CEL key, or undefined when absent (answers are remembered per key, absent ones too). */
  find(key: string): CelValue | undefined {
    const hit = this.cache?.get(key);
    if (hit !== undefined) return hit === ABSENT ? undefined : hit;
    const c = this.lookup(key);
    if (!this.cache) this.cache = new Map();
    this.cache.set(key, c === undefined ? ABSENT : c);
    return c;
  }
  private lookup(key: string): CelValue | undefined {
    let k: string | undefined = key;
    if (this.mode === "object") {
      k = unescapeProperty(key);
      if (k === undefined) return undefined;
    }
    if (!Object.hasOwn(this.raw, k)) return undefined;
    const v = this.raw[k]!;
    if (this.mode === "object" && v === null) return undefined;
    const ps = this.propSchema(k);
    if (!ps) return undefined;
    return toCelValue(v, ps);
  }
  get(key: CelValue): CelValue | undefined {
    if (typeof key !== "string") return undefined;
    return this.find(key);
  }
  override getString(key: string): CelValue | undefined {
    return this.find(key);
  }
  override has(key: CelValue): boolean {
    return typeof key === "string" && this.find(key) !== undefined;
  }
  /** `unstructuredMap.Contains`: a present value that does not convert is that error (`invalid data, ...`). */
  override contains(key: CelValue): boolean | CelError {
    if (typeof key !== "string") return false;
    const v = this.find(key);
    return v instanceof CelError ? v : v !== undefined;
  }
  keys(): CelValue[] {
    const out: CelValue[] = [];
    for (const k of Object.keys(this.raw)) {
      if (!this.propSchema(k)) continue;
      out.push(this.mode === "object" ? (escapeProperty(k) ?? k) : k);
    }
    return out;
  }
}

/** A CEL error value (`types.NewErr`). */
function err(msg: string): CelError {
  return new CelError(msg);
}

function toInt(v: JsonValue): bigint | undefined {
  const k = kindOf(v);
  if (k !== "integer") return undefined;
  return typeof v === "bigint" ? v : BigInt(v as number);
}

/** `UnstructuredToVal`. */
export function toCelValue(v: JsonValue | undefined, schema: Structural): CelValue {
  if (v === null || v === undefined) {
    return schema.nullable ? null : err("invalid data, got null for schema with nullable=false");
  }
  if (schema.xIntOrString) {
    if (typeof v === "string") return v;
    const i = toInt(v);
    if (i !== undefined) return i;
    return err("invalid data, expected XIntOrString value to be either a string or integer");
  }
  switch (schema.type) {
    case "object": {
      if (!isObject(v)) return err("invalid data, expected a map for the provided schema with type=object");
      if (schema.xEmbeddedResource) return new KubeMap(v, withTypeAndObjectMeta(schema), "object");
      if (schema.properties) return new KubeMap(v, schema, "object");
      if (schema.additionalProperties?.schema) return new KubeMap(v, schema, "map");
      return new KubeMap(v, schema, "empty");
    }
    case "array": {
      if (!Array.isArray(v)) return err("invalid data, expected an array for the provided schema with type=array");
      const items = schema.items;
      if (!items) return err("invalid array type, expected Items with a non-empty Schema");
      const out = v.map((e) => toCelValue(e, items));
      const lt = schema.xListType;
      if (lt === "set") LIST_INFO.set(out, { kind: "set", keys: [] });
      else if (lt === "map") {
        LIST_INFO.set(out, { kind: "map", keys: (schema.xListMapKeys ?? []).map((k) => escapeProperty(k) ?? k) });
      }
      return out;
    }
    case "string": {
      if (typeof v !== "string") return err(`invalid data, expected string, got ${goTypeName(v)}`);
      switch (schema.valueValidation?.format) {
        case "duration": {
          const d = parseStrfmtDuration(v);
          return typeof d === "string" ? err(`Invalid duration ${v}: ${d}`) : new CelDuration(d);
        }
        case "date": {
          const t = parseDate(v);
          if (t !== undefined) return new CelTimestamp(t);
          return err(`Invalid date formatted string ${v}: ${goTimeParseError(v, LAYOUT_DATE) ?? `parsing time ${JSON.stringify(v)}: day out of range`}`);
        }
        case "date-time": {
          // strfmt tries several layouts and reports the last one's error (ISO8601 local time)
          if (v === "") return new CelTimestamp(-62135596800000000000n);
          const t = parseDateTime(v);
          if (t !== undefined) return new CelTimestamp(t);
          return err(`Invalid date-time formatted string ${v}: ${goTimeParseError(v, LAYOUT_LOCAL) ?? `parsing time ${JSON.stringify(v)}: day out of range`}`);
        }
        case "byte": {
          const b = goBase64StdDecode(v);
          return b.ok ? b.bytes : err(`Invalid byte formatted string ${v}: illegal base64 data at input byte ${b.offset}`);
        }
      }
      return v;
    }
    case "number": {
      const k = kindOf(v);
      if (k === "integer") return Number(v as number | bigint);
      if (k === "number") return v instanceof Float64 ? v.value : (v as number);
      return err(`invalid data, expected float, got ${goTypeName(v)}`);
    }
    case "integer": {
      const i = toInt(v);
      return i !== undefined ? i : err(`invalid data, expected int, got ${goTypeName(v)}`);
    }
    case "boolean":
      return typeof v === "boolean" ? v : err(`invalid data, expected bool, got ${goTypeName(v)}`);
  }
  return err(
    `invalid type, expected object, array, number, integer, boolean or string, or no type with x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields is true, got ${schema.type}`,
  );
}

function goTypeName(v: JsonValue): string {
  switch (kindOf(v)) {
    case "integer":
      return "int64";
    case "number":
      return "float64";
    case "string":
      return "string";
    case "boolean":
      return "bool";
    case "array":
      return "[]interface {}";
    case "object":
      return "map[string]interface {}";
    default:
      return "<nil>";
  }
}

const STRFMT_UNITS: [string[], bigint][] = [
  [["ns", "nano"], 1n],
  [["us", "µs", "micro"], 1000n],
  [["ms", "milli"], 1000000n],
  [["s", "sec"], 1000000000n],
  [["m", "min"], 60000000000n],
  [["h", "hr", "hour"], 3600000000000n],
  [["d", "day"], 86400000000000n],
  [["w", "wk", "week"], 604800000000000n],
];

/**
 * kube-openapi `strfmt.ParseDuration`: a Go duration, else every `<n><unit>` pair (units case-insensitive,
 * the last variant of each unit matching as a prefix: `5 minutes`, `2 days`); unknown units are ignored.
 * Returns the nanoseconds, or the error text.
 */
export function parseStrfmtDuration(s: string): bigint | string {
  const g = parseGoDuration(s);
  if (g !== undefined) return g;
  let total = 0n;
  let ok = false;
  for (const m of s.matchAll(/((\d+)\s*([A-Za-zµ]+))/g)) {
    const factor = BigInt(m[2]!);
    if (factor > 9223372036854775807n) return `strconv.Atoi: parsing "${m[2]}": value out of range`;
    const unit = m[3]!.trim().toLowerCase();
    for (const [variants, mult] of STRFMT_UNITS) {
      variants.forEach((v, i) => {
        if ((i === variants.length - 1 && unit.startsWith(v)) || v === unit) {
          ok = true;
          total = BigInt.asIntN(64, total + factor * mult);
        }
      });
    }
  }
  return ok ? total : `unable to parse ${s} as duration`;
}

const LAYOUT_DATE = ["2006", "-", "01", "-", "02"];
const LAYOUT_LOCAL = [...LAYOUT_DATE, "T", "15", ":", "04", ":", "05"];

/** Go `time.Parse(layout, v)` error text for the numeric layouts above (undefined when it parses). */
function goTimeParseError(v: string, elems: string[]): string | undefined {
  const layout = elems.join("");
  let rest = v;
  const q = (x: string) => JSON.stringify(x);
  const ranges: Record<string, [number, number, string]> = { "01": [1, 12, "month"], "02": [1, 31, "day"], "15": [0, 23, "hour"], "04": [0, 59, "minute"], "05": [0, 59, "second"] };
  for (let i = 0; i < elems.length; i++) {
    const e = elems[i]!;
    const tail = elems.slice(i).join("");
    if (!/^\d+$/.test(e)) {
      if (!rest.startsWith(e)) return `parsing time ${q(v)} as ${q(layout)}: cannot parse ${q(rest)} as ${q(tail.slice(0, tail.search(/\d/) < 0 ? undefined : tail.search(/\d/)))}`;
      rest = rest.slice(e.length);
      continue;
    }
    const n = e.length;
    const digits = rest.slice(0, n);
    if (!new RegExp(`^\\d{${n}}$`).test(digits)) return `parsing time ${q(v)} as ${q(layout)}: cannot parse ${q(rest)} as ${q(e)}`;
    const r = ranges[e];
    if (r && (Number(digits) < r[0] || Number(digits) > r[1])) return `parsing time ${q(v)}: ${r[2]} out of range`;
    rest = rest.slice(n);
  }
  if (rest !== "") return `parsing time ${q(v)}: extra text: ${q(rest)}`;
  return undefined;
}

function parseDate(s: string): bigint | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return undefined;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const d = new Date(ms);
  if (d.getUTCDate() !== Number(m[3]) || d.getUTCMonth() !== Number(m[2]) - 1) return undefined;
  return BigInt(ms) * 1000000n;
}

/** RFC 3339 date-time (strfmt accepts `T`/`t`/space separators and optional fraction). */
export function parseDateTime(s: string): bigint | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?$/.exec(s);
  if (!m) return undefined;
  const [mo, d, h, mi, se] = [Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])];
  if (mo < 1 || mo > 12 || h > 23 || mi > 59 || se > 59) return undefined;
  const ms = Date.UTC(Number(m[1]), mo - 1, d, h, mi, se);
  if (Number.isNaN(ms) || new Date(ms).getUTCDate() !== d) return undefined;
  let nanos = BigInt(ms) * 1000000n + BigInt((m[7] ?? "").padEnd(9, "0") || "0");
  if (m[9]) {
    const off = (Number(m[10]) * 60 + Number(m[11])) * 60;
    nanos -= BigInt(m[9] === "-" ? -off : off) * 1000000000n;
  }
  return nanos;
}

const SET_SCALAR_ERROR = "listSet operations are only supported on lists of scalar values";

function setKey(v: CelValue): string | CelError {
  if (v instanceof CelSpecial) return v as CelError;
  switch (typeof v) {
    case "string":
      return `s:${v}`;
    case "boolean":
      return `b:${v}`;
    case "bigint":
      return `n:${v}`;
    case "number":
      return Number.isInteger(v) ? `n:${v}` : `d:${v}`;
    default:
      return new CelError(SET_SCALAR_ERROR);
  }
}

function mapListKey(v: CelValue, keys: string[]): string {
  if (!(v instanceof CelMap)) return "?";
  return JSON.stringify(
    keys.map((k) => {
      const x = v.get(k);
      return typeof x === "bigint" ? `${x}n` : typeof x === "number" ? `${x}n` : (x ?? null);
    }),
  );
}

/** Kubernetes' equality over CEL values (list-type set/map ignore order; objects compare schema keys). */
export function kubeEquals(a: CelValue, b: CelValue, depth = 0): boolean | CelError {
  // the common operands first: two strings, ints or bools are equal when identical
  const ta = typeof a;
  if (ta === typeof b && (ta === "string" || ta === "bigint" || ta === "boolean")) return a === b;
  if (a instanceof CelSpecial) return a as CelError;
  if (b instanceof CelSpecial) return b as CelError;
  if (depth > 1000) return new CelError("max recursion depth exceeded");
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    const info = LIST_INFO.get(a);
    if (info?.kind === "set") {
      const set = new Set<string>();
      for (const x of a) {
        const k = setKey(x as CelValue);
        if (typeof k !== "string") return k;
        set.add(k);
      }
      const seen = new Set<string>();
      for (const y of b) {
        const k = setKey(y as CelValue);
        if (typeof k !== "string") return k;
        if (!set.has(k)) return false;
        seen.add(k);
      }
      return seen.size === set.size;
    }
    if (info?.kind === "map") {
      const m = new Map<string, CelValue>();
      for (const x of a) m.set(mapListKey(x as CelValue, info.keys), x as CelValue);
      const seen = new Set<string>();
      for (const y of b) {
        const k = mapListKey(y as CelValue, info.keys);
        const x = m.get(k);
        if (x === undefined) return false;
        const e = kubeEquals(x, y as CelValue, depth + 1);
        if (e !== true) return e;
        seen.add(k);
      }
      return seen.size === m.size;
    }
    for (let i = 0; i < a.length; i++) {
      const e = kubeEquals(a[i] as CelValue, b[i] as CelValue, depth + 1);
      if (e !== true) return e;
    }
    return true;
  }
  if (a instanceof KubeMap && b instanceof CelMap) {
    if (a.size !== b.size) return false;
    for (const key of Object.keys(a.raw)) {
      if (a.propSchema(key)) {
        const ck = a.mode === "object" ? (escapeProperty(key) ?? key) : key;
        const v = a.find(ck);
        const ov = b.get(ck);
        if ((v === undefined) !== (ov === undefined)) return false;
        if (v === undefined || ov === undefined) continue;
        const e = kubeEquals(v, ov, depth + 1);
        if (e !== true) return e;
      } else {
        if (!(b instanceof KubeMap)) return new CelError("no such overload");
        if (Object.hasOwn(b.raw, key) && !deepEqual(a.raw[key], b.raw[key])) return false;
      }
    }
    return true;
  }
  if (a instanceof CelMap && b instanceof CelMap) {
    if (a.size !== b.size) return false;
    for (const k of a.keys()) {
      const bv = b.get(k);
      if (bv === undefined) return false;
      const e = kubeEquals(a.get(k) as CelValue, bv, depth + 1);
      if (e !== true) return e;
    }
    return true;
  }
  const r: unknown = celEquals(a, b);
  return typeof r === "boolean" ? r : (r as CelError);
}

/** Kubernetes' list `+`: set lists union, map lists merge by key, other lists concatenate. */
export function kubeAddLists(a: readonly CelValue[], b: readonly CelValue[]): CelValue {
  const info = LIST_INFO.get(a);
  if (info?.kind === "set") {
    const seen = new Set<string>();
    const out: CelValue[] = [];
    for (const x of a) {
      const k = setKey(x);
      if (typeof k !== "string") return k;
      seen.add(k);
      out.push(x);
    }
    for (const y of b) {
      const k = setKey(y);
      if (typeof k !== "string") return k;
      if (!seen.has(k)) {
        seen.add(k);
        out.push(y);
      }
    }
    LIST_INFO.set(out, info);
    return out;
  }
  if (info?.kind === "map") {
    const out: CelValue[] = [...a];
    const idx = new Map<string, number>();
    for (let i = 0; i < out.length; i++) idx.set(mapListKey(out[i] as CelValue, info.keys), i);
    for (const y of b) {
      const k = mapListKey(y, info.keys);
      const i = idx.get(k);
      if (i !== undefined) out[i] = y;
      else {
        idx.set(k, out.length);
        out.push(y);
      }
    }
    LIST_INFO.set(out, info);
    return out;
  }
  return [...a, ...b];
}
