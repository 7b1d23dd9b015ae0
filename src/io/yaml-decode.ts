/**
 * One YAML document → the value the API server would see: go-yaml v2 semantics for untyped targets
 * (YAML 1.1 scalars, merge keys, aliases, duplicate keys: the last value wins and each repeat is recorded
 * as go-yaml's strict error `line N: key "x" already set in map`), then sigs.k8s.io/yaml's conversion to
 * JSON (non-string keys become strings, NaN/Inf are refused) and the server's int64/float64 decoding.
 *
 * Parsing uses js-yaml's flat event stream (fast, offsets only); the events are kept so that source
 * positions can be computed later, only for documents that turn out to have errors.
 */
import { type Event, type ScalarEvent, getScalarValue, parseEvents } from "js-yaml";
import { type JsonObject, type JsonValue, deepClone, int64, isObject, setKey } from "../value/json-value.js";
import { formatGoFloat, goQuote } from "../go/fmt.js";
import { badTokenStart, goYamlSyntaxError } from "./go-yaml-errors.js";
import { goYamlFlowCompat } from "./go-yaml-flow.js";
import { type GoScalar, YamlValueError, longTag, resolvePlain, resolveTagged } from "./go-yaml-resolve.js";
import { JsonConversionError, floatAfterJsonRoundTrip, uintAfterJsonRoundTrip } from "../go/json.js";
import { formatGoFloat32 } from "../go/strconv.js";

/** Nesting limit of YAML documents (Kubernetes allows 10000; js-yaml's recursive parser cannot go that deep safely). */
export const MAX_DEPTH = 1000;
/** The problem reported for a YAML document nested deeper than {@link MAX_DEPTH} (a crdkit limit, not Kubernetes'). */
export const DEPTH_LIMIT_MESSAGE = `yaml: document nested more than ${MAX_DEPTH} levels deep: crdkit's YAML reader stops there (Kubernetes reads up to 10000 levels; JSON input is read to 10000)`;

const EV_DOCUMENT = 1;
const EV_SEQUENCE = 2;
const EV_MAPPING = 3;
const EV_SCALAR = 4;
const EV_ALIAS = 5;
const EV_POP = 6;
const STYLE_PLAIN = 1;

/** A fatal problem decoding a document (syntax or conversion), with the offset it refers to. */
export interface DecodeProblem {
  message: string;
  /** Offset in the chunk's text. */
  offset: number;
}

export interface YamlDocumentResult {
  /** The decoded value; `undefined` when the chunk holds no document (only comments / whitespace). */
  value?: JsonValue;
  /** Strict-decoding errors (duplicate keys) in go-yaml's wording, without the `yaml: unmarshal errors:` head. */
  duplicateKeys: string[];
  /** Offset (in the chunk) of the value of the first duplicate key. */
  firstDuplicateOffset?: number;
  problem?: DecodeProblem;
  /** Parser events of the document (for positions). */
  events?: Event[];
}

interface Frame {
  map: boolean;
  obj: JsonObject | JsonValue[];
  anchor: string | undefined;
  seen: Map<string, true> | undefined;
  /** Pending key of a mapping: its Go identity and JSON spelling, or merge. */
  keyId: string | undefined;
  keyJson: string;
  keyMerge: boolean;
  keyOffset: number;
  /** sigs.k8s.io/yaml's error for a key JSON cannot hold, completed with the value once it is known. */
  keyError?: string;
  start: number;
}

/** A key sigs.k8s.io/yaml cannot convert; the message lacks `, value: %+#v` until the value is read. */
class KeyFail extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** Go `%+#v` of a decoded go-yaml value (`"x"`, `1`, `<nil>`, `map[interface {}]interface {}{"k":1}`). */
function goSharpValue(v: JsonValue, inside = false): string {
  if (v === null) return inside ? "interface {}(nil)" : "<nil>";
  if (typeof v === "string") return goQuote(v);
  if (typeof v === "boolean" || typeof v === "number" || typeof v === "bigint") return String(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map((x) => goSharpValue(x, true)).join(", ")}}`;
  if (isObject(v)) {
    const keys = Object.keys(v).sort();
    return `map[interface {}]interface {}{${keys.map((k) => `${goQuote(k)}:${goSharpValue(v[k]!, true)}`).join(", ")}}`;
  }
  return formatGoFloat(Number(v));
}

class Fail extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

function goKeyId(s: GoScalar): string {
  switch (s.t) {
    case "str":
      return "s:" + s.v;
    case "int":
      return "i:" + s.v;
    case "uint":
      return "u:" + s.v;
    case "float":
      return "f:" + s.v;
    case "bool":
      return "b:" + s.v;
    default:
      return "n:";
  }
}

/** `%#v` of a go-yaml key (for duplicate-key messages). */
function goSharpV(s: GoScalar): string {
  switch (s.t) {
    case "str":
      return goQuote(s.v);
    case "int":
      return s.v.toString();
    case "uint":
      return "0x" + s.v.toString(16);
    case "float":
      return formatGoFloat(s.v);
    case "bool":
      return String(s.v);
    default:
      return "<nil>";
  }
}

/** sigs.k8s.io/yaml `convertToJSONableObject` key conversion. */
function jsonKey(s: GoScalar, offset: number): string {
  switch (s.t) {
    case "str":
      return s.v;
    case "int":
      return s.v.toString();
    case "bool":
      return s.v ? "true" : "false";
    case "float": {
      const f = formatGoFloat32(s.v);
      return f === "+Inf" ? ".inf" : f === "-Inf" ? "-.inf" : f === "NaN" ? ".nan" : f;
    }
    case "uint":
      throw new KeyFail(`unsupported map key of type: uint64, key: ${goSharpV(s)}`, offset);
    default:
      throw new KeyFail("unsupported map key of type: %!s(<nil>), key: <nil>", offset);
  }
}

function toJson(s: GoScalar, offset: number): JsonValue {
  switch (s.t) {
    case "null":
      return null;
    case "bool":
      return s.v;
    case "int":
      return int64(s.v);
    case "uint":
      return uintAfterJsonRoundTrip(s.v);
    case "float":
      try {
        return floatAfterJsonRoundTrip(s.v);
      } catch (e) {
        if (e instanceof JsonConversionError) throw new Fail(e.message, offset);
        throw e;
      }
    case "merge":
      return "<<";
    default:
      return s.v;
  }
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

// go-yaml v2's "excessive aliasing" guard.
function allowedAliasRatio(decodeCount: number): number {
  if (decodeCount <= 400000) return 0.99;
  if (decodeCount >= 4000000) return 0.1;
  return 0.99 - 0.89 * ((decodeCount - 400000) / 3600000);
}

function countNodes(v: JsonValue): number {
  let n = 0;
  const stack: JsonValue[] = [v];
  while (stack.length > 0) {
    const x = stack.pop()!;
    n++;
    if (Array.isArray(x)) for (const y of x) stack.push(y);
    else if (isObject(x)) for (const k of Object.keys(x)) stack.push(x[k]!);
  }
  return n;
}

/** Decodes the first YAML document of `text` (as go-yaml's Unmarshal does). */
export function decodeYamlDocument(input: string): YamlDocumentResult {
  // go-yaml v2's flow-context leniencies (see go-yaml-flow.ts): the rewritten text is parsed instead;
  // its events then do not match `input`, so they are not returned (positions fall back to the start).
  let text = input;
  let rewritten = false;
  const compat = GO_YAML_DIFFERS.test(input) ? goYamlFlowCompat(input, false) : {};
  if (compat.badEscapeOffset !== undefined) {
    // go-yaml reports the first problem: a syntax error before the escape wins
    const bad = compat.badEscapeOffset;
    const tokenAt = badTokenStart(input);
    if (tokenAt >= 0 && tokenAt < bad) {
      return { duplicateKeys: [], problem: { message: goYamlSyntaxError("", input, tokenAt, lineOf(input, tokenAt)), offset: tokenAt } };
    }
    try {
      parseEvents(compat.text ?? input, { maxDepth: MAX_DEPTH });
    } catch (e) {
      const p = syntaxProblem(e, compat.text ?? input);
      if (p.offset < bad && compat.text === undefined) return { duplicateKeys: [], problem: p };
    }
    const line = lineOf(input, compat.badEscapeOffset);
    const at = line > 1 ? `line ${line}: ` : "";
    return { duplicateKeys: [], problem: { message: `yaml: ${at}found unknown escape character`, offset: compat.badEscapeOffset } };
  }
  if (compat.text !== undefined) {
    text = compat.text;
    rewritten = true;
  }
  let events: Event[];
  try {
    events = parseEvents(text, { maxDepth: MAX_DEPTH });
  } catch (e) {
    const retry = isIndentationError(e) ? goYamlFlowCompat(text, true).text : undefined;
    try {
      if (retry === undefined) throw e;
      events = parseEvents(retry, { maxDepth: MAX_DEPTH });
      text = retry;
      rewritten = true;
    } catch {
      return { duplicateKeys: [], problem: syntaxProblem(e, text) };
    }
  }
  let i = 0;
  while (i < events.length && events[i]!.type !== EV_DOCUMENT) i++;
  if (i >= events.length) return { duplicateKeys: [] };
  const docEvents = events;
  const duplicateKeys: string[] = [];
  const dupOffsets: number[] = [];
  try {
    const value = build(text, docEvents, i + 1, duplicateKeys, dupOffsets);
    const r: YamlDocumentResult = { value, duplicateKeys, ...(rewritten ? {} : { events: docEvents }) };
    if (dupOffsets.length > 0 && !rewritten) r.firstDuplicateOffset = dupOffsets[0]!;
    return r;
  } catch (e) {
    const ev = rewritten ? {} : { events: docEvents };
    if (e instanceof Fail) return { duplicateKeys, problem: { message: e.message, offset: rewritten ? 0 : e.offset }, ...ev };
    if (e instanceof YamlValueError) return { duplicateKeys, problem: { message: e.message, offset: 0 }, ...ev };
    throw e;
  }
}

/** Text {@link goYamlFlowCompat} looks at before parsing: `:` before a flow indicator, `\'` and `\/` escapes. */
const GO_YAML_DIFFERS = /:[,[\]{}"']|[[{,]\s*\?\S|\\['/]/;

function isIndentationError(e: unknown): boolean {
  const err = e as { reason?: string; message?: string };
  return /deficient indentation/.test(err.reason ?? err.message ?? "");
}

function syntaxProblem(e: unknown, text: string): DecodeProblem {
  const err = e as { reason?: string; message?: string; mark?: { position?: number; line?: number } };
  const reason = err.reason ?? err.message ?? String(e);
  let offset = typeof err.mark?.position === "number" ? err.mark.position : 0;
  if (offset > text.length) offset = text.length;
  // go-yaml allows 10000 levels (`yaml: exceeded max depth of 10000`); js-yaml's recursive parser cannot
  // go past about 3000, so crdkit stops at MAX_DEPTH and says so in its own words
  if (/maxDepth/.test(reason) || e instanceof RangeError) return { message: DEPTH_LIMIT_MESSAGE, offset: /maxDepth/.test(reason) ? offset : 0 };
  const line = typeof err.mark?.line === "number" ? err.mark.line + 1 : lineOf(text, offset);
  return { message: goYamlSyntaxError(reason, text, offset, line), offset };
}

function scalarOf(text: string, ev: ScalarEvent): GoScalar {
  const s = getScalarValue(text, ev);
  if (ev.tagStart >= 0) {
    const tag = longTag(text.slice(ev.tagStart, ev.tagEnd));
    if (tag === "!") return { t: "str", v: s };
    if (tag === "tag:yaml.org,2002:merge") return { t: "merge" };
    return resolveTagged(tag, s);
  }
  if (ev.style !== STYLE_PLAIN) return { t: "str", v: s };
  return resolvePlain(s);
}

const STYLE_LITERAL = 4;
const STYLE_FOLDED = 5;

function offsetOf(ev: Event, fallback: number, text?: string): number {
  if (ev.type === EV_SCALAR && text !== undefined && (ev.style === STYLE_LITERAL || ev.style === STYLE_FOLDED) && ev.valueStart > 0) {
    // go-yaml's node of a block scalar starts at its `|` / `>` header, not at the content
    const h = Math.max(text.lastIndexOf("|", ev.valueStart - 1), text.lastIndexOf(">", ev.valueStart - 1));
    if (h >= 0) return h;
  }
  if (ev.type === EV_SCALAR) return ev.valueStart >= 0 ? ev.valueStart : fallback;
  if (ev.type === EV_MAPPING || ev.type === EV_SEQUENCE) return ev.start;
  if (ev.type === EV_ALIAS) return Math.max(0, ev.anchorStart - 1);
  return fallback;
}

function build(text: string, events: Event[], from: number, dups: string[], dupOffsets: number[]): JsonValue {
  const anchors = new Map<string, { value: JsonValue | undefined; scalar?: GoScalar; open: boolean; size: number }>();
  const stack: Frame[] = [];
  let root: JsonValue | undefined;
  let done = false;
  let decodeCount = 0;
  let aliasCount = 0;
  let lastOffset = 0;

  // goKey (the key's `%#v`) is only rendered for a duplicate
  const setEntry = (f: Frame, id: string, key: string, value: JsonValue, valueOffset: number, goKey: () => string) => {
    if (f.seen!.has(id)) {
      dups.push(`line ${lineOf(text, valueOffset)}: key ${goKey()} already set in map`);
      dupOffsets.push(valueOffset);
    }
    else f.seen!.set(id, true);
    setKey(f.obj as JsonObject, key, value);
  };

  const merge = (f: Frame, value: JsonValue, offset: number) => {
    const fail = () => {
      throw new Fail("yaml: map merge requires map or sequence of maps as the value", offset);
    };
    const mergeOne = (m: JsonValue) => {
      if (!isObject(m)) fail();
      const o = m as JsonObject;
      for (const k of Object.keys(o)) setEntry(f, "s:" + k, k, o[k]!, offset, () => goQuote(k));
    };
    if (isObject(value)) mergeOne(value);
    else if (Array.isArray(value)) {
      for (const m of value) if (!isObject(m)) fail();
      for (let j = value.length - 1; j >= 0; j--) mergeOne(value[j]!);
    } else fail();
  };

  // Places a finished node (value) into its parent; `scalar` is set for scalars (usable as keys).
  const place = (value: JsonValue, scalar: GoScalar | undefined, offset: number) => {
    decodeCount++;
    const top = stack[stack.length - 1];
    if (!top) {
      root = value;
      return;
    }
    if (!top.map) {
      (top.obj as JsonValue[]).push(value);
      return;
    }
    if (top.keyId === undefined && !top.keyMerge) {
      if (scalar === undefined) throw new Fail(`yaml: invalid map key: ${JSON.stringify(value)}`, offset);
      if (scalar.t === "merge") {
        top.keyMerge = true;
      } else {
        top.keyId = goKeyId(scalar);
        try {
          top.keyJson = jsonKey(scalar, offset);
        } catch (e) {
          if (!(e instanceof KeyFail)) throw e;
          top.keyError = e.message;
        }
        top.keyMerge = false;
        top.keyOffset = offset;
      }
      return;
    }
    if (top.keyError !== undefined) throw new Fail(`${top.keyError}, value: ${goSharpValue(value)}`, top.keyOffset);
    if (top.keyMerge) merge(top, value, offset);
    else setEntry(top, top.keyId!, top.keyJson, value, offset, () => goSharpV(keyScalarFromId(top.keyId!)));
    top.keyId = undefined;
    top.keyMerge = false;
  };

  for (let i = from; i < events.length && !done; i++) {
    const ev = events[i]!;
    switch (ev.type) {
      case EV_SCALAR: {
        const off = offsetOf(ev, lastOffset, text);
        lastOffset = off;
        let s: GoScalar;
        try {
          s = scalarOf(text, ev);
        } catch (e) {
          if (e instanceof YamlValueError) throw new Fail(e.message, off);
          throw e;
        }
        const top = stack[stack.length - 1];
        const isKey = top?.map === true && top.keyId === undefined && !top.keyMerge;
        const v = isKey ? null : toJson(s, off);
        if (ev.anchorStart >= 0) anchors.set(text.slice(ev.anchorStart, ev.anchorEnd), { value: v, scalar: s, open: false, size: 1 });
        place(v, s, off);
        break;
      }
      case EV_MAPPING:
      case EV_SEQUENCE: {
        const off = ev.start;
        lastOffset = off;
        const map = ev.type === EV_MAPPING;
        const anchor = ev.anchorStart >= 0 ? text.slice(ev.anchorStart, ev.anchorEnd) : undefined;
        if (anchor !== undefined) anchors.set(anchor, { value: undefined, open: true, size: 0 });
        stack.push({
          map,
          obj: map ? {} : [],
          anchor,
          seen: map ? new Map() : undefined,
          keyId: undefined,
          keyJson: "",
          keyMerge: false,
          keyOffset: off,
          start: off,
        });
        break;
      }
      case EV_POP: {
        const f = stack.pop();
        if (!f) {
          done = true;
          break;
        }
        if (f.anchor !== undefined) anchors.set(f.anchor, { value: f.obj, open: false, size: countNodes(f.obj) });
        place(f.obj, undefined, f.start);
        break;
      }
      case EV_ALIAS: {
        const name = text.slice(ev.anchorStart, ev.anchorEnd);
        const off = offsetOf(ev, lastOffset);
        const a = anchors.get(name);
        if (!a) throw new Fail(`yaml: unknown anchor '${name}' referenced`, off);
        if (a.open) throw new Fail(`yaml: anchor '${name}' value contains itself`, off);
        aliasCount += a.size;
        decodeCount += a.size - 1;
        if (aliasCount > 100 && decodeCount > 1000 && aliasCount / decodeCount > allowedAliasRatio(decodeCount)) {
          throw new Fail("yaml: document contains excessive aliasing", off);
        }
        place(deepClone(a.value!), a.scalar, off);
        break;
      }
      case EV_DOCUMENT:
        done = true;
        break;
    }
  }
  return root === undefined ? null : root;
}

function keyScalarFromId(id: string): GoScalar {
  const v = id.slice(2);
  switch (id[0]) {
    case "s":
      return { t: "str", v };
    case "i":
      return { t: "int", v: BigInt(v) };
    case "u":
      return { t: "uint", v: BigInt(v) };
    case "f":
      return { t: "float", v: Number(v) };
    case "b":
      return { t: "bool", v: v === "true" };
    default:
      return { t: "null" };
  }
}
