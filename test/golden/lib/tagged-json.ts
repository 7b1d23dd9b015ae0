/**
 * A JSON parser that keeps Go's int64 / float64 distinction the way Kubernetes' decoder does: a number
 * literal with a fraction or exponent is a float64 (`1.0` → `Float64(1)`), any other is an int64
 * (a `bigint` beyond 2^53). Used to read golden files (written by tools/k8s-oracle with that
 * convention) and request bodies. Duplicate keys: the last one wins (as encoding/json).
 */
import { Float64, type JsonObject, type JsonValue, setKey } from "../../../src/value/json-value.js";

export class TaggedJsonError extends Error {}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const INT64_MAX = 9223372036854775807n;
const INT64_MIN = -9223372036854775808n;

export function parseTaggedJson(text: string, onDuplicateKey?: (key: string) => void): JsonValue {
  let i = 0;
  const n = text.length;
  const ws = (): void => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
  };
  const fail = (msg: string): never => {
    throw new TaggedJsonError(`${msg} at offset ${i}`);
  };
  const parseString = (): string => {
    // reuse JSON.parse for the escapes of one string literal
    const start = i;
    i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x5c) i += 2;
      else if (c === 0x22) {
        i++;
        // encoding/json turns unpaired surrogates (and invalid UTF-8) into U+FFFD
        return (JSON.parse(text.slice(start, i)) as string).replace(LONE_SURROGATE, "\uFFFD");
      } else i++;
    }
    return fail("unterminated string");
  };
  const parseNumber = (): JsonValue => {
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 400));
    if (!m) return fail("bad number");
    i += m[0].length;
    if (m[2] !== undefined || m[3] !== undefined) {
      const f = Number(m[0]);
      return Number.isInteger(f) ? new Float64(f) : f;
    }
    const big = BigInt(m[0]);
    // like apimachinery's JSON decoding: an integer outside int64 becomes a float64
    if (big > INT64_MAX || big < INT64_MIN) return new Float64(Number(m[0]));
    return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
  };
  // iterative parser (no recursion limit problems on deep inputs)
  type Frame = { kind: "a"; arr: JsonValue[] } | { kind: "o"; obj: JsonObject; key: string | null };
  const stack: Frame[] = [];
  let result: JsonValue | undefined;
  const emit = (v: JsonValue): void => {
    const top = stack[stack.length - 1];
    if (!top) {
      result = v;
      return;
    }
    if (top.kind === "a") top.arr.push(v);
    else {
      setKey(top.obj, top.key as string, v);
      top.key = null;
    }
  };
  for (;;) {
    ws();
    const top = stack[stack.length - 1];
    if (top && top.kind === "o" && top.key === null) {
      // expecting a key or }
      if (text[i] === "}") {
        i++;
        stack.pop();
        emit(top.obj);
      } else {
        if (Object.keys(top.obj).length > 0) {
          if (text[i] !== ",") fail("expected , or }");
          i++;
          ws();
        }
        if (text[i] !== '"') fail("expected key");
        top.key = parseString();
        if (onDuplicateKey && Object.hasOwn(top.obj, top.key)) onDuplicateKey(top.key);
        ws();
        if (text[i] !== ":") fail("expected :");
        i++;
        continue;
      }
    } else if (top && top.kind === "a" && text[i] === "]") {
      i++;
      stack.pop();
      emit(top.arr);
    } else {
      if (top && top.kind === "a" && top.arr.length > 0) {
        if (text[i] !== ",") fail("expected , or ]");
        i++;
        ws();
      }
      const c = text[i];
      if (c === "{") {
        i++;
        stack.push({ kind: "o", obj: {}, key: null });
        continue;
      }
      if (c === "[") {
        i++;
        ws();
        stack.push({ kind: "a", arr: [] });
        continue;
      }
      if (c === '"') emit(parseString());
      else if (c === "t" && text.startsWith("true", i)) {
        i += 4;
        emit(true);
      } else if (c === "f" && text.startsWith("false", i)) {
        i += 5;
        emit(false);
      } else if (c === "n" && text.startsWith("null", i)) {
        i += 4;
        emit(null);
      } else emit(parseNumber());
    }
    if (stack.length === 0 && result !== undefined) break;
  }
  ws();
  if (i !== n) fail("trailing data");
  return result as JsonValue;
}
