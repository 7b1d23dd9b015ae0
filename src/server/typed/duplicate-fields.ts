/**
 * A JSON body with duplicate fields as Go's `encoding/json` (sigs.k8s.io/json) decodes it into a typed object (a
 * CustomResourceDefinition): a field seen again is decoded into what the first occurrence left. A struct is
 * decoded into (its fields merge, a pointer to a struct too), a Go map keeps its other keys, a slice decodes into
 * its existing elements, JSON null sets a pointer, slice or map to nil and leaves any other field as it was, and a
 * type with its own `UnmarshalJSON` (`GoFieldTag` `replaces`) or an untyped value (`any`) is replaced. The decoder
 * that reads a body into plain values keeps the last occurrence instead, which is right for untyped objects only.
 */
import type { GoShape, GoStruct } from "../../go/json-struct.js";
import { decodeJsonStream } from "../../io/json-decode.js";
import { isObject, setKey, type JsonObject, type JsonValue } from "../../value/json-value.js";

/** A JSON value of the text: its span, and for an object its members in order (duplicates too), for a list its items. */
export interface JsonNode {
  start: number;
  end: number;
  members?: [string, JsonNode][];
  items?: JsonNode[];
  isNull?: boolean;
}

/** The nodes of a JSON text the decoder already accepted (one value, whitespace around it). */
export function scanJsonNodes(text: string): JsonNode {
  let pos = 0;
  const ws = () => {
    while (pos < text.length && (text[pos] === " " || text[pos] === "\n" || text[pos] === "\r" || text[pos] === "\t")) pos++;
  };
  const skipString = () => {
    pos++;
    while (text[pos] !== '"') pos += text[pos] === "\\" ? 2 : 1;
    pos++;
  };
  const value = (): JsonNode => {
    ws();
    const start = pos;
    const c = text[pos];
    if (c === "{") {
      pos++;
      const members: [string, JsonNode][] = [];
      ws();
      if (text[pos] === "}") pos++;
      else {
        for (;;) {
          ws();
          const k = pos;
          skipString();
          const key = JSON.parse(text.slice(k, pos)) as string;
          ws();
          pos++; // ':'
          members.push([key, value()]);
          ws();
          if (text[pos++] === "}") break; // else ','
        }
      }
      return { start, end: pos, members };
    }
    if (c === "[") {
      pos++;
      const items: JsonNode[] = [];
      ws();
      if (text[pos] === "]") pos++;
      else {
        for (;;) {
          items.push(value());
          ws();
          if (text[pos++] === "]") break;
        }
      }
      return { start, end: pos, items };
    }
    if (c === '"') skipString();
    else while (pos < text.length && !/[\s,\]}]/.test(text[pos]!)) pos++;
    return { start, end: pos, isNull: text.startsWith("null", start) && pos === start + 4 };
  };
  return value();
}

/**
 * `text` (a JSON object with duplicate fields) decoded as into the Go struct `shape` describes, as plain values.
 * Undefined when the text is not one JSON value the plain decoder reads (its own error is answered then).
 */
export function decodeWithDuplicates(text: string, shape: GoShape): JsonValue | undefined {
  const plain = (n: JsonNode): JsonValue => decodeJsonStream(text.slice(n.start, n.end), { recordRangeErrors: true }).documents[0]!.value;
  const fresh = (n: JsonNode, s: GoShape): JsonValue => into(undefined, n, s, false, false);
  /** Decodes `n` into `prev` (undefined: a new value) of shape `s`. */
  function into(prev: JsonValue | undefined, n: JsonNode, s: GoShape, nullable: boolean, replaces: boolean): JsonValue {
    if (n.isNull) return nullable || prev === undefined ? null : prev;
    if (s === "any" || "pick" in s) return plain(n);
    const base = replaces ? undefined : prev;
    if (n.members) {
      const out: JsonObject = isObject(base) ? { ...base } : {};
      if ("map" in s) {
        // (each element of a Go map is decoded into a new value)
        for (const [k, v] of n.members) setKey(out, k, fresh(v, s.map));
        return out;
      }
      for (const [k, v] of n.members) setKey(out, k, member(s, out, k, v));
      return out;
    }
    if (n.items) {
      if ("map" in s) return plain(n);
      // A slice of structs: each element is decoded into the one at its index.
      const old = Array.isArray(base) ? base : [];
      return n.items.map((v, i) => into(old[i], v, s, false, false));
    }
    return plain(n);
  }
  function member(s: GoStruct, out: JsonObject, k: string, v: JsonNode): JsonValue {
    const i = s.index.get(k);
    // (a field the struct does not have: the plain value, for the unknown-field check)
    if (i === undefined) return plain(v);
    const prev = Object.hasOwn(out, k) ? out[k] : undefined;
    return into(prev, v, s.fields[i]![1], s.nullable.has(k), s.replaces.has(k));
  }
  try {
    return fresh(scanJsonNodes(text), shape);
  } catch {
    return undefined;
  }
}
