/**
 * Runtime overload dispatch by value type tags.
 *
 * @module
 */

import { tagOf } from "../values/ops.js";
import type { CelValue } from "../values/values.js";
import type { OverloadImpl } from "./functions.js";

// biome-ignore lint/suspicious/noExplicitAny: positional dispatch to heterogeneous implementations
export type Impl = (...a: any[]) => CelValue;

/** A dispatch candidate: the overload with its implementation and runtime cost function. */
export interface Cand {
  readonly ov: OverloadImpl;
  readonly impl: Impl;
}

function matches(c: OverloadImpl, vals: readonly CelValue[]): boolean {
  for (let i = 0; i < vals.length; i++) {
    const want = c.args[i] as string;
    if (want !== "dyn" && tagOf(vals[i] as CelValue) !== want) return false;
  }
  return true;
}

export function pickN(cands: readonly Cand[], vals: readonly CelValue[]): Cand | undefined {
  for (const c of cands) if (matches(c.ov, vals)) return c;
  return undefined;
}

/**
 * Builds a dispatcher for unary/binary calls: overloads whose parameter tags are all concrete
 * are found through a tag table; overloads with `dyn` parameters are tried in declaration order
 * (the first matching overload in declaration order wins, as with a linear scan).
 */
export function makeDispatcher(cands: readonly Cand[]): (x: CelValue, y: CelValue) => Cand | undefined {
  // Runtime tags are always verified, even for an overload the checker resolved: arguments typed
  // `dyn` may hold any value (cel-go's implementations check operand traits the same way).
  const table = new Map<string, { c: Cand; index: number }>();
  const dynamic: { c: Cand; index: number }[] = [];
  cands.forEach((c, index) => {
    if (c.ov.args.includes("dyn")) dynamic.push({ c, index });
    else {
      const key = c.ov.args.join(",");
      if (!table.has(key)) table.set(key, { c, index });
    }
  });
  const binary = (cands[0]?.ov.args.length ?? 0) === 2;
  if (dynamic.length === 0) {
    if (!binary) {
      const unary = new Map<string, Cand>();
      for (const [k, v] of table) unary.set(k, v.c);
      return (x) => unary.get(tagOf(x));
    }
    // two-level lookup without building a key string for the common homogeneous case
    const same = new Map<string, Cand>();
    for (const [k, v] of table) {
      const [a, b] = k.split(",");
      if (a === b) same.set(a as string, v.c);
    }
    const intInt = same.get("int");
    const strStr = same.get("string");
    return (x, y) => {
      if (typeof x === "bigint" && typeof y === "bigint" && intInt !== undefined) return intInt;
      if (typeof x === "string" && typeof y === "string" && strStr !== undefined) return strStr;
      const tx = tagOf(x);
      const ty = tagOf(y);
      if (tx === ty) return same.get(tx);
      return table.get(`${tx},${ty}`)?.c;
    };
  }
  if (table.size === 0 && dynamic.length === 1) {
    const only = (dynamic[0] as { c: Cand }).c;
    if (only.ov.args.every((t) => t === "dyn")) return () => only;
  }
  const m2 = (ov: OverloadImpl, x: CelValue, y: CelValue): boolean => {
    const a0 = ov.args[0] as string;
    if (a0 !== "dyn" && tagOf(x) !== a0) return false;
    if (!binary) return true;
    const a1 = ov.args[1] as string;
    return a1 === "dyn" || tagOf(y) === a1;
  };
  if (table.size === 0) {
    const dyn = dynamic.map((d) => d.c);
    // indexed loops: a for-of allocates an iterator (and a result per step) in V8's lower tiers
    return (x, y) => {
      for (let i = 0; i < dyn.length; i++) {
        const c = dyn[i]!;
        if (m2(c.ov, x, y)) return c;
      }
      return undefined;
    };
  }
  return (x, y) => {
    const hit = table.get(binary ? `${tagOf(x)},${tagOf(y)}` : tagOf(x));
    for (let i = 0; i < dynamic.length; i++) {
      const d = dynamic[i]!;
      if (hit !== undefined && d.index > hit.index) break;
      if (m2(d.c.ov, x, y)) return d.c;
    }
    return hit?.c;
  };
}

