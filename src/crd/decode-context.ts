/**
 * Typed decoding of a JSON value into Go-like structs, the way Kubernetes' JSON decoder (sigs.k8s.io/json,
 * a fork of encoding/json) does it: `null` leaves a field unset, a value of the wrong JSON type is an
 * `UnmarshalTypeError` (the first one is reported), unknown keys are collected as strict-decoding paths.
 */
import { type JsonObject, type JsonValue, isObject, kindOf, RawNumber } from "../value/json-value.js";

/** The maximum nesting depth of encoding/json (`exceeded max depth`). */
export const MAX_JSON_DEPTH = 10000;

/** Go's name of a JSON value's kind in `cannot unmarshal <kind>` messages. */
function goJsonKind(v: JsonValue): string {
  switch (kindOf(v)) {
    case "string":
      return "string";
    case "integer":
    case "number":
      return "number";
    case "boolean":
      return "bool";
    case "array":
      return "array";
    case "object":
      return "object";
    default:
      return "null";
  }
}

function numberLiteral(v: JsonValue): string {
  if (v instanceof RawNumber) return v.text;
  if (typeof v === "object" && v !== null && "value" in v) return `${(v as { value: number }).value}.0`;
  return String(v);
}

/** A Go `*json.UnmarshalTypeError` (its Struct/Field may be replaced by an outer decoder) or another error. */
type DecodeErr = ({ kind: "type"; what: string; goType: string; struct: string; field: string } | { kind: "plain"; msg: string }) & { at?: Loc };

function render(e: DecodeErr): string {
  if (e.kind === "plain") return e.msg;
  if (e.struct === "" && e.field === "") return `json: cannot unmarshal ${e.what} into Go value of type ${e.goType}`;
  return `json: cannot unmarshal ${e.what} into Go struct field ${e.struct}.${e.field} of type ${e.goType}`;
}

/**
 * Decoding state: saved errors (encoding/json keeps the first type error and goes on), the immediate error
 * of a custom unmarshaler (it aborts decoding and wins; a type error gets the OUTER Struct/Field, as
 * `addErrorContext` does), unknown-field paths for strict decoding, the depth guard.
 */
export class DecodeContext {
  private readonly saved: DecodeErr[] = [];
  /**
   * The decoded document, when known: encoding/json reports the first type error in document order, so with several
   * errors the one whose position comes first in it wins (the struct readers visit fields in their own order).
   */
  root: JsonValue | undefined;
  private immediate: DecodeErr | undefined;
  /** Unknown-field paths (strict decoding), in document order. */
  readonly unknownFields: string[] = [];
  /** Set when the nesting exceeds {@link MAX_JSON_DEPTH}. */
  tooDeep = false;

  /** The first error of converting the decoded object (its `v1.JSON` values), after decoding. */
  private conversion: string | undefined;

  /** The error Kubernetes reports (immediate first, else the first saved one, else the conversion's), rendered. */
  get errors(): string[] {
    const e = this.immediate ?? this.firstSaved();
    if (!e && this.conversion !== undefined) return [this.conversion];
    return e ? [render(e)] : [];
  }

  /** An error of the conversion that follows decoding (reported only when decoding itself had none). */
  conversionError(msg: string): void {
    this.conversion ??= msg;
  }

  /** The saved error that comes first in the document (the first recorded when positions are unknown). */
  private firstSaved(): DecodeErr | undefined {
    if (this.saved.length < 2 || this.root === undefined || this.saved.some((e) => e.at === undefined)) return this.saved[0];
    const root = this.root;
    const keyed = this.saved.map((e, i) => ({ e, i, pos: documentPosition(root, e.at!) }));
    keyed.sort((a, b) => comparePositions(a.pos, b.pos) || a.i - b.i);
    return keyed[0]!.e;
  }

  /** A type error of value `v` at `at` (its position in the document, when known). */
  typeError(struct: string, goField: string, v: JsonValue, goType: string, at?: Loc): void {
    const kind = goJsonKind(v);
    // encoding/json prints the literal only when a number does not parse into the integer target.
    const what = kind === "number" && (goType.startsWith("int") || (goType.startsWith("float") && v instanceof RawNumber)) ? `number ${numberLiteral(v)}` : kind;
    this.saved.push({ kind: "type", what, goType, struct, field: goField, ...(at ? { at } : {}) });
  }

  /** A saved non-type error (e.g. base64 of a []byte field) of the value at `at`. */
  plainError(msg: string, at?: Loc): void {
    this.saved.push({ kind: "plain", msg, ...(at ? { at } : {}) });
  }

  /** An error returned by a custom unmarshaler at this level (e.g. `boolean or JSON schema expected`). */
  immediateError(msg: string): void {
    this.immediate ??= { kind: "plain", msg };
  }

  /**
   * Runs a custom unmarshaler's inner (non-strict) decode of the field `struct.field`: its first error
   * becomes this decoder's immediate error, type errors re-labelled with the outer struct and field
   * (`field`: a Go field name, or the position whose Go field stack it is).
   */
  nested<T>(struct: string, field: string | Loc, fn: (inner: DecodeContext) => T): T {
    const inner = new DecodeContext();
    const r = fn(inner);
    if (inner.tooDeep) this.tooDeep = true;
    if (inner.conversion !== undefined) this.conversion ??= inner.conversion;
    const e = inner.immediate ?? inner.saved[0];
    if (e && !this.immediate) this.immediate = e.kind === "type" ? { ...e, struct, field: typeof field === "string" ? field : field.go } : e;
    return r;
  }
}

/**
 * Position in the decoded document. The two path texts are built only when read (for an error or an
 * unknown field): decoding a schema creates one position per node and almost never reads them.
 */
export class Loc {
  private goText: string | undefined;
  private strictText: string | undefined;
  private constructor(
    private readonly parent: Loc | null,
    private readonly segment: string,
    private readonly kind: LocKind,
    readonly depth: number,
  ) {}

  /** The document root. */
  static root(depth = 0): Loc {
    const l = new Loc(null, "", "root", depth);
    l.goText = "";
    l.strictText = "";
    return l;
  }

  /** @internal */
  static make(parent: Loc, segment: string, kind: LocKind, depth: number): Loc {
    return new Loc(parent, segment, kind, depth);
  }

  /** Go field stack joined with "." (no indices). */
  get go(): string {
    if (this.goText === undefined) {
      const p = this.parent!;
      if (this.kind === "field") this.goText = p.go === "" ? this.segment : `${p.go}.${this.segment}`;
      else if (this.kind === "resetGo") this.goText = "";
      else this.goText = p.go;
    }
    return this.goText;
  }

  /** The keys and indices from the root to this position. */
  segments(): string[] {
    const out: string[] = [];
    for (let l: Loc | null = this; l !== null && l.kind !== "root"; l = l.parent) if (l.kind !== "resetGo") out.push(l.segment);
    return out.reverse();
  }

  /** Strict path (`a.b[0].c.key`). */
  get strict(): string {
    if (this.strictText === undefined) {
      const p = this.parent!;
      if (this.kind === "index") this.strictText = `${p.strict}[${this.segment}]`;
      else if (this.kind === "resetGo") this.strictText = p.strict;
      else this.strictText = p.strict === "" ? this.segment : `${p.strict}.${this.segment}`;
    }
    return this.strictText;
  }
}

/**
 * Where the value at `at` is in `root`: per level, the index of its key among its object's keys (insertion order is
 * document order) or its array index; as far as the document has the path.
 */
function documentPosition(root: JsonValue, at: Loc): number[] {
  const out: number[] = [];
  let cur: JsonValue | undefined = root;
  for (const seg of at.segments()) {
    if (Array.isArray(cur)) {
      const i = Number(seg);
      out.push(i);
      cur = cur[i];
    } else if (isObject(cur) && Object.hasOwn(cur, seg)) {
      out.push(Object.keys(cur).indexOf(seg));
      cur = cur[seg];
    } else break;
  }
  return out;
}

function comparePositions(a: number[], b: number[]): number {
  for (let i = 0; i < a.length && i < b.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** `resetGo`: the same strict path, an empty Go field stack (inside a custom unmarshaler). */
type LocKind = "root" | "field" | "index" | "key" | "resetGo";

export const ROOT: Loc = Loc.root();

export function fieldLoc(l: Loc, name: string): Loc {
  return Loc.make(l, name, "field", l.depth + 1);
}

export function indexLoc(l: Loc, i: number): Loc {
  return Loc.make(l, String(i), "index", l.depth + 1);
}

/**
 * A map key: part of the strict path (sigs.k8s.io/json joins it with a dot, like a field), not of the Go
 * type-error field (encoding/json's FieldStack holds struct fields only).
 */
export function keyLoc(l: Loc, key: string): Loc {
  return Loc.make(l, key, "key", l.depth + 1);
}

/** `l`'s strict path with an empty Go field stack at `depth` (the inner decode of a custom unmarshaler). */
export function resetGoLoc(l: Loc, depth: number): Loc {
  return Loc.make(l, "", "resetGo", depth);
}

/** Struct-decoding helper: reads known fields with type checks, records unknown keys. */
export class StructReader {
  private readonly used = new Set<string>();
  constructor(
    readonly ctx: DecodeContext,
    readonly obj: JsonObject,
    readonly struct: string,
    readonly loc: Loc,
  ) {}

  /** Raw value of a key (undefined when absent or null). Marks the key as known. */
  raw(key: string): JsonValue | undefined {
    this.used.add(key);
    if (!Object.hasOwn(this.obj, key)) return undefined;
    const v = this.obj[key];
    return v === null ? undefined : v;
  }

  has(key: string): boolean {
    return Object.hasOwn(this.obj, key) && this.obj[key] !== null;
  }

  private err(key: string, v: JsonValue, goType: string): undefined {
    const at = fieldLoc(this.loc, key);
    this.ctx.typeError(this.struct, at.go, v, goType, at);
    return undefined;
  }

  /** A string field (`goType`: its named Go type, e.g. `v1.ResourceScope`). */
  string(key: string, goType = "string"): string | undefined {
    const v = this.raw(key);
    if (v === undefined) return undefined;
    if (typeof v !== "string") return this.err(key, v, goType);
    return v;
  }

  bool(key: string): boolean | undefined {
    const v = this.raw(key);
    if (v === undefined) return undefined;
    if (typeof v !== "boolean") return this.err(key, v, "bool");
    return v;
  }

  /** An int64 / int32 field. */
  int(key: string, goType = "int64"): number | undefined {
    const v = this.raw(key);
    if (v === undefined) return undefined;
    const k = kindOf(v);
    if (k !== "integer") return this.err(key, v, goType);
    const n = Number(v);
    if (goType === "int32" && (n > 2147483647 || n < -2147483648)) return this.err(key, v, goType);
    return n;
  }

  /** A float64 field (any number). */
  float(key: string): number | undefined {
    const v = this.raw(key);
    if (v === undefined) return undefined;
    const k = kindOf(v);
    if (k !== "integer" && k !== "number") return this.err(key, v, "float64");
    return typeof v === "object" && v !== null && "value" in v ? (v as { value: number }).value : Number(v);
  }

  stringArray(key: string): string[] | undefined {
    const v = this.raw(key);
    if (v === undefined) return undefined;
    if (!Array.isArray(v)) return this.err(key, v, "[]string");
    const out: string[] = [];
    for (const x of v) {
      if (x === null) out.push("");
      else if (typeof x !== "string") {
        this.err(key, x, "string");
        out.push("");
      } else out.push(x);
    }
    return out;
  }

  stringMap(key: string): Record<string, string> | undefined {
    const v = this.raw(key);
    if (v === undefined) return undefined;
    if (!isObject(v)) return this.err(key, v, "map[string]string");
    const out: Record<string, string> = {};
    for (const k of Object.keys(v)) {
      const x = v[k];
      if (x === null || x === undefined) Object.defineProperty(out, k, { value: "", enumerable: true, writable: true, configurable: true });
      else if (typeof x !== "string") this.err(key, x, "string");
      else Object.defineProperty(out, k, { value: x, enumerable: true, writable: true, configurable: true });
    }
    return out;
  }

  /** A nested struct; returns the object (or undefined with a type error). */
  object(key: string, goType: string): JsonObject | undefined {
    const v = this.raw(key);
    if (v === undefined) return undefined;
    if (!isObject(v)) return this.err(key, v, goType);
    return v;
  }

  array(key: string, goType: string): JsonValue[] | undefined {
    const v = this.raw(key);
    if (v === undefined) return undefined;
    if (!Array.isArray(v)) return this.err(key, v, goType);
    return v;
  }

  /** Records every key not read as an unknown field. */
  finish(ignore: readonly string[] = []): void {
    for (const k of Object.keys(this.obj)) {
      if (!this.used.has(k) && !ignore.includes(k)) this.ctx.unknownFields.push(fieldLoc(this.loc, k).strict);
    }
  }
}
