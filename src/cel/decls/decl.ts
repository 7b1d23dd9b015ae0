/**
 * Function and variable declarations (cel-go `common/decls`): a function has named overloads,
 * each with a cel-go overload id, argument types (receiver first for member overloads) and a
 * result type. Type parameters are derived from the signature.
 * @module
 */
import { type CelType, collectTypeParams } from "../types/types.js";

/** One overload of a function. */
export interface OverloadDecl {
  /** cel-go overload id, e.g. `add_int64`, `string_size`. */
  readonly id: string;
  /** Receiver-style (`a.f(b)`): `args[0]` is the receiver type. */
  readonly member: boolean;
  readonly args: readonly CelType[];
  readonly result: CelType;
  /** Names of the type parameters used by the signature. */
  readonly typeParams: readonly string[];
  /** Evaluated with error/unknown arguments (logical operators, conditional). */
  readonly nonStrict: boolean;
}

/** A function name and its overloads, in declaration order. */
export interface FunctionDecl {
  readonly name: string;
  readonly overloads: readonly OverloadDecl[];
}

/** A declared identifier. */
export interface VariableDecl {
  readonly name: string;
  readonly type: CelType;
}

/** Builds a global-call overload. */
export function overload(id: string, args: readonly CelType[], result: CelType, nonStrict = false): OverloadDecl {
  return mk(id, false, args, result, nonStrict);
}

/** Builds a receiver-style overload (`args[0]` is the receiver). */
export function memberOverload(id: string, args: readonly CelType[], result: CelType): OverloadDecl {
  return mk(id, true, args, result, false);
}

function mk(id: string, member: boolean, args: readonly CelType[], result: CelType, nonStrict: boolean): OverloadDecl {
  const tp: string[] = [];
  for (const a of args) collectTypeParams(a, tp);
  collectTypeParams(result, tp);
  return Object.freeze({ id, member, args: Object.freeze([...args]), result, typeParams: Object.freeze(tp), nonStrict });
}

/** Builds a function declaration. */
export function fn(name: string, ...overloads: OverloadDecl[]): FunctionDecl {
  return Object.freeze({ name, overloads: Object.freeze(overloads) });
}

/**
 * Merges function declarations with the same name (later overloads appended; an overload id
 * that already exists is kept once). Returns a map keyed by function name.
 */
export function mergeFunctions(...lists: readonly (readonly FunctionDecl[])[]): Map<string, FunctionDecl> {
  const out = new Map<string, FunctionDecl>();
  for (const list of lists) {
    for (const f of list) {
      const prev = out.get(f.name);
      if (prev === undefined) {
        out.set(f.name, f);
        continue;
      }
      const ids = new Set(prev.overloads.map((o) => o.id));
      out.set(f.name, fn(f.name, ...prev.overloads, ...f.overloads.filter((o) => !ids.has(o.id))));
    }
  }
  return out;
}
