/**
 * A checked CEL expression as plain JSON (for the compiled-program cache, ./program-entry.ts): the
 * expression tree as nested arrays (`[kind, id, ...]`; int and uint constants as decimal text, bytes as
 * numbers, non-finite and negative-zero doubles as text) and the checker's references as
 * `[id, name | 0, overloadIds | 0]` rows. The decoder validates everything it reads and throws
 * {@link MalformedJson} for anything else.
 */
import type { Constant, Expr, MapEntry, StructField } from "../cel/ast.js";
import type { CheckedInfo, Compiled } from "../cel/index.js";

const K_CONST = 0;
const K_IDENT = 1;
const K_SELECT = 2;
const K_CALL = 3;
const K_LIST = 4;
const K_MAP = 5;
const K_STRUCT = 6;
const K_COMPREHENSION = 7;

function encodeDouble(v: number): number | string {
  return Number.isFinite(v) && !Object.is(v, -0) ? v : Object.is(v, -0) ? "-0" : String(v);
}

function encodeConst(c: Constant): unknown {
  switch (c.kind) {
    case "null":
      return [0];
    case "bool":
      return [1, c.value];
    case "int":
      return [2, c.value.toString()];
    case "uint":
      return [3, c.value.toString()];
    case "double":
      return [4, encodeDouble(c.value)];
    case "string":
      return [5, c.value];
    case "bytes":
      return [6, Array.from(c.value)];
  }
}

/** The expression tree as nested arrays (`[kind, id, ...]`). */
export function encodeExpr(e: Expr, depth = 0): unknown {
  if (depth > 10000) throw new RangeError("expression nested too deeply");
  const d = depth + 1;
  switch (e.kind) {
    case "const":
      return [K_CONST, e.id, encodeConst(e.value)];
    case "ident":
      return [K_IDENT, e.id, e.name];
    case "select":
      return [K_SELECT, e.id, encodeExpr(e.operand, d), e.field, e.testOnly ? 1 : 0];
    case "call":
      return [K_CALL, e.id, e.function, e.target === undefined ? 0 : encodeExpr(e.target, d), e.args.map((a) => encodeExpr(a, d))];
    case "list":
      return [K_LIST, e.id, e.elements.map((x) => encodeExpr(x, d)), [...e.optionalIndices]];
    case "map":
      return [K_MAP, e.id, e.entries.map((x) => [x.id, encodeExpr(x.key, d), encodeExpr(x.value, d), x.optional ? 1 : 0])];
    case "struct":
      return [K_STRUCT, e.id, e.messageName, e.fields.map((x) => [x.id, x.field, encodeExpr(x.value, d), x.optional ? 1 : 0])];
    case "comprehension":
      return [
        K_COMPREHENSION,
        e.id,
        e.iterVar,
        e.iterVar2 ?? 0,
        encodeExpr(e.iterRange, d),
        e.accuVar,
        encodeExpr(e.accuInit, d),
        encodeExpr(e.loopCondition, d),
        encodeExpr(e.loopStep, d),
        encodeExpr(e.result, d),
      ];
  }
}

/** The checker's references as `[id, name | 0, overloadIds | 0]` rows, in the checker's order. */
export function encodeRefs(c: Compiled): unknown {
  const rows: unknown[] = [];
  for (const [id, ref] of c.checked.references) rows.push([id, ref.name ?? 0, ref.overloadIds ? [...ref.overloadIds] : 0]);
  return rows;
}

/** Thrown by the decoder for anything malformed. */
export class MalformedJson extends Error {}

const isInt = (x: unknown): x is number => Number.isSafeInteger(x);

function str(x: unknown): string {
  if (typeof x !== "string") throw new MalformedJson();
  return x;
}

function int(x: unknown): number {
  if (!isInt(x)) throw new MalformedJson();
  return x;
}

/** `x` as an array, or {@link MalformedJson}. */
export function arr(x: unknown): unknown[] {
  if (!Array.isArray(x)) throw new MalformedJson();
  return x;
}

function flag(x: unknown): boolean {
  if (x !== 0 && x !== 1) throw new MalformedJson();
  return x === 1;
}

const INT_TEXT = /^-?(0|[1-9][0-9]*)$/;
const UINT_TEXT = /^(0|[1-9][0-9]*)$/;

function decodeDouble(x: unknown): number {
  if (typeof x === "number") return x;
  if (x === "-0") return -0;
  if (x === "NaN") return Number.NaN;
  if (x === "Infinity") return Number.POSITIVE_INFINITY;
  if (x === "-Infinity") return Number.NEGATIVE_INFINITY;
  throw new MalformedJson();
}

function decodeConst(x: unknown): Constant {
  const a = arr(x);
  switch (a[0]) {
    case 0:
      return { kind: "null" };
    case 1:
      if (typeof a[1] !== "boolean") throw new MalformedJson();
      return { kind: "bool", value: a[1] };
    case 2:
      if (!INT_TEXT.test(str(a[1]))) throw new MalformedJson();
      return { kind: "int", value: BigInt(a[1] as string) };
    case 3:
      if (!UINT_TEXT.test(str(a[1]))) throw new MalformedJson();
      return { kind: "uint", value: BigInt(a[1] as string) };
    case 4:
      return { kind: "double", value: decodeDouble(a[1]) };
    case 5:
      return { kind: "string", value: str(a[1]) };
    case 6: {
      const bytes = arr(a[1]);
      const out = new Uint8Array(bytes.length);
      for (let i = 0; i < bytes.length; i++) {
        const b = bytes[i];
        if (!isInt(b) || b < 0 || b > 255) throw new MalformedJson();
        out[i] = b;
      }
      return { kind: "bytes", value: out };
    }
    default:
      throw new MalformedJson();
  }
}

/** The expression tree of {@link encodeExpr}. */
export function decodeExpr(x: unknown, depth = 0): Expr {
  if (depth > 10000) throw new MalformedJson();
  const d = depth + 1;
  const a = arr(x);
  const id = int(a[1]);
  switch (a[0]) {
    case K_CONST:
      return { kind: "const", id, value: decodeConst(a[2]) };
    case K_IDENT:
      return { kind: "ident", id, name: str(a[2]) };
    case K_SELECT:
      return { kind: "select", id, operand: decodeExpr(a[2], d), field: str(a[3]), testOnly: flag(a[4]) };
    case K_CALL: {
      const args = arr(a[4]).map((y) => decodeExpr(y, d));
      const fn = str(a[2]);
      return a[3] === 0 ? { kind: "call", id, function: fn, args } : { kind: "call", id, function: fn, target: decodeExpr(a[3], d), args };
    }
    case K_LIST:
      return { kind: "list", id, elements: arr(a[2]).map((y) => decodeExpr(y, d)), optionalIndices: arr(a[3]).map(int) };
    case K_MAP:
      return {
        kind: "map",
        id,
        entries: arr(a[2]).map((y): MapEntry => {
          const m = arr(y);
          return { id: int(m[0]), key: decodeExpr(m[1], d), value: decodeExpr(m[2], d), optional: flag(m[3]) };
        }),
      };
    case K_STRUCT:
      return {
        kind: "struct",
        id,
        messageName: str(a[2]),
        fields: arr(a[3]).map((y): StructField => {
          const f = arr(y);
          return { id: int(f[0]), field: str(f[1]), value: decodeExpr(f[2], d), optional: flag(f[3]) };
        }),
      };
    case K_COMPREHENSION: {
      const base = {
        kind: "comprehension" as const,
        id,
        iterVar: str(a[2]),
        iterRange: decodeExpr(a[4], d),
        accuVar: str(a[5]),
        accuInit: decodeExpr(a[6], d),
        loopCondition: decodeExpr(a[7], d),
        loopStep: decodeExpr(a[8], d),
        result: decodeExpr(a[9], d),
      };
      return a[3] === 0 ? base : { ...base, iterVar2: str(a[3]) };
    }
    default:
      throw new MalformedJson();
  }
}

/** A reference as the planner reads it. */
interface DecodedRef {
  name?: string;
  overloadIds?: readonly string[];
}

/** The references of {@link encodeRefs}, as the planner reads them. */
export function decodeRefs(x: unknown, idLists: Map<string, readonly string[]>): CheckedInfo & { names: Set<string> } {
  const refs = new Map<number, DecodedRef>();
  const names = new Set<string>();
  for (const row of arr(x)) {
    const r = arr(row);
    const ref: DecodedRef = {};
    if (r[1] !== 0) {
      ref.name = str(r[1]);
      names.add(ref.name);
    }
    if (r[2] !== 0) {
      const ids = arr(r[2]).map(str);
      const key = ids.join("\u0000");
      let shared = idLists.get(key);
      if (shared === undefined) idLists.set(key, (shared = ids));
      ref.overloadIds = shared;
    }
    refs.set(int(r[0]), ref);
  }
  return { references: refs, referenceOf: (id) => refs.get(id), names };
}
