/**
 * cel-go `ext.Sets`, `ext.Lists` and optional-type functions.
 *
 * @module
 */

import type { OverloadImpl } from "../interpreter/functions.js";
import { celCompare, celEquals, tagOf } from "../values/ops.js";
import type { CelValue } from "../values/values.js";
import { CelDuration, CelError, CelMap, CelOptional, CelTimestamp, CelUint } from "../values/values.js";
import { err, global, member } from "./overload.js";

const contains = (l: readonly CelValue[], v: CelValue): boolean => l.some((x) => celEquals(x, v) === true);

function setsOverloads(): OverloadImpl[] {
  return [
    global("list_sets_contains_list", "sets.contains", ["list", "list"], (a: CelValue[], b: CelValue[]) =>
      b.every((x) => contains(a, x)),
    ),
    global("list_sets_equivalent_list", "sets.equivalent", ["list", "list"], (a: CelValue[], b: CelValue[]) =>
      a.every((x) => contains(b, x)) && b.every((x) => contains(a, x)),
    ),
    global("list_sets_intersects_list", "sets.intersects", ["list", "list"], (a: CelValue[], b: CelValue[]) =>
      a.some((x) => contains(b, x)),
    ),
  ];
}

function flatten(l: readonly CelValue[], depth: bigint): CelValue[] | CelError {
  if (depth < 0n) return err("level must be non-negative");
  const out: CelValue[] = [];
  for (const x of l) {
    if (Array.isArray(x) && depth > 0n) {
      const f = flatten(x, depth - 1n);
      if (f instanceof CelError) return f;
      out.push(...f);
    } else out.push(x);
  }
  return out;
}

function sortList(l: readonly CelValue[]): CelValue {
  if (l.length === 0) return l;
  const t = tagOf(l[0] as CelValue);
  for (const x of l) if (tagOf(x) !== t) return err("list elements must have the same type");
  const copy = [...l];
  let bad = false;
  copy.sort((a, b) => {
    const c = celCompare(a, b);
    if (typeof c !== "number") {
      bad = true;
      return 0;
    }
    return c;
  });
  return bad ? err("list elements must be comparable") : copy;
}

function sortByKeys(l: readonly CelValue[], keys: readonly CelValue[]): CelValue {
  if (l.length !== keys.length)
    return err(
      `@sortByAssociatedKeys() expected a list of the same size as the associated keys list, but got ${l.length} and ${keys.length} elements respectively`,
    );
  if (l.length === 0) return l;
  const t = tagOf(keys[0] as CelValue);
  if (!["int", "uint", "double", "bool", "string", "bytes", "duration", "timestamp"].includes(t))
    return err("list elements must be comparable");
  for (const k of keys) if (tagOf(k) !== t) return err("list elements must have the same type");
  const idx = l.map((_, i) => i);
  idx.sort((a, b) => {
    const c = celCompare(keys[a] as CelValue, keys[b] as CelValue);
    return typeof c === "number" ? c : 0;
  });
  return idx.map((i) => l[i] as CelValue);
}

function listsOverloads(): OverloadImpl[] {
  const out: OverloadImpl[] = [
    member("list_slice", "slice", ["list", "int", "int"], (l: CelValue[], s: bigint, e: bigint) => {
      if (s < 0n || e < 0n) return err(`cannot slice(${s}, ${e}), negative indexes not supported`);
      if (s > e) return err(`cannot slice(${s}, ${e}), start index must be less than or equal to end index`);
      if (BigInt(l.length) < e) return err(`cannot slice(${s}, ${e}), list is length ${l.length}`);
      return l.slice(Number(s), Number(e));
    }),
    member("list_flatten", "flatten", ["list"], (l: CelValue[]) => flatten(l, 1n)),
    member("list_flatten_int", "flatten", ["list", "int"], flatten),
    global("lists_range", "lists.range", ["int"], (n: bigint) => {
      if (n > 10_000_000n) return err("lists.range: size too large");
      const out: CelValue[] = [];
      for (let i = 0n; i < n; i++) out.push(i);
      return out;
    }),
    member("list_reverse", "reverse", ["list"], (l: CelValue[]) => [...l].reverse()),
    member("list_distinct", "distinct", ["list"], (l: CelValue[]) => {
      const out: CelValue[] = [];
      for (const x of l) if (!contains(out, x)) out.push(x);
      return out;
    }),
  ];
  for (const t of ["int", "uint", "double", "bool", "string", "bytes", "duration", "timestamp"]) {
    out.push(member(`list_${t}_sort`, "sort", ["list"], sortList));
    out.push(member(`list_${t}_sortByAssociatedKeys`, "@sortByAssociatedKeys", ["list", "list"], sortByKeys));
  }
  return out;
}

/** Whether `v` is the zero value of its type (cel-go `optional.ofNonZeroValue`). */
export function isZeroValue(v: CelValue): boolean {
  if (v === null || v === false || v === 0n || v === 0 || v === "") return true;
  if (v instanceof CelUint) return v.value === 0n;
  if (Array.isArray(v) || v instanceof Uint8Array) return v.length === 0;
  if (v instanceof CelMap) return v.size === 0;
  if (v instanceof CelDuration || v instanceof CelTimestamp) return v.nanos === 0n;
  if (v instanceof CelOptional) return v.value === undefined;
  return false;
}

function optionalOverloads(): OverloadImpl[] {
  return [
    global("optional_of", "optional.of", ["dyn"], (v: CelValue) => CelOptional.of(v)),
    global("optional_ofNonZeroValue", "optional.ofNonZeroValue", ["dyn"], (v: CelValue) =>
      isZeroValue(v) ? CelOptional.NONE : CelOptional.of(v),
    ),
    global("optional_none", "optional.none", [], () => CelOptional.NONE),
    member("optional_hasValue", "hasValue", ["optional"], (o: CelOptional) => o.value !== undefined),
    member("optional_value", "value", ["optional"], (o: CelOptional) =>
      o.value === undefined ? err("optional.none() dereference") : o.value,
    ),
    member("optional_or_optional", "or", ["optional", "optional"], (a: CelOptional, b: CelOptional) =>
      a.value !== undefined ? a : b,
    ),
    member("optional_orValue_value", "orValue", ["optional", "dyn"], (a: CelOptional, b: CelValue) => a.value ?? b),
  ];
}

/** Sets, lists and optional overloads. */
export function collectionsExtOverloads(): OverloadImpl[] {
  return [...setsOverloads(), ...listsOverloads(), ...optionalOverloads()];
}
