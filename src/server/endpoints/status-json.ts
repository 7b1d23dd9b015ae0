/**
 * `metav1.Status` as the API server encodes it: a Go struct, so its fields come in declaration order
 * (kind, apiVersion, metadata, status, message, reason, details, code) and empty optional fields are
 * omitted — unlike unstructured objects, whose map keys encoding/json sorts.
 */
import { goJsonMarshal } from "../../go/json.js";
import { isObject, type JsonValue } from "../../value/json-value.js";

const STATUS_FIELDS = ["kind", "apiVersion", "metadata", "status", "message", "reason", "details", "code"] as const;
const DETAILS_FIELDS = ["name", "group", "kind", "uid", "causes", "retryAfterSeconds"] as const;
const CAUSE_FIELDS = ["reason", "message", "field"] as const;

/** Whether `v` is a `Status` object (as handlers build them). */
export function isStatus(v: JsonValue): v is Record<string, JsonValue> {
  return v !== null && typeof v === "object" && !Array.isArray(v) && (v as Record<string, JsonValue>)["kind"] === "Status" && (v as Record<string, JsonValue>)["apiVersion"] === "v1";
}

function isEmpty(v: JsonValue | undefined): boolean {
  return v === undefined || v === null || v === "" || v === 0 || (Array.isArray(v) && v.length === 0);
}

function struct(v: Record<string, JsonValue>, fields: readonly string[], always: readonly string[], nested: (k: string, x: JsonValue) => string): string {
  const parts: string[] = [];
  for (const f of fields) {
    const x = v[f];
    if (!always.includes(f) && isEmpty(x)) continue;
    parts.push(`${JSON.stringify(f)}:${nested(f, x ?? {})}`);
  }
  return `{${parts.join(",")}}`;
}

function withoutEmpty(v: Record<string, JsonValue>, fields: readonly string[], always: readonly string[], nested: (k: string, x: JsonValue) => JsonValue): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const f of fields) {
    const x = v[f];
    if (!always.includes(f) && isEmpty(x)) continue;
    out[f] = nested(f, x ?? {});
  }
  return out;
}

/** A Status as the value Go encodes (empty optional fields omitted), for the YAML serializer. */
export function statusValue(s: Record<string, JsonValue>): Record<string, JsonValue> {
  return withoutEmpty(s, STATUS_FIELDS, ["kind", "apiVersion", "metadata"], (k, x) => {
    if (k !== "details" || !isObject(x)) return x;
    return withoutEmpty(x, DETAILS_FIELDS, [], (dk, dx) =>
      dk === "causes" && Array.isArray(dx) ? dx.map((c) => (isObject(c) ? withoutEmpty(c, CAUSE_FIELDS, [], (_, cx) => cx) : c)) : dx,
    );
  });
}

/** The JSON text of a Status in Go's field order. */
export function statusJson(s: Record<string, JsonValue>): string {
  return struct(s, STATUS_FIELDS, ["kind", "apiVersion", "metadata"], (k, x) => {
    if (k === "details" && isObject(x)) {
      return struct(x, DETAILS_FIELDS, [], (dk, dx) =>
        dk === "causes" && Array.isArray(dx)
          ? `[${dx.map((c) => (isObject(c) ? struct(c, CAUSE_FIELDS, [], (_, cx) => goJsonMarshal(cx)) : goJsonMarshal(c))).join(",")}]`
          : goJsonMarshal(dx),
      );
    }
    return goJsonMarshal(x);
  });
}
