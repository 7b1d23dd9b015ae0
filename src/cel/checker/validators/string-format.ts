/**
 * cel-go's `string.format` AST validator (ext/formatting.go `stringFormatValidator` for strings
 * library versions 1–3, ext/formatting_v2.go `stringFormatValidatorV2` for version 4+): calls
 * `'<literal>'.format([<list literal>])` are checked at compile time — clause syntax, argument
 * count and each argument's checked type against its clause.
 * @module
 */
import type { CallExpr, Expr, ListExpr } from "../../ast.js";
import { type CelType, DynType } from "../../types/types.js";
import type { Reference } from "../checker.js";
import type { ValidationContext } from "./validator.js";

type Clause = "s" | "d" | "f" | "e" | "b" | "x" | "o";

interface ClauseRule {
  readonly kinds: readonly string[];
  readonly message: string;
}

const STRING_KINDS = [
  "list",
  "map",
  "int",
  "uint",
  "double",
  "bool",
  "string",
  "timestamp",
  "bytes",
  "duration",
  "type",
  "null_type",
];
const STRING_MESSAGE =
  "string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given %s";

const RULES_V1: Readonly<Record<Exclude<Clause, "s">, ClauseRule>> = {
  d: { kinds: ["int", "uint"], message: "decimal clause can only be used on integers, was given %s" },
  f: { kinds: ["double", "string"], message: "fixed-point clause can only be used on doubles, was given %s" },
  e: { kinds: ["double", "string"], message: "scientific clause can only be used on doubles, was given %s" },
  b: { kinds: ["int", "uint", "bool"], message: "only integers and bools can be formatted as binary, was given %s" },
  x: {
    kinds: ["int", "uint", "string", "bytes"],
    message: "only integers, byte buffers, and strings can be formatted as hex, was given %s",
  },
  o: { kinds: ["int", "uint"], message: "octal clause can only be used on integers, was given %s" },
};

const RULES_V2: Readonly<Record<Exclude<Clause, "s">, ClauseRule>> = {
  d: { kinds: ["int", "uint", "double"], message: "decimal clause can only be used on ints, uints, and doubles, was given %s" },
  f: {
    kinds: ["int", "uint", "double"],
    message: "fixed-point clause can only be used on ints, uints, and doubles, was given %s",
  },
  e: {
    kinds: ["int", "uint", "double"],
    message: "scientific clause can only be used on ints, uints, and doubles, was given %s",
  },
  b: { kinds: ["bool", "int", "uint"], message: "only ints, uints, and bools can be formatted as binary, was given %s" },
  x: {
    kinds: ["int", "uint", "string", "bytes"],
    message: "only ints, uints, bytes, and strings can be formatted as hex, was given %s",
  },
  o: { kinds: ["int", "uint"], message: "octal clause can only be used on ints and uints, was given %s" },
};

/** A format problem: message and the node it is reported at. */
class FormatProblem {
  constructor(
    readonly message: string,
    readonly exprId: number | undefined,
  ) {}
}

/** Options: the strings library version and the precision cap (0 = none). */
export interface StringFormatOptions {
  readonly version: number;
  readonly maxPrecision?: number;
}

/** Validates all `format` calls with a literal format string and a list-literal argument. */
export function validateStringFormat(ctx: ValidationContext, opts: StringFormatOptions): void {
  // candidates are calls of `format` (pre-order); none: nothing to validate
  const calls = ctx.callsNamed("format");
  if (calls.length === 0) return;
  let any = false;
  const refs = ctx.checked.referenceList();
  for (let i = 0; i < refs.length; i++) {
    if ((refs[i] as Reference).overloadIds?.includes("string_format") === true) {
      any = true;
      break;
    }
  }
  if (!any) return;
  for (const e of calls) {
    if (!isCandidate(ctx, e)) continue;
    const target = e.target as Expr & { kind: "const"; value: { kind: "string"; value: string } };
    const list = e.args[0] as ListExpr;
    const state = { requested: 0 };
    try {
      parseFormat(target.value.value, list.elements, ctx, opts, state);
    } catch (p) {
      if (!(p instanceof FormatProblem)) throw p;
      ctx.report(p.exprId ?? e.id, p.message);
      continue;
    }
    if (list.elements.length > state.requested) {
      ctx.report(
        e.id,
        `too many arguments supplied to string.format (expected ${state.requested}, got ${list.elements.length})`,
      );
    }
  }
}

function isCandidate(ctx: ValidationContext, e: CallExpr): boolean {
  if (e.target === undefined || e.function !== "format") return false;
  const ref = ctx.checked.referenceOf(e.id);
  if (ref?.name !== undefined && ref.name !== "format") return false;
  const ids = ref?.overloadIds ?? [];
  if (ids.length !== 0 && !ids.includes("string_format")) return false;
  if (e.target.kind !== "const" || e.target.value.kind !== "string") return false;
  return e.args.length === 1 && (e.args[0] as Expr).kind === "list";
}

function parseFormat(
  format: string,
  args: readonly Expr[],
  ctx: ValidationContext,
  opts: StringFormatOptions,
  state: { requested: number },
): void {
  // cel-go walks the format string byte by byte.
  const bytes = new TextEncoder().encode(format);
  let i = 0;
  let argIndex = 0;
  while (i < bytes.length) {
    if (bytes[i] !== 0x25) {
      i++;
      continue;
    }
    if (i + 1 < bytes.length && bytes[i + 1] === 0x25) {
      i += 2;
      continue;
    }
    state.requested++;
    const current = argIndex;
    if (i + 1 >= bytes.length) throw new FormatProblem("unexpected end of string", undefined);
    if (argIndex >= args.length) throw new FormatProblem(`index ${argIndex} out of range`, undefined);
    i += 1 + parseClause(bytes, i + 1, args[current] as Expr, ctx, opts);
    argIndex++;
  }
}

/** Parses one clause starting after `%`; returns the bytes read. Throws a FormatProblem. */
function parseClause(
  bytes: Uint8Array,
  start: number,
  arg: Expr,
  ctx: ValidationContext,
  opts: StringFormatOptions,
): number {
  let i = start;
  if (bytes[i] === 0x2e) {
    i++;
    let digits = "";
    for (;;) {
      if (i >= bytes.length) {
        throw clauseError("error while parsing precision: could not find end of precision specifier");
      }
      const b = bytes[i] as number;
      if (b < 0x30 || b > 0x39) break;
      digits += String.fromCharCode(b);
      i++;
    }
    if (digits === "") {
      throw clauseError(`error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing "": invalid syntax`);
    }
    const precision = Number(digits);
    const max = opts.maxPrecision ?? 0;
    if (max > 0 && precision > max) {
      throw clauseError(`error while parsing precision: precision ${precision} exceeds maximum allowed precision ${max}`);
    }
  }
  const b = bytes[i];
  if (b === undefined) throw clauseError("unrecognized formatting clause \"\"");
  const r = String.fromCharCode(b);
  i++;
  let clause: Clause;
  switch (r) {
    case "s":
    case "d":
    case "f":
    case "e":
    case "b":
    case "o":
      clause = r;
      break;
    case "x":
    case "X":
      clause = "x";
      break;
    default:
      throw clauseError(`unrecognized formatting clause "${r}"`);
  }
  checkArg(clause, arg, ctx, opts.version);
  return i - start;
}

function clauseError(msg: string): FormatProblem {
  return new FormatProblem(`could not parse formatting clause: ${msg}`, undefined);
}

function checkArg(clause: Clause, arg: Expr, ctx: ValidationContext, version: number): void {
  if (clause === "s") {
    const bad = verifyString(arg, ctx);
    if (bad !== undefined) {
      throw new FormatProblem(`error during formatting: ${STRING_MESSAGE.replace("%s", typeName(ctx.typeOf(bad.id)))}`, bad.id);
    }
    return;
  }
  const rule = (version >= 4 ? RULES_V2 : RULES_V1)[clause];
  if (!verifyTypeOneOf(ctx.typeOf(arg.id), rule.kinds)) {
    throw new FormatProblem(`error during formatting: ${rule.message.replace("%s", typeName(ctx.typeOf(arg.id)))}`, arg.id);
  }
}

function verifyTypeOneOf(t: CelType, kinds: readonly string[]): boolean {
  if (t.kind === DynType.kind) return true;
  return kinds.includes(t.kind);
}

function verifyString(sub: Expr, ctx: ValidationContext): Expr | undefined {
  if (!verifyTypeOneOf(ctx.typeOf(sub.id), STRING_KINDS)) return sub;
  if (sub.kind === "list") {
    for (const e of sub.elements) {
      const bad = verifyString(e, ctx);
      if (bad !== undefined) return bad;
    }
  } else if (sub.kind === "map") {
    for (const en of sub.entries) {
      const bk = verifyString(en.key, ctx);
      if (bk !== undefined) return bk;
      const bv = verifyString(en.value, ctx);
      if (bv !== undefined) return bv;
    }
  }
  return undefined;
}

/** cel-go `TypeName()` of a checked type (runtime type name, no parameters). */
function typeName(t: CelType): string {
  return t.name;
}
