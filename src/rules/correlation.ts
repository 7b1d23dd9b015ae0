/**
 * Old/new value correlation over the structural schema (apiserver `pkg/cel/common/equality.go`
 * CorrelatedObject and `maplist.go` MakeMapList), used for CEL transition rules and ratcheting.
 */
import type { Structural } from "../structural/structural.js";
import { deepEqual, isObject, type JsonObject, type JsonValue, kindOf } from "../value/json-value.js";

function compositeKey(obj: JsonObject, keys: readonly string[]): string | undefined {
  const parts: string[] = [];
  for (const k of keys) {
    if (!Object.hasOwn(obj, k)) return undefined;
    const v = obj[k]!;
    const kind = kindOf(v);
    if (kind !== "boolean" && kind !== "integer" && kind !== "number" && kind !== "string") return undefined;
    parts.push(`${kind[0]}${String(v)}`);
  }
  return parts.join("\u0000");
}

/** `MakeMapList(sts, oldItems).Get`: the old item with the same map keys (list-type=map only). */
export function makeMapList(s: Structural, old: readonly JsonValue[] | undefined): (item: JsonValue | undefined) => JsonValue | undefined {
  const keys = s.xListMapKeys ?? [];
  if (s.type !== "array" || s.xListType !== "map" || keys.length === 0 || !old || old.length === 0) return () => undefined;
  const m = new Map<string, JsonValue>();
  for (const it of old) {
    if (!isObject(it)) continue;
    const k = compositeKey(it, keys);
    if (k !== undefined && !m.has(k)) m.set(k, it);
  }
  return (item) => {
    if (!isObject(item)) return undefined;
    const k = compositeKey(item, keys);
    return k === undefined ? undefined : m.get(k);
  };
}

/** A correlated old/new pair at one node. */
export class Correlation {
  private cmp: boolean | undefined;
  private children = new Map<string, Correlation | null>();
  private mapList: ((item: JsonValue | undefined) => JsonValue | undefined) | undefined;

  constructor(
    readonly value: JsonValue | undefined,
    readonly oldValue: JsonValue | undefined,
    readonly schema: Structural | undefined,
  ) {}

  /** `Key(field)`. */
  key(field: string): Correlation | null {
    const id = `k${field}`;
    if (this.children.has(id)) return this.children.get(id)!;
    let res: Correlation | null = null;
    const o = this.oldValue;
    const n = this.value;
    if (this.schema && isObject(o) && isObject(n) && Object.hasOwn(o, field) && Object.hasOwn(n, field)) {
      const s = this.schema.properties?.get(field) ?? this.schema.additionalProperties?.schema;
      if (s) res = new Correlation(n[field], o[field], s);
    }
    this.children.set(id, res);
    return res;
  }

  /** `Index(i)`: only list-type=map items correlate. */
  index(i: number): Correlation | null {
    const id = `i${i}`;
    if (this.children.has(id)) return this.children.get(id)!;
    let res: Correlation | null = null;
    const o = this.oldValue;
    const n = this.value;
    if (this.schema?.items && Array.isArray(o) && Array.isArray(n) && i < n.length && this.schema.xListType === "map") {
      if (!this.mapList) this.mapList = makeMapList(this.schema, o);
      const old = this.mapList(n[i]);
      if (old !== undefined && old !== null) res = new Correlation(n[i], old, this.schema.items);
    }
    this.children.set(id, res);
    return res;
  }

  /** `CachedDeepEqual()`. */
  cachedDeepEqual(): boolean {
    if (this.cmp === undefined) this.cmp = this.compute();
    return this.cmp;
  }

  private compute(): boolean {
    const o = this.oldValue ?? null;
    const n = this.value ?? null;
    if (o === null && n === null) return true;
    if (o === null || n === null) return false;
    if (Array.isArray(o) !== Array.isArray(n) || isObject(o) !== isObject(n)) return false;
    if (Array.isArray(o) && Array.isArray(n)) {
      if (o.length !== n.length) return false;
      if (this.schema?.xListType !== "map") return deepEqual(o, n);
      for (let i = 0; i < n.length; i++) {
        const c = this.index(i);
        if (!c?.cachedDeepEqual()) return false;
      }
      return true;
    }
    if (isObject(o) && isObject(n)) {
      if (Object.keys(o).length !== Object.keys(n).length) return false;
      for (const k of Object.keys(n)) {
        const c = this.key(k);
        if (!c?.cachedDeepEqual()) return false;
      }
      return true;
    }
    return deepEqual(o, n);
  }
}
