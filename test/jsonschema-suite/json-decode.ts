/**
 * Minimal JSON decoder for the suite files that keeps Go's int64/float64 distinction
 * (apimachinery util/json: integer literals → int64, everything else → float64).
 */
import { type JsonValue, float64, int64, setKey } from "../../src/value/json-value.js";

export function decodeJson(text: string): JsonValue {
  let i = 0;
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const value = (): JsonValue => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      const o: Record<string, JsonValue> = {};
      ws();
      if (text[i] === "}") {
        i++;
        return o;
      }
      for (;;) {
        ws();
        const k = value();
        if (typeof k !== "string") throw new Error(`bad key at ${i}`);
        ws();
        if (text[i++] !== ":") throw new Error(`expected : at ${i}`);
        setKey(o, k, value());
        ws();
        const d = text[i++];
        if (d === "}") return o;
        if (d !== ",") throw new Error(`expected , at ${i}`);
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
        if (d !== ",") throw new Error(`expected , at ${i}`);
      }
    }
    if (c === '"') {
      const start = i;
      i++;
      while (text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
      i++;
      return JSON.parse(text.slice(start, i)) as string;
    }
    const m = /^(?:true|false|null|-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?)/.exec(text.slice(i, i + 400));
    if (!m) throw new Error(`bad token at ${i}`);
    i += m[0].length;
    if (m[0] === "true") return true;
    if (m[0] === "false") return false;
    if (m[0] === "null") return null;
    if (m[1] === undefined && m[2] === undefined) {
      const b = BigInt(m[0]);
      if (b >= -(1n << 63n) && b < 1n << 63n) return int64(b);
    }
    return float64(Number(m[0]));
  };
  const v = value();
  ws();
  if (i !== text.length) throw new Error("trailing data");
  return v;
}
