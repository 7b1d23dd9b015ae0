/**
 * A `Map<number, V>` for AST node ids (small non-negative integers), stored in an array indexed by
 * id (plus the keys in insertion order once they stop ascending). The parser's positions are written
 * once per node, and an array store is much cheaper than a hash-map insert. (The checker keeps plain
 * Maps: its maps are read from many sites, where a Map subclass measured slower overall.) It is a real
 * `Map` subclass with `Map` semantics (iteration in insertion order); keys that are not small integers,
 * or `undefined` values, move it to the inherited `Map` storage.
 *
 * @module
 */

const MAX_DENSE_KEY = 0x1000000;

/** A `Map<number, V>` backed by an array for small integer keys. */
export class IdMap<V> extends Map<number, V> {
  /** Values by id (holes for absent ids); unused once {@link fallback} is set. */
  private vals: (V | undefined)[] = [];
  /**
   * Keys in insertion order; a deleted key leaves -1 (as a Map's own table does). `undefined` while
   * every new key was larger than the ones before (the parser's ids): index order is then insertion order.
   */
  private order: number[] | undefined;
  /** The largest key added while {@link order} is `undefined`. */
  private last = -1;
  /** How many keys {@link order} held when it was built from index order. */
  private prefix = 0;
  private count = 0;
  /** Whether entries live in the inherited `Map` storage instead. */
  private fallback = false;

  /**
   * The map of the keys `k` of `vals` with `vals[k] !== undefined` (ascending: insertion order), taking
   * `vals` over: `count` such keys, none above `last`. What `setAbove` in ascending key order (and
   * `delete`) would have built, without a call per key.
   */
  static ascending<V>(vals: (V | undefined)[], count: number, last: number): IdMap<V> {
    const m = new IdMap<V>();
    if (last >= MAX_DENSE_KEY) {
      for (let k = 0; k < vals.length; k++) if (vals[k] !== undefined) m.set(k, vals[k] as V);
      return m;
    }
    m.vals = vals;
    m.count = count;
    m.last = last;
    return m;
  }

  /**
   * One more than the largest id this map's array may hold (0 when its entries live in the `Map`
   * storage): every node id of a parsed AST is below its positions map's bound, so a consumer can size
   * arrays indexed by node id once.
   */
  idBound(): number {
    return this.fallback ? 0 : this.vals.length;
  }

  override get size(): number {
    return this.fallback ? super.size : this.count;
  }
  override get(key: number): V | undefined {
    return this.fallback ? super.get(key) : this.vals[key];
  }
  override has(key: number): boolean {
    return this.fallback ? super.has(key) : this.vals[key] !== undefined;
  }
  /**
   * `set(key, value)` for an integer key above every key set so far (a parser's fresh node ids):
   * the common case without `set`'s checks.
   */
  setAbove(key: number, value: V): this {
    if (this.fallback || this.order !== undefined || !(key > this.last) || key >= MAX_DENSE_KEY || (key | 0) !== key || value === undefined)
      return this.set(key, value);
    this.vals[key] = value;
    this.last = key;
    this.count++;
    return this;
  }
  override set(key: number, value: V): this {
    if (!this.fallback) {
      if (value !== undefined && Number.isInteger(key) && key >= 0 && key < MAX_DENSE_KEY) {
        const vals = this.vals;
        if (vals[key] === undefined) {
          let order = this.order;
          if (order === undefined) {
            if (key > this.last) this.last = key;
            else order = this.materializeOrder();
          }
          if (order !== undefined) order.push(key);
          this.count++;
        }
        vals[key] = value;
        return this;
      }
      this.toFallback();
    }
    super.set(key, value);
    return this;
  }
  override delete(key: number): boolean {
    if (this.fallback) return super.delete(key);
    const vals = this.vals;
    if (vals[key] === undefined) return false;
    vals[key] = undefined;
    const order = this.order;
    if (order !== undefined) order[order.lastIndexOf(key)] = -1;
    this.count--;
    return true;
  }
  override clear(): void {
    this.vals = [];
    this.order = undefined;
    this.last = -1;
    this.count = 0;
    this.fallback = false;
    super.clear();
  }
  override *entries(): MapIterator<[number, V]> {
    if (this.fallback) {
      yield* super.entries();
      return;
    }
    // live, like a Map iterator: entries added meanwhile are visited, deleted ones skipped
    let i = 0;
    if (this.order === undefined) {
      for (; i < this.vals.length; i++) {
        const v = this.vals[i];
        if (v === undefined) continue;
        yield [i, v];
        if (this.order !== undefined) {
          // an older key was added meanwhile: continue in the insertion-order list after the keys
          // up to `i` (the list starts with the keys present then, ascending)
          const o = this.order as number[];
          let j = 0;
          while (j < this.prefix && (o[j] as number) <= i) j++;
          i = j;
          break;
        }
      }
      if (this.order === undefined) return;
    }
    const order = this.order as number[];
    for (; i < order.length; i++) {
      const k = order[i] as number;
      if (k < 0) continue;
      const v = this.vals[k];
      if (v !== undefined) yield [k, v];
    }
  }
  override *keys(): MapIterator<number> {
    for (const [k] of this.entries()) yield k;
  }
  override *values(): MapIterator<V> {
    for (const [, v] of this.entries()) yield v;
  }
  override [Symbol.iterator](): MapIterator<[number, V]> {
    return this.entries();
  }
  override forEach(fn: (value: V, key: number, map: Map<number, V>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) fn.call(thisArg, v, k, this);
  }

  private toFallback(): void {
    const vals = this.vals;
    const order = this.order ?? this.materializeOrder();
    this.fallback = true;
    this.vals = [];
    this.order = undefined;
    this.count = 0;
    for (const k of order) if (k >= 0) super.set(k, vals[k] as V);
  }

  /** Switches from index order to an explicit insertion-order list (the present keys, ascending). */
  private materializeOrder(): number[] {
    const order: number[] = [];
    const vals = this.vals;
    for (let i = 0; i < vals.length; i++) if (vals[i] !== undefined) order.push(i);
    this.order = order;
    this.prefix = order.length;
    return order;
  }
}
