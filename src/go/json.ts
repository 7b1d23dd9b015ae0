/**
 * Go `encoding/json` as Kubernetes uses it on unstructured values: `json.Marshal` (sorted map keys,
 * HTML-safe escaping, Go float formatting), and what a Go number becomes after the YAML → JSON →
 * API-server round trip (sigs.k8s.io/yaml marshals the go-yaml value with encoding/json, and the server
 * decodes JSON numbers as int64 when the literal is an integer that fits, float64 otherwise).
 */
import { Float64, type JsonValue, RawNumber, float64, int64, kindOf, toNumber } from "../value/json-value.js";
import { compareGoStrings } from "./fmt.js";

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

/** Thrown when a value cannot be represented in JSON (`json: unsupported value: NaN`). */
export class JsonConversionError extends Error {}

/** A float64 from YAML as the server sees it: integral values below 1e21 print as integers → int64. */
export function floatAfterJsonRoundTrip(f: number): JsonValue {
  if (Number.isNaN(f)) throw new JsonConversionError("json: unsupported value: NaN");
  if (!Number.isFinite(f)) throw new JsonConversionError(`json: unsupported value: ${f > 0 ? "+Inf" : "-Inf"}`);
  if (Number.isInteger(f) && Math.abs(f) < 1e21) {
    // encoding/json prints the shortest round-trip digits padded with zeros, exactly like String(f) here.
    const b = BigInt(String(f === 0 ? 0 : f));
    if (b >= INT64_MIN && b <= INT64_MAX) return int64(b);
    return new Float64(f);
  }
  return float64(f);
}

/** A uint64 beyond int64 (go-yaml resolves them so): the server decodes it as float64. */
export function uintAfterJsonRoundTrip(u: bigint): JsonValue {
  if (u <= INT64_MAX) return int64(u);
  return new Float64(Number(u));
}

/** Strings encoding/json writes as they are (no escapes, no surrogates to check). */
const PLAIN_STRING = /^[^"\\<>&\u0000-\u001f\u2028\u2029\ud800-\udfff]*$/;

/** encoding/json string escaping (HTML-safe, like Go's default encoder). */
export function goJsonString(s: string): string {
  if (PLAIN_STRING.test(s)) return `"${s}"`;
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let rep: string | undefined;
    if (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x3c || c === 0x3e || c === 0x26) {
      switch (c) {
        case 0x22:
          rep = '\\"';
          break;
        case 0x5c:
          rep = "\\\\";
          break;
        case 0x0a:
          rep = "\\n";
          break;
        case 0x0d:
          rep = "\\r";
          break;
        case 0x09:
          rep = "\\t";
          break;
        case 0x08:
          rep = "\\b";
          break;
        case 0x0c:
          rep = "\\f";
          break;
        default:
          rep = "\\u00" + c.toString(16).padStart(2, "0");
      }
    } else if (c === 0x2028 || c === 0x2029) {
      rep = "\\u" + c.toString(16);
    } else if (c >= 0xd800 && c <= 0xdfff) {
      const next = s.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      rep = "\\ufffd";
    }
    if (rep !== undefined) {
      out += s.slice(start, i) + rep;
      start = i + 1;
    }
  }
  return out + s.slice(start) + '"';
}

/** encoding/json number formatting of a float64. */
export function goJsonFloat(n: number): string {
  // JS and Go agree: exponent form below 1e-6 and from 1e21 on, shortest digits otherwise.
  if (Object.is(n, -0)) return "-0";
  return String(n);
}

/**
 * A float64 box as encoding/json writes it — a {@link RawNumber} as it was written (json-patch copies patch
 * values as `json.RawMessage`, which json.Marshal writes as they are).
 */
export function goJsonBoxText(x: Float64): string {
  return x instanceof RawNumber ? x.text : goJsonFloat(x.value);
}

/**
 * The number in encoding/json's `UnmarshalTypeError` (`cannot unmarshal number 1.0 into … of type int64`): the
 * literal's text, which a value decoded without `rawNumbers` has only in Go's rendering.
 */
export function goJsonNumberText(v: number | bigint | Float64): string {
  if (v instanceof Float64) return goJsonBoxText(v);
  return typeof v === "number" && !Number.isInteger(v) ? goJsonFloat(v) : String(v);
}

/** Nesting the recursive encoder handles; deeper values are encoded by the iterative one. */
const RECURSION_LIMIT = 200;
const TOO_DEEP = Symbol("too deep");

const SURROGATE = /[\ud800-\udfff]/;

/**
 * The encoded `"key":` of object keys met so far that have no surrogate (short ones, a bounded number): the same
 * keys come back in every object (apiVersion, metadata, name, fieldsV1's `f:` keys), and a cached key needs
 * neither the surrogate check of its sort nor its escaping.
 */
const KEY_TEXTS = new Map<string, string>();
const MAX_KEY_TEXTS = 4096;
const MAX_CACHED_KEY = 64;

/**
 * Map keys in Go's order (UTF-8 bytes): without surrogates that is UTF-16 order, the default sort's (not called
 * for keys already in that order, as those of decoded stored objects are).
 */
export function goSortedKeys(o: Record<string, JsonValue>): string[] {
  const keys = Object.keys(o);
  let ordered = true;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (!KEY_TEXTS.has(k) && SURROGATE.test(k)) return keys.sort(compareGoStrings);
    if (i > 0 && keys[i - 1]! > k) ordered = false;
  }
  return ordered ? keys : keys.sort();
}

/** `"key":` as encoding/json writes a map key. */
export function goKeyText(k: string): string {
  let t = KEY_TEXTS.get(k);
  if (t === undefined) {
    t = `${goJsonString(k)}:`;
    if (k.length <= MAX_CACHED_KEY && KEY_TEXTS.size < MAX_KEY_TEXTS && !SURROGATE.test(k)) KEY_TEXTS.set(k, t);
  }
  return t;
}

/** The recursive encoder (the common case: fewer allocations than the work list); throws TOO_DEEP. */
function marshalRecursive(x: JsonValue | undefined, depth: number): string {
  switch (typeof x) {
    case "string":
      return goJsonString(x);
    case "number":
      return Number.isInteger(x) ? String(x) : goJsonFloat(x);
    case "boolean":
      return x ? "true" : "false";
    case "bigint":
      return String(x);
    case "object": {
      if (x === null) return "null";
      if (depth > RECURSION_LIMIT) throw TOO_DEEP;
      if (Array.isArray(x)) {
        let out = "[";
        for (let i = 0; i < x.length; i++) out += (i > 0 ? "," : "") + marshalRecursive(x[i], depth + 1);
        return `${out}]`;
      }
      if (x instanceof Float64) return goJsonBoxText(x);
      const o = x as Record<string, JsonValue>;
      const keys = goSortedKeys(o);
      let out = "{";
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i]!;
        out += `${i > 0 ? "," : ""}${goKeyText(k)}${marshalRecursive(o[k], depth + 1)}`;
      }
      return `${out}}`;
    }
    default:
      return "null";
  }
}

/**
 * Go `json.Marshal` of an unstructured value: map keys sorted, HTML-safe strings, Go number formatting.
 * Any nesting depth (values nested deeper than the recursive encoder goes are encoded iteratively).
 */
export function goJsonMarshal(v: JsonValue | undefined): string {
  try {
    return marshalRecursive(v, 0);
  } catch (e) {
    if (e !== TOO_DEEP) throw e;
    return goJsonMarshalIterative(v);
  }
}

/** {@link goJsonMarshal} with an explicit work list: any nesting depth. */
export function goJsonMarshalIterative(v: JsonValue | undefined): string {
  const out: string[] = [];
  // a work item is a value to render or a literal piece of text
  const work: ({ v: JsonValue | undefined } | string)[] = [{ v }];
  while (work.length > 0) {
    const item = work.pop()!;
    if (typeof item === "string") {
      out.push(item);
      continue;
    }
    const x = item.v;
    switch (kindOf(x)) {
      case "null":
        out.push("null");
        break;
      case "boolean":
        out.push(x ? "true" : "false");
        break;
      case "integer":
        out.push(String(x));
        break;
      case "number":
        out.push(x instanceof Float64 ? goJsonBoxText(x) : goJsonFloat(x as number));
        break;
      case "string":
        out.push(goJsonString(x as string));
        break;
      case "array": {
        const a = x as JsonValue[];
        work.push("]");
        for (let i = a.length - 1; i >= 0; i--) {
          work.push({ v: a[i] });
          if (i > 0) work.push(",");
        }
        out.push("[");
        break;
      }
      default: {
        const o = x as Record<string, JsonValue>;
        const keys = Object.keys(o).sort(compareGoStrings);
        work.push("}");
        for (let i = keys.length - 1; i >= 0; i--) {
          work.push({ v: o[keys[i]!] });
          work.push(goJsonString(keys[i]!) + ":");
          if (i > 0) work.push(",");
        }
        out.push("{");
      }
    }
  }
  return out.join("");
}

/** UTF-8 bytes of {@link goJsonString}(s), without building it. */
function goJsonStringSize(s: string): number {
  let n = 2;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      if (c === 0x22 || c === 0x5c || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x08 || c === 0x0c) n += 2;
      else if (c < 0x20 || c === 0x3c || c === 0x3e || c === 0x26) n += 6;
      else n += 1;
    } else if (c < 0x800) n += 2;
    else if (c === 0x2028 || c === 0x2029) n += 6;
    else if (c >= 0xd800 && c <= 0xdfff) {
      const next = s.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        n += 4;
        i++;
      } else n += 6; // \ufffd
    } else n += 3;
  }
  return n;
}

/**
 * The length in UTF-8 bytes of {@link goJsonMarshal}(v), computed without building the text (the API
 * server's request size check on a large document); stops counting once past `limit`.
 */
export function goJsonMarshalSize(v: JsonValue | undefined, limit = Number.POSITIVE_INFINITY): number {
  let n = 0;
  const work: (JsonValue | undefined)[] = [v];
  while (work.length > 0 && n <= limit) {
    const x = work.pop();
    switch (kindOf(x)) {
      case "null":
        n += 4;
        break;
      case "boolean":
        n += x ? 4 : 5;
        break;
      case "integer":
        n += String(x).length;
        break;
      case "number":
        n += goJsonFloat(toNumber(x as number | Float64)).length;
        break;
      case "string":
        n += goJsonStringSize(x as string);
        break;
      case "array": {
        const a = x as JsonValue[];
        n += 2 + Math.max(0, a.length - 1);
        for (const e of a) work.push(e);
        break;
      }
      default: {
        const o = x as Record<string, JsonValue>;
        const keys = Object.keys(o);
        // braces, commas, and a colon per key
        n += 2 + Math.max(0, keys.length - 1) + keys.length;
        for (const k of keys) {
          n += goJsonStringSize(k);
          work.push(o[k]);
        }
      }
    }
  }
  return n;
}

/**
 * `json.Indent(dst, src, "", indent)` of compact JSON text (what `json.MarshalIndent` writes): a newline and
 * the depth's indent after `{`, `[` and `,`, `": "` between key and value; empty objects and arrays stay `{}`
 * and `[]`. String contents are copied as they are.
 */
export function goJsonIndent(src: string, indent = "  "): string {
  let out = "";
  let depth = 0;
  let needIndent = false;
  const newline = () => "\n" + indent.repeat(depth);
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < src.length && src[j] !== '"') j += src[j] === "\\" ? 2 : 1;
      if (needIndent) {
        out += newline();
        needIndent = false;
      }
      out += src.slice(i, j + 1);
      i = j;
      continue;
    }
    if (c === " " || c === "\t" || c === "\n" || c === "\r") continue;
    if (needIndent && c !== "]" && c !== "}") {
      out += newline();
      needIndent = false;
    }
    if (c === "{" || c === "[") {
      depth++;
      needIndent = true;
      out += c;
    } else if (c === "}" || c === "]") {
      depth--;
      if (needIndent) needIndent = false;
      else out += newline();
      out += c;
    } else if (c === ",") {
      out += c;
      out += newline();
    } else if (c === ":") out += ": ";
    else out += c;
  }
  return out;
}
