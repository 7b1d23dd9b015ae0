/**
 * STABLE API for CEL-B — function implementations keyed by cel-go overload ids,
 * and the registry the planner dispatches through.
 *
 * Extension point: Kubernetes libraries (quantity, IP, CIDR, URL, semver...) add
 * {@link OverloadImpl}s for global functions (`receiver: false`) and receiver-style
 * methods (`receiver: true`, the target is the first argument), with runtime type
 * tags for their opaque types (the `celType.name` of a {@link CelOpaque}).
 *
 * @module
 */

import type { CelValue } from "../values/values.js";

/**
 * One overload. `args` are runtime type tags for dynamic dispatch, receiver
 * included: `int`, `uint`, `double`, `bool`, `string`, `bytes`, `null`, `list`,
 * `map`, `duration`, `timestamp`, `type`, `optional`, an opaque type name, or
 * `dyn` (any value).
 */
export interface OverloadImpl {
  /** cel-go overload id, e.g. `add_int64`, `contains_string`. */
  readonly id: string;
  /** Function name, e.g. `_+_`, `contains`, `sets.contains`. */
  readonly fn: string;
  /** Receiver style (`a.f(b)`); the target is passed as the first argument. */
  readonly receiver: boolean;
  /** Runtime type tags, receiver first. */
  readonly args: readonly string[];
  /** Non-strict functions receive error/unknown arguments instead of short-circuiting. */
  readonly nonStrict?: boolean;
  /** The implementation; arguments positionally (receiver first). May return a CelError. */
  impl(...args: never[]): CelValue;
}

/**
 * Per-call runtime cost callback (cel-go `ActualCostEstimator.CallCost`); return
 * `undefined` to use the default cost model.
 */
export type CallCostFn = ((
  fn: string,
  overloadId: string,
  args: readonly CelValue[],
  result: CelValue,
) => number | undefined) & {
  /**
   * Optional: what the model charges a call site, known when the program is planned (the function
   * name and overload id are fixed there), so the planner need not call it on every evaluation.
   */
  readonly shape?: (fn: string, overloadId: string) => CallCostShape;
};

/**
 * A {@link CallCostFn}'s answer for one call site: a constant cost for every call, `"default"` (it
 * always returns `undefined`: the default cost model applies), `"dynamic"` (ask it per call), or
 * `byOperands`: per call, but from the call's first two arguments alone (the planner then neither builds
 * an argument list nor calls the model with the function name; `undefined` means the default model).
 */
export type CallCostShape =
  | number
  | "default"
  | "dynamic"
  | { readonly byOperands: (a: CelValue, b: CelValue) => number | undefined };

/** Bound of the planner memo of a registry (entries beyond it restart the memo). */
const MAX_DERIVED = 4096;

/** Registry of overloads by function name. */
export class FunctionRegistry {
  private readonly byName = new Map<string, OverloadImpl[]>();
  private readonly byId = new Map<string, OverloadImpl>();
  /** Data derived from the overloads (the planner's dispatch tables), dropped on every change. */
  private readonly derived = new Map<string, unknown>();
  private derivedByObject = new WeakMap<object, unknown>();

  /** Creates a registry containing `overloads` (later ones replace same-id earlier ones). */
  constructor(...overloads: readonly (readonly OverloadImpl[])[]) {
    for (const list of overloads) this.add(...list);
  }

  /** Adds overloads; an overload with an existing id replaces it. */
  add(...overloads: readonly OverloadImpl[]): this {
    this.derived.clear();
    this.derivedByObject = new WeakMap();
    for (const o of overloads) {
      const prev = this.byId.get(o.id);
      if (prev) {
        const arr = this.byName.get(prev.fn);
        if (arr) arr.splice(arr.indexOf(prev), 1);
      }
      this.byId.set(o.id, o);
      let arr = this.byName.get(o.fn);
      if (!arr) this.byName.set(o.fn, (arr = []));
      arr.push(o);
    }
    return this;
  }

  /** Overloads of `fn` with `argc` arguments (receiver included) and the given call style. */
  lookup(fn: string, argc: number, receiver: boolean): OverloadImpl[] {
    const arr = this.byName.get(fn);
    if (!arr) return [];
    return arr.filter((o) => o.args.length === argc && o.receiver === receiver);
  }

  /** Whether any overload of `fn` exists. */
  hasFunction(fn: string): boolean {
    return (this.byName.get(fn)?.length ?? 0) > 0;
  }

  /** Every overload, in the order added. */
  overloads(): OverloadImpl[] {
    return [...this.byId.values()];
  }

  /** Overload by id. */
  byOverloadId(id: string): OverloadImpl | undefined {
    return this.byId.get(id);
  }

  /**
   * Planner memo: a value derived from this registry's overloads under `key` (undefined when
   * absent). Entries are dropped whenever {@link add} changes the overloads.
   */
  derivedGet(key: string): unknown {
    return this.derived.get(key);
  }

  /** Stores a value derived from this registry's current overloads (see {@link derivedGet}). */
  derivedSet(key: string, value: unknown): void {
    // keys may come from expression text (unknown function names): keep the memo bounded
    if (this.derived.size >= MAX_DERIVED) this.derived.clear();
    this.derived.set(key, value);
  }

  /** Like {@link derivedGet}, keyed by an object's identity. */
  derivedGetByObject(key: object): unknown {
    return this.derivedByObject.get(key);
  }

  /** Like {@link derivedSet}, keyed by an object's identity (held weakly). */
  derivedSetByObject(key: object, value: unknown): void {
    this.derivedByObject.set(key, value);
  }

  /** A copy of this registry (to extend without mutating a shared one). */
  clone(): FunctionRegistry {
    return new FunctionRegistry([...this.byId.values()]);
  }
}
