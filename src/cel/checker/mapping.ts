/**
 * Type-parameter substitutions during checking (cel-go `checker/mapping.go`). cel-go keys the
 * map by the formatted type; substitutions are only ever recorded for type parameters, so the
 * key is the parameter name. Instead of copying the map for every tentative assignability test
 * (as cel-go does), changes are journaled and rolled back on failure.
 * @module
 */
import type { CelType } from "../types/types.js";

/** A substitution map from type parameters to types, with rollback. */
export class Mapping {
  private readonly map = new Map<string, CelType>();
  private readonly journal: [string, CelType | undefined][] = [];

  add(from: CelType, to: CelType): void {
    if (from.kind !== "type_param") return;
    this.journal.push([from.name, this.map.get(from.name)]);
    this.map.set(from.name, to);
  }

  find(from: CelType): CelType | undefined {
    return from.kind === "type_param" ? this.map.get(from.name) : undefined;
  }

  /** A checkpoint for {@link rollback}. */
  mark(): number {
    return this.journal.length;
  }

  /** Undoes every change made after `mark`. */
  rollback(mark: number): void {
    while (this.journal.length > mark) {
      const [k, prev] = this.journal.pop() as [string, CelType | undefined];
      if (prev === undefined) this.map.delete(k);
      else this.map.set(k, prev);
    }
  }
}
