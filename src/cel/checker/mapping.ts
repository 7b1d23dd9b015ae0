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
  /** Created on the first substitution (most checks record none). */
  private map: Map<string, CelType> | undefined;
  private readonly journal: [string, CelType | undefined][] = [];

  add(from: CelType, to: CelType): void {
    if (from.kind !== "type_param") return;
    const map = (this.map ??= new Map());
    this.journal.push([from.name, map.get(from.name)]);
    map.set(from.name, to);
  }

  find(from: CelType): CelType | undefined {
    return from.kind === "type_param" ? this.map?.get(from.name) : undefined;
  }

  /** A checkpoint for {@link rollback}. */
  mark(): number {
    return this.journal.length;
  }

  /** Undoes every change made after `mark`. */
  rollback(mark: number): void {
    while (this.journal.length > mark) {
      const [k, prev] = this.journal.pop() as [string, CelType | undefined];
      // entries were journaled by add(), so the map exists
      const map = this.map as Map<string, CelType>;
      if (prev === undefined) map.delete(k);
      else map.set(k, prev);
    }
  }
}
