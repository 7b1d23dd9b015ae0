/**
 * Assignability, unification and substitution of types during checking — a port of the logic
 * in cel-go `checker/types.go`.
 * @module
 */
import {
  type CelType,
  DynType,
  isAssignableType,
  isExactType,
  mapType,
  NullType,
  opaqueType,
  typeTypeWithParam,
} from "../types/types.js";
import { listOf } from "./list-of.js";
import type { Mapping } from "./mapping.js";

/** dyn or any. */
export function isDyn(t: CelType): boolean {
  return t.kind === "dyn" || t.kind === "any";
}

/** error type. */
export function isError(t: CelType): boolean {
  return t.kind === "error";
}

/** dyn, any or error. */
export function isDynOrError(t: CelType): boolean {
  return isError(t) || isDyn(t);
}

/** Returns the wrapped type of `optional_type(T)` and whether it was optional. */
export function maybeUnwrapOptional(t: CelType): [CelType, boolean] {
  if (t.kind === "opaque" && t.name === "optional_type" && t.params.length === 1) {
    return [t.params[0] as CelType, true];
  }
  return [t, false];
}

/** Whether `t1` is equal to or less specific (via dyn / type params) than `t2`. */
export function isEqualOrLessSpecific(t1: CelType, t2: CelType): boolean {
  if (isDyn(t1) || t1.kind === "type_param") return true;
  if (isDyn(t2) || t2.kind === "type_param") return false;
  if (t1.kind !== t2.kind) return false;
  switch (t1.kind) {
    case "opaque":
      if (t1.name !== t2.name || t1.params.length !== t2.params.length) return false;
      return t1.params.every((p, i) => isEqualOrLessSpecific(p, t2.params[i] as CelType));
    case "list":
      return isEqualOrLessSpecific(t1.params[0] as CelType, t2.params[0] as CelType);
    case "map":
      return (
        isEqualOrLessSpecific(t1.params[0] as CelType, t2.params[0] as CelType) &&
        isEqualOrLessSpecific(t1.params[1] as CelType, t2.params[1] as CelType)
      );
    case "type":
      return true;
    default:
      return isExactType(t1, t2);
  }
}

function isLegacyNullable(t: CelType): boolean {
  switch (t.kind) {
    case "opaque":
    case "struct":
    case "any":
    case "duration":
    case "timestamp":
      return true;
    default:
      return false;
  }
}

function isAssignableNull(t: CelType): boolean {
  return isLegacyNullable(t) || isAssignableType(t, NullType);
}

/** Whether `t1` is assignable to `t2`, updating `m` with type-param substitutions. */
export function internalIsAssignable(m: Mapping, t1: CelType, t2: CelType): boolean {
  if (t2.kind === "type_param") {
    const [valid, t2HasSub] = isValidTypeSubstitution(m, t1, t2);
    if (valid) return true;
    if (t2HasSub) return false;
  }
  if (t1.kind === "type_param") {
    return isValidTypeSubstitution(m, t2, t1)[0];
  }
  if (isDynOrError(t1) || isDynOrError(t2)) return true;
  if (t1.kind === "null_type") return isAssignableNull(t2);
  if (t2.kind === "null_type") return isAssignableNull(t1);
  switch (t1.kind) {
    case "bool":
    case "bytes":
    case "double":
    case "int":
    case "string":
    case "uint":
    case "any":
    case "duration":
    case "timestamp":
    case "struct":
      return isAssignableType(t2, t1);
    case "type":
      return t2.kind === "type";
    case "opaque":
    case "list":
    case "map":
      return t1.kind === t2.kind && t1.name === t2.name && internalIsAssignableList(m, t1.params, t2.params);
    default:
      return false;
  }
}

function isValidTypeSubstitution(m: Mapping, t1: CelType, t2: CelType): [boolean, boolean] {
  if (t1.kind === t2.kind && isExactType(t1, t2)) return [true, true];
  const t2Sub = m.find(t2);
  if (t2Sub !== undefined) {
    if (t1.kind === t2Sub.kind && isExactType(t1, t2Sub)) return [true, true];
    if (internalIsAssignable(m, t1, t2Sub)) {
      const t2New = mostGeneral(t1, t2Sub);
      if (notReferencedIn(m, t2, t2New)) m.add(t2, t2New);
      return [true, true];
    }
    return [false, true];
  }
  if (notReferencedIn(m, t2, t1)) {
    m.add(t2, t1);
    return [true, false];
  }
  return [false, false];
}

/** Pairwise assignability of two type lists of equal length. */
export function internalIsAssignableList(m: Mapping, l1: readonly CelType[], l2: readonly CelType[]): boolean {
  if (l1.length !== l2.length) return false;
  for (let i = 0; i < l1.length; i++) {
    if (!internalIsAssignable(m, l1[i] as CelType, l2[i] as CelType)) return false;
  }
  return true;
}

/** Whether `t1` is assignable to `t2`; `m` keeps the substitutions only when it is. */
export function isAssignable(m: Mapping, t1: CelType, t2: CelType): boolean {
  const mark = m.mark();
  if (internalIsAssignable(m, t1, t2)) return true;
  m.rollback(mark);
  return false;
}

/** Whether `l1` is assignable to `l2`; `m` keeps the substitutions only when it is. */
export function isAssignableList(m: Mapping, l1: readonly CelType[], l2: readonly CelType[]): boolean {
  const mark = m.mark();
  if (internalIsAssignableList(m, l1, l2)) return true;
  m.rollback(mark);
  return false;
}

/** The more general of two types known to unify. */
export function mostGeneral(t1: CelType, t2: CelType): CelType {
  return isEqualOrLessSpecific(t1, t2) ? t1 : t2;
}

/** The occurs check: `t` does not appear (transitively) within `within`. */
export function notReferencedIn(m: Mapping, t: CelType, within: CelType): boolean {
  if (isExactType(t, within)) return false;
  switch (within.kind) {
    case "type_param": {
      const sub = m.find(within);
      return sub === undefined ? true : notReferencedIn(m, t, sub);
    }
    case "opaque":
    case "list":
    case "map":
    case "type":
      return within.params.every((p) => notReferencedIn(m, t, p));
    default:
      return true;
  }
}

/**
 * Replaces bound type parameters by their substitution; unbound ones by dyn when
 * `typeParamToDyn`.
 */
export function substitute(m: Mapping, t: CelType, typeParamToDyn: boolean): CelType {
  if (t.kind === "type_param") {
    const sub = m.find(t);
    if (sub !== undefined) return substitute(m, sub, typeParamToDyn);
    return typeParamToDyn ? DynType : t;
  }
  const ps = t.params;
  if (ps.length === 0) return t;
  let changed: CelType[] | undefined;
  for (let i = 0; i < ps.length; i++) {
    const p = ps[i] as CelType;
    const q = substitute(m, p, typeParamToDyn);
    if (q !== p && changed === undefined) changed = ps.slice(0, i);
    if (changed !== undefined) changed.push(q);
  }
  if (changed === undefined) return t;
  switch (t.kind) {
    case "opaque":
      return opaqueType(t.name, ...changed);
    case "list":
      return listOf(changed[0] as CelType);
    case "map":
      return mapType(changed[0] as CelType, changed[1] as CelType);
    case "type":
      return typeTypeWithParam(changed[0] as CelType);
    default:
      return t;
  }
}
