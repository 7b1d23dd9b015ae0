/**
 * The parser's node id → source offset table ({@link SourceInfo.positions}): a `Map<number, number>`
 * stored in an array indexed by id. The parser numbers nodes 1, 2, 3... and records each position
 * when the id is created, so keys arrive in ascending order and iteration by index is insertion
 * order. A key that would break that order (a caller adding an older id later, or a non-integer
 * key) moves the table into the ordinary `Map` storage, so it behaves like a `Map` in every case.
 *
 * @module
 */
import type { SourceInfo } from "../ast.js";

/** A `Map<number, number>` for ascending small integer keys, backed by an array. */
export class OffsetMap extends Map<number, number> {
  /** Offsets by id (holes for absent ids); unused once {@link fallback} is set. */
  private offs: (number | undefined)[] = [];
  private count = 0;
  /** Whether entries live in the inherited `Map` storage instead. */
  private fallback = false;

  override get size(): number {
    return this.fallback ? super.size : this.count;
  }
  override get(key: number): number | undefined {
    return this.fallback ? super.get(key) : this.offs[key];
  }
  override has(key: number): boolean {
    return this.fallback ? super.has(key) : this.offs[key] !== undefined;
  }
  override set(key: number, value: number): this {
    if (!this.fallback) {
      const offs = this.offs;
      if (offs[key] !== undefined) {
        offs[key] = value;
        return this;
      }
      if (Number.isInteger(key) && key >= offs.length && key < 0x40000000) {
        offs[key] = value;
        this.count++;
        return this;
      }
      this.toFallback();
    }
    super.set(key, value);
    return this;
  }
  override delete(key: number): boolean {
    if (this.fallback) return super.delete(key);
    const offs = this.offs;
    if (offs[key] === undefined) return false;
    offs[key] = undefined;
    this.count--;
    // keep `offs.length` (the next id must still come after the deleted one to stay in order)
    return true;
  }
  override clear(): void {
    this.offs = [];
    this.count = 0;
    this.fallback = false;
    super.clear();
  }
  override *entries(): MapIterator<[number, number]> {
    if (this.fallback) {
      yield* super.entries();
      return;
    }
    const offs = this.offs;
    for (let i = 0; i < offs.length; i++) {
      const v = offs[i];
      if (v !== undefined) yield [i, v];
    }
  }
  override *keys(): MapIterator<number> {
    for (const [k] of this.entries()) yield k;
  }
  override *values(): MapIterator<number> {
    for (const [, v] of this.entries()) yield v;
  }
  override [Symbol.iterator](): MapIterator<[number, number]> {
    return this.entries();
  }
  override forEach(fn: (value: number, key: number, map: Map<number, number>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) fn.call(thisArg, v, k, this);
  }

  private toFallback(): void {
    const offs = this.offs;
    this.fallback = true;
    this.offs = [];
    this.count = 0;
    for (let i = 0; i < offs.length; i++) {
      const v = offs[i];
      if (v !== undefined) super.set(i, v);
    }
  }
}
