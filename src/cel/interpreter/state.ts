/**
 * Evaluation state: activation lookup, comprehension slots, runtime cost and limit.
 *
 * @module
 */

import type { CelValue } from "../values/values.js";

/** Variables for one evaluation. */
export type Activation =
  | Readonly<Record<string, CelValue>>
  | ReadonlyMap<string, CelValue>
  | ((name: string) => CelValue | undefined);

/** Error message when the runtime cost limit is exceeded (cel-go). */
export const COST_LIMIT_MESSAGE = "operation cancelled: actual cost limit exceeded";

/** Thrown to unwind an evaluation whose cost exceeded the limit. */
export class CostExceeded extends Error {}

/** Mutable state of one evaluation (reused across evaluations of a program). */
export class State {
  cost = 0;
  limit = Number.POSITIVE_INFINITY;
  readonly slots: CelValue[];
  /** 0: none, 1: record, 2: Map, 3: function. */
  private kind = 0;
  act: Activation | undefined;
  busy = false;
  constructor(nSlots: number) {
    this.slots = new Array<CelValue>(nSlots).fill(null);
  }
  /** Whether the activation may bind dotted (qualified) names; computed lazily per evaluation. */
  private dotted: boolean | undefined;
  hasDottedNames(): boolean {
    if (this.dotted === undefined) {
      if (this.kind === 3) this.dotted = true;
      else if (this.kind === 2) this.dotted = [...(this.act as ReadonlyMap<string, CelValue>).keys()].some((k) => k.includes("."));
      else if (this.kind === 1) this.dotted = Object.keys(this.act as object).some((k) => k.includes("."));
      else this.dotted = false;
    }
    return this.dotted;
  }
  reset(a: Activation | undefined, limit: number): void {
    this.dotted = undefined;
    this.cost = 0;
    this.limit = limit;
    this.act = a;
    this.kind = a === undefined ? 0 : typeof a === "function" ? 3 : a instanceof Map ? 2 : 1;
  }
  resolve(name: string): CelValue | undefined {
    switch (this.kind) {
      case 1: {
        const rec = this.act as Readonly<Record<string, CelValue>>;
        return Object.hasOwn(rec, name) ? rec[name] : undefined;
      }
      case 2:
        return (this.act as ReadonlyMap<string, CelValue>).get(name);
      case 3:
        return (this.act as (n: string) => CelValue | undefined)(name);
      default:
        return undefined;
    }
  }
  /**
   * Charges `c`. The planner's most frequent closures (variables, field selections, constant-cost calls)
   * write this check in place, `if ((s.cost += c) > s.limit) throw new CostExceeded()`: a call per
   * charge is a visible share of a short run, whose code stays in V8's interpreter and baseline tiers.
   */
  add(c: number): void {
    this.cost += c;
    if (this.cost > this.limit) throw new CostExceeded();
  }
}

