/**
 * A small JSON reader that keeps Go's number typing (integer literals → int64, everything else → float64),
 * used by the table tests of the pipeline stages (Go's `json.Unmarshal` + int64 preservation). Production
 * decoding lives in `src/io`.
 */
import { CrdkitError } from "../errors/crdkit-error.js";
import { type JsonObject, type JsonValue, float64, int64, setKey } from "../value/json-value.js";

/** Parses JSON text into the crdkit value model (int64 vs float64 kept apart). */
export function parseGoJson(text: string): JsonValue {
  let i = 0;
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const fail = (what: string): never => {
    throw new CrdkitError("json", `invalid JSON at ${i}: ${what}`);
  };
  const value = (): JsonValue => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      const o: JsonObject = {};
      ws();
      if (text[i] === "}") {
        i++;
        return o;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail("expected key");
        const k = str();
        ws();
        if (text[i++] !== ":") fail("expected ':'");
        setKey(o, k, value());
        ws();
        const d = text[i++];
        if (d === "}") return o;
        if (d !== ",") fail("expected ',' or '}'");
      }
    }
    if (c === "[") {
      i++;
      const a: JsonValue[] = [];
      ws();
      if (text[i] === "]") {
        i++;
        return a;
      }
      for (;;) {
        a.push(value());
        ws();
        const d = text[i++];
        if (d === "]") return a;
        if (d !== ",") fail("expected ',' or ']'");
      }
    }
    if (c === '"') return str();
    if (text.startsWith("true", i)) {
      i += 4;
      return true;
    }
    if (text.startsWith("false", i)) {
      i += 5;
      return false;
    }
    if (text.startsWith("null", i)) {
      i += 4;
      return null;
    }
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m) return fail("unexpected character");
    i += m[0].length;
    if (m[2] === undefined && m[3] === undefined) {
      const b = BigInt(m[0]);
      return b >= -(2n ** 63n) && b < 2n ** 63n ? int64(b) : float64(Number(m[0]));
    }
    return float64(Number(m[0]));
  };
  const str = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const v = value();
  ws();
  if (i !== text.length) fail("trailing data");
  return v;
}
