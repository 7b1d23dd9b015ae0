/** Small helpers for `metadata` of unstructured objects. */
import { randomBytes } from "node:crypto";
import { randomUuid } from "../random-uuid.js";
import { isObject, type JsonObject, type JsonValue } from "../../value/json-value.js";

/** `obj.metadata`, created when missing or not an object. */
export function metaOf(obj: JsonObject): JsonObject {
  const m = obj["metadata"];
  if (isObject(m)) return m;
  const fresh: JsonObject = {};
  obj["metadata"] = fresh;
  return fresh;
}

/** A string field of `metadata` ("" when absent or not a string). */
export function metaString(obj: JsonObject, field: string): string {
  const m = obj["metadata"];
  if (!isObject(m)) return "";
  const v = m[field];
  return typeof v === "string" ? v : "";
}

/** `metadata.labels` as a string map (non-string values skipped). */
export function labelsOf(obj: JsonObject): Record<string, string> {
  const m = obj["metadata"];
  const out: Record<string, string> = {};
  if (!isObject(m) || !isObject(m["labels"])) return out;
  for (const [k, v] of Object.entries(m["labels"])) if (typeof v === "string") out[k] = v;
  return out;
}

/** `metadata.finalizers` strings. */
export function finalizersOf(obj: JsonObject): string[] {
  const m = obj["metadata"];
  if (!isObject(m) || !Array.isArray(m["finalizers"])) return [];
  return m["finalizers"].filter((f): f is string => typeof f === "string");
}

/** RFC 3339 with second precision, as metav1.Time marshals. */
export function nowTimestamp(): string {
  const sec = Math.floor(Date.now() / 1000);
  if (sec !== lastSecond) {
    lastSecond = sec;
    lastText = new Date(sec * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
  }
  return lastText;
}
let lastSecond = Number.NaN;
let lastText = "";

export function newUid(): string {
  return randomUuid();
}

const GENERATE_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

/** `names.SimpleNameGenerator`: base (cut to 58 chars) + 5 random characters. */
export function generateName(base: string): string {
  const b = base.length > 58 ? base.slice(0, 58) : base;
  const bytes = randomBytes(5);
  let s = "";
  for (const x of bytes) s += GENERATE_ALPHABET[x % GENERATE_ALPHABET.length];
  return b + s;
}

/** Removes `metadata.resourceVersion` (the store supplies it on read). */
export function withoutResourceVersion(obj: JsonObject): JsonObject {
  const m = obj["metadata"];
  if (!isObject(m) || !Object.hasOwn(m, "resourceVersion")) return obj;
  const meta = { ...m };
  delete meta["resourceVersion"];
  return { ...obj, metadata: meta };
}

/** True when a JSON value is a non-empty string. */
export function isNonEmptyString(v: JsonValue | undefined): v is string {
  return typeof v === "string" && v !== "";
}
