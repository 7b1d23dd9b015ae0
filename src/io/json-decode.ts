/**
 * JSON documents decoded as the API server decodes a JSON body: integer literals that fit become int64,
 * every other number float64 (`1.0` is a {@link Float64} box), duplicate keys keep the last value and are
 * reported as sigs.k8s.io/json strict errors (`duplicate field "spec.foo"`), syntax errors use Go's
 * encoding/json wording. Several concatenated top-level values (a JSON stream) are accepted, as kubectl does.
 * The parser is iterative: deep nesting cannot overflow the stack.
 */
import { CrdkitError } from "../errors/crdkit-error.js";

/** encoding/json `maxNestingDepth` (also sigs.k8s.io/json): the deepest nesting a JSON body may have. */
export const JSON_MAX_DEPTH = 10000;

/** A UTF-16 surrogate without its partner. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
import { Float64, type JsonObject, type JsonValue, RawNumber, int64, setKey } from "../value/json-value.js";

export interface JsonDocument {
  value: JsonValue;
  /** Offset of the value's first character. */
  offset: number;
  /** `duplicate field "a.b"` texts. */
  duplicateFields: string[];
}

export interface JsonStreamResult {
  documents: JsonDocument[];
  /**
   * With `recordRangeErrors`: the first number literal beyond float64 (`1e400`), decoded as ±Infinity instead of
   * failing the parse (Go's scanner accepts it; only decoding it into a float64 fails).
   */
  outOfRange?: string;
  /** A syntax error (Go wording) and its offset; documents before it are kept. */
  problem?: { message: string; offset: number };
}

class JsonFail extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/y;

function quoteChar(c: string): string {
  if (c === "'") return "'\\''";
  if (c === '"') return "'\"'";
  return `'${c}'`;
}

/** Where the current `recordRangeErrors` decode records its first out-of-range literal (decoding is synchronous). */
let rangeRecord: { first?: string } | undefined;
/** Whether the current decode keeps literals that print otherwise as {@link RawNumber}s (`rawNumbers`). */
let keepRaw = false;

function numberValue(lit: string, isFloat: boolean, offset: number): JsonValue {
  if (!isFloat) {
    const b = BigInt(lit);
    if (b >= INT64_MIN && b <= INT64_MAX) return keepRaw && lit === "-0" ? new RawNumber(0, lit) : int64(b);
  }
  const f = Number(lit);
  if (!Number.isFinite(f)) {
    if (!rangeRecord) throw new JsonFail(`strconv.ParseFloat: parsing ${JSON.stringify(lit)}: value out of range`, offset);
    rangeRecord.first ??= lit;
    return keepRaw ? new RawNumber(f, lit) : new Float64(f);
  }
  // (a float64 prints as JS prints a number, so a literal that reads back as itself needs no box)
  if (keepRaw && String(f) !== lit) return new RawNumber(f, lit);
  return Number.isInteger(f) ? new Float64(f) : f;
}

interface Ctx {
  isArray: boolean;
  obj: JsonObject | JsonValue[];
  key: string | undefined;
  seen: Set<string> | undefined;
  path: string;
}

/**
 * Parses one or more concatenated JSON values. `rawNumbers`: every number literal that Go would print otherwise
 * (`-0`, `1.0`, `1e3`, beyond int64) is a {@link RawNumber} holding its text — for the texts that echo a body as
 * sent, never for a value the server works with.
 */
export function decodeJsonStream(text: string, opts: { recordRangeErrors?: boolean; rawNumbers?: boolean } = {}): JsonStreamResult {
  if (!opts.recordRangeErrors && !opts.rawNumbers) return decodeStream(text);
  const record: { first?: string } = {};
  if (opts.recordRangeErrors) rangeRecord = record;
  keepRaw = opts.rawNumbers === true;
  try {
    const r = decodeStream(text);
    return record.first === undefined ? r : { ...r, outOfRange: record.first };
  } finally {
    rangeRecord = undefined;
    keepRaw = false;
  }
}

function decodeStream(text: string): JsonStreamResult {
  const documents: JsonDocument[] = [];
  let pos = 0;
  const n = text.length;
  const ws = () => {
    while (pos < n) {
      const c = text.charCodeAt(pos);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) pos++;
      else break;
    }
  };
  try {
    for (;;) {
      ws();
      if (pos >= n) break;
      const start = pos;
      const dups: string[] = [];
      const value = parseValue();
      documents.push({ value, offset: start, duplicateFields: dups });

      function parseValue(): JsonValue {
        const stack: Ctx[] = [];
        let result: JsonValue | undefined;
        let expectValue = true;
        // encoding/json feeds a space at the end of input: a literal or number cut short fails on ' '
        const charOrEofSpace = (p: number): string => (p < n ? text[p]! : " ");
        const unexpected = (ctx: string): never => {
          if (pos >= n) throw new JsonFail("unexpected end of JSON input", pos);
          throw new JsonFail(`invalid character ${quoteChar(text[pos]!)} ${ctx}`, pos);
        };
        const finish = (v: JsonValue) => {
          const top = stack[stack.length - 1];
          if (!top) {
            result = v;
            return;
          }
          if (top.isArray) (top.obj as JsonValue[]).push(v);
          else {
            setKey(top.obj as JsonObject, top.key!, v);
            top.key = undefined;
          }
        };
        const readKey = (top: Ctx) => {
          if (text[pos] !== '"') unexpected("looking for beginning of object key string");
          const k = parseString();
          if (top.seen!.has(k)) dups.push(`duplicate field ${JSON.stringify(top.path === "" ? k : `${top.path}.${k}`)}`);
          else top.seen!.add(k);
          top.key = k;
          ws();
          if (text[pos] !== ":") unexpected("after object key");
          pos++;
        };
        const childPath = (top: Ctx | undefined): string => {
          if (!top) return "";
          if (top.isArray) return `${top.path}[${(top.obj as JsonValue[]).length}]`;
          return top.path === "" ? top.key! : `${top.path}.${top.key}`;
        };
        for (;;) {
          ws();
          if (expectValue) {
            if (pos >= n) unexpected("");
            const c = text[pos]!;
            if (c === "{" || c === "[") {
              // encoding/json's scanner: maxNestingDepth 10000, `invalid character '{' exceeded max depth`
              if (stack.length >= JSON_MAX_DEPTH) throw new JsonFail(`invalid character ${quoteChar(c)} exceeded max depth`, pos);
              const top = stack[stack.length - 1];
              const isArray = c === "[";
              stack.push({ isArray, obj: isArray ? [] : {}, key: undefined, seen: isArray ? undefined : new Set(), path: childPath(top) });
              pos++;
              ws();
              if (text[pos] === (isArray ? "]" : "}")) {
                pos++;
                finish(stack.pop()!.obj);
                expectValue = false;
              } else if (!isArray) readKey(stack[stack.length - 1]!);
              if (stack.length === 0) break;
              continue;
            }
            let v: JsonValue;
            if (c === '"') v = parseString();
            else if (text.startsWith("true", pos)) {
              v = true;
              pos += 4;
            } else if (text.startsWith("false", pos)) {
              v = false;
              pos += 5;
            } else if (text.startsWith("null", pos)) {
              v = null;
              pos += 4;
            } else if (c === "t" || c === "f" || c === "n") {
              // a broken literal: encoding/json names the first wrong character
              const lit = c === "t" ? "true" : c === "f" ? "false" : "null";
              let k = 1;
              while (pos + k < n && text[pos + k] === lit[k]) k++;
              pos += k;
              throw new JsonFail(`invalid character ${quoteChar(charOrEofSpace(pos))} in literal ${lit} (expecting ${quoteChar(lit[k]!)})`, pos);
            } else {
              NUMBER.lastIndex = pos;
              const m = NUMBER.exec(text);
              if (!m) {
                if (c === "-") {
                  pos++;
                  throw new JsonFail(`invalid character ${quoteChar(charOrEofSpace(pos))} in numeric literal`, pos);
                }
                unexpected("looking for beginning of value");
              }
              const after = pos + m![0].length;
              if (text[after] === "." || text[after] === "e" || text[after] === "E") {
                // `1.` / `1e` / `1e+` not followed by a digit
                let q = after + 1;
                if (text[after] !== "." && (text[q] === "+" || text[q] === "-")) q++;
                pos = q;
                const where = text[after] === "." ? "after decimal point in numeric literal" : "in exponent of numeric literal";
                throw new JsonFail(`invalid character ${quoteChar(charOrEofSpace(pos))} ${where}`, pos);
              }
              const lit = m![0];
              v = numberValue(lit, m![1] !== undefined || m![2] !== undefined, pos);
              pos += lit.length;
            }
            finish(v);
            expectValue = false;
            if (stack.length === 0) break;
            continue;
          }
          const top = stack[stack.length - 1]!;
          if (pos >= n) unexpected("");
          const c = text[pos]!;
          if (c === ",") {
            pos++;
            if (!top.isArray) {
              ws();
              readKey(top);
            }
            expectValue = true;
          } else if (c === (top.isArray ? "]" : "}")) {
            pos++;
            finish(stack.pop()!.obj);
            if (stack.length === 0) break;
          } else unexpected(top.isArray ? "after array element" : "after object key:value pair");
        }
        return result as JsonValue;
      }
    }
  } catch (e) {
    if (e instanceof JsonFail) return { documents, problem: { message: e.message, offset: e.offset } };
    throw e;
  }
  return { documents };

  function parseString(): string {
    // pos is at the opening quote.
    const start = pos + 1;
    let i = start;
    let simple = true;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) break;
      if (c === 0x5c) {
        simple = false;
        i += 2;
        continue;
      }
      if (c < 0x20) throw new JsonFail(`invalid character ${quoteChar(text[i]!)} in string literal`, i);
      i++;
    }
    if (i >= n) throw new JsonFail("unexpected end of JSON input", n);
    const raw = text.slice(start, i);
    pos = i + 1;
    if (simple) return raw;
    let decoded: string;
    try {
      decoded = JSON.parse(`"${raw}"`) as string;
    } catch {
      throw new JsonFail("invalid character in string escape code", start);
    }
    // encoding/json: a `\uXXXX` surrogate that does not pair with the next escape becomes U+FFFD
    return decoded.replace(LONE_SURROGATE, "\ufffd");
  }
}

/**
 * Parses a single JSON value into the crdkit value model (int64 vs float64 kept apart, as Go's
 * `json.Unmarshal` with int64 preservation); throws a {@link CrdkitError} on a syntax error or when the
 * text holds more than one value. For table tests and fixtures; request bodies use {@link decodeJsonStream}.
 */
export function parseGoJson(text: string): JsonValue {
  const r = decodeJsonStream(text);
  if (r.problem) throw new CrdkitError("json", `invalid JSON at ${r.problem.offset}: ${r.problem.message}`);
  if (r.documents.length !== 1) throw new CrdkitError("json", `expected one JSON value, got ${r.documents.length}`);
  return r.documents[0]!.value;
}
