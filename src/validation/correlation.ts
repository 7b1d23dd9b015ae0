/**
 * apiserver `pkg/cel/common` CorrelatedObject for OpenAPI ratcheting: pairs a new value with the old
 * value at the same place (object keys with a property or additionalProperties schema; list items of
 * `x-kubernetes-list-type: map` lists by their map keys) and answers `CachedDeepEqual`.
 */
import { type JsonObject, type JsonValue, isObject, kindOf, toNumber } from "../value/json-value.js";
import { goDeepEqual as deepEqual } from "./deep-equal.js";
import { goQuote } from "../go/fmt.js";
import type { SchemaNode } from "./compile.js";

function goPercentF(f: number): string {
  if (Math.abs(f) < 1e21) return f.toFixed(6);
  return `${BigInt(f).toString()}.000000`;
}

/** The map-list key of an item (`singleKeyStrategy` / `multiKeyStrategy`), or undefined when unkeyed. */
function compositeKey(obj: JsonObject, keys: readonly string[]): string | undefined {
  if (keys.length === 1) {
    const k = keys[0]!;
    if (!Object.hasOwn(obj, k)) return undefined;
    const v = obj[k];
    switch (kindOf(v)) {
      case "boolean":
        return `b${String(v)}`;
      case "integer":
        return `i${String(v)}`;
      case "number":
        return `f${String(toNumber(v as number))}`;
      case "string":
        return `s${v as string}`;
      default:
        return undefined;
    }
  }
  let out = "m";
  for (const k of keys) {
    if (!Object.hasOwn(obj, k)) return undefined;
    const v = obj[k];
    switch (kindOf(v)) {
      case "boolean":
        out += `\x00${String(v)}`;
        break;
      case "integer":
        out += `\x00${String(v)}`;
        break;
      case "number":
        out += `\x00${goPercentF(toNumber(v as number))}`;
        break;
      case "string":
        out += `\x00${goQuote(v as string)}`;
        break;
      default:
        return undefined;
    }
  }
  return out;
}

/** An old/new pair at one node of the object, with its schema. */
export class CorrelatedObject {
  private comparison: boolean | undefined;
  /** undefined until built (Go: `mapList == nil`); null = the empty map list. */
  private mapList: Map<string, JsonValue> | null | undefined;
  private children: Map<string | number, CorrelatedObject> | undefined;

  constructor(
    readonly value: JsonValue,
    readonly oldValue: JsonValue,
    readonly schema: SchemaNode,
  ) {}

  /** `Key(field)`: the correlated child for an object key, or null. */
  key(field: string): CorrelatedObject | null {
    const existing = this.children?.get(`k${field}`);
    if (existing) return existing;
    const o = this.oldValue;
    const n = this.value;
    if (!isObject(o) || !isObject(n)) return null;
    if (!Object.hasOwn(o, field) || !Object.hasOwn(n, field)) return null;
    let schema = this.schema.properties?.get(field);
    if (!schema) schema = this.schema.additionalProperties?.schema;
    if (!schema) return null;
    const res = new CorrelatedObject(n[field] as JsonValue, o[field] as JsonValue, schema);
    if (!this.children) this.children = new Map();
    this.children.set(`k${field}`, res);
    return res;
  }

  /** `Index(i)`: the correlated child for a list item (map lists only), or null. */
  index(i: number): CorrelatedObject | null {
    const existing = this.children?.get(i);
    if (existing) return existing;
    const n = this.value;
    if (!Array.isArray(n) || n.length <= i) return null;
    const oldItem = this.correlateOldValueForChildAtNewIndex(i);
    if (oldItem === undefined || oldItem === null) return null;
    const items = this.schema.items;
    if (!items) return null;
    const res = new CorrelatedObject(n[i] as JsonValue, oldItem, items);
    if (!this.children) this.children = new Map();
    this.children.set(i, res);
    return res;
  }

  private correlateOldValueForChildAtNewIndex(i: number): JsonValue | undefined {
    const o = this.oldValue;
    const n = this.value;
    if (!Array.isArray(o) || !Array.isArray(n) || n.length <= i) return undefined;
    if (this.schema.listType !== "map") return undefined;
    if (this.mapList === undefined) this.mapList = this.makeMapList(o);
    if (this.mapList === null) return undefined;
    const item = n[i];
    if (!isObject(item)) return undefined;
    const key = compositeKey(item, this.schema.listMapKeys);
    return key === undefined ? undefined : this.mapList.get(key);
  }

  private makeMapList(items: JsonValue[]): Map<string, JsonValue> | null {
    const s = this.schema;
    if (s.types[0] !== "array" || s.listType !== "map" || s.listMapKeys.length === 0 || items.length === 0) return null;
    const m = new Map<string, JsonValue>();
    for (const it of items) {
      if (!isObject(it)) continue;
      const k = compositeKey(it, s.listMapKeys);
      if (k !== undefined && !m.has(k)) m.set(k, it);
    }
    return m;
  }

  /** `CachedDeepEqual()`: the old and new values are equal under correlation. */
  cachedDeepEqual(): boolean {
    if (this.comparison === undefined) this.comparison = this.computeDeepEqual();
    return this.comparison;
  }

  private computeDeepEqual(): boolean {
    const o = this.oldValue;
    const n = this.value;
    if (n === null && o === null) return true;
    if (n === null || o === null) return false;
    const oa = Array.isArray(o);
    const na = Array.isArray(n);
    const om = isObject(o);
    const nm = isObject(n);
    if (oa !== na || om !== nm) return false;
    if (oa && na) {
      if (o.length !== n.length) return false;
      for (let i = 0; i < n.length; i++) {
        const child = this.index(i);
        if (!child) {
          if (this.mapList === undefined) return deepEqual(o, n);
          return false;
        }
        if (!child.cachedDeepEqual()) return false;
      }
      return true;
    }
    if (om && nm) {
      const keys = Object.keys(n);
      if (Object.keys(o).length !== keys.length) return false;
      for (const k of keys) {
        const child = this.key(k);
        if (!child?.cachedDeepEqual()) return false;
      }
      return true;
    }
    return deepEqual(o, n);
  }
}
