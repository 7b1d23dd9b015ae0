/**
 * Small helpers of the type checker: literal types, qualified names, type instantiation.
 * @module
 */
import type { Expr } from "../ast.js";
import { BoolType, BytesType, type CelType, DoubleType, IntType, NullType, StringType, UintType } from "../types/types.js";

/** Replaces the overload's type parameters by fresh type variables. */
export function instantiate(t: CelType, fresh: ReadonlyMap<string, CelType>): CelType {
  if (t.kind === "type_param") return fresh.get(t.name) ?? t;
  const ps = t.params;
  if (ps.length === 0) return t;
  const out: CelType[] = new Array<CelType>(ps.length);
  let changed = false;
  for (let i = 0; i < ps.length; i++) {
    const p = ps[i] as CelType;
    const q = instantiate(p, fresh);
    if (q !== p) changed = true;
    out[i] = q;
  }
  return changed ? { kind: t.kind, name: t.name, params: out } : t;
}

/** The type of a literal of the given constant kind. */
export function constType(kind: string): CelType {
  switch (kind) {
    case "bool":
      return BoolType;
    case "bytes":
      return BytesType;
    case "double":
      return DoubleType;
    case "int":
      return IntType;
    case "uint":
      return UintType;
    case "string":
      return StringType;
    default:
      return NullType;
  }
}

/** Qualifier names of a select chain ending in an identifier (`a.b.c` → [a, b, c]). */
export function computeQualifiers(e: Expr): string[] | undefined {
  const q: string[] = [];
  let cur: Expr = e;
  while (cur.kind === "select") {
    if (cur.testOnly) return undefined;
    q.push(cur.field);
    cur = cur.operand;
    if (cur.kind === "ident") {
      q.push(cur.name);
      return q.reverse();
    }
  }
  return undefined;
}

/** cel-go `containers.ToQualifiedName`. */
export function toQualifiedName(e: Expr): string | undefined {
  if (e.kind === "ident") return e.name;
  if (e.kind === "select" && !e.testOnly) {
    const op = toQualifiedName(e.operand);
    return op === undefined ? undefined : `${op}.${e.field}`;
  }
  return undefined;
}

/** Minimal rendering of a node for the optional-select error (cel-go prints the Go struct). */
export function debugExpr(e: Expr): string {
  switch (e.kind) {
    case "ident":
      return e.name;
    case "const":
      return e.value.kind;
    default:
      return e.kind;
  }
}
