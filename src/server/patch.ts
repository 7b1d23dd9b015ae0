/** RFC 7386 JSON merge patch and RFC 6902 JSON patch over the value model. */
import { deepClone, deepEqual, isObject, setKey, type JsonObject, type JsonValue } from "../value/json-value.js";

/** RFC 7386: objects merge recursively, `null` deletes, everything else replaces. */
export function mergePatch(target: JsonValue | undefined, patch: JsonValue): JsonValue {
  if (!isObject(patch)) return deepClone(patch);
  const out: JsonObject = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else setKey(out, k, mergePatch(Object.hasOwn(out, k) ? out[k] : undefined, v));
  }
  return out;
}

/** A failed JSON patch operation (the API server answers 422 with this text). */
export class JsonPatchError extends Error {}

/** A JSON patch document that cannot be decoded (the API server answers 400). */
export class JsonPatchDecodeError extends Error {}

/** The API server's limit on operations in one JSON patch. */
export const MAX_JSON_PATCH_OPERATIONS = 10000;

function unescapeToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

function parsePointer(p: unknown): string[] {
  if (typeof p !== "string") throw new JsonPatchError("missing path");
  if (p === "") return [];
  if (!p.startsWith("/")) throw new JsonPatchError(`invalid path: ${p}`);
  return p.slice(1).split("/").map(unescapeToken);
}

function arrayIndex(arr: JsonValue[], tok: string, forAdd: boolean): number {
  if (forAdd && tok === "-") return arr.length;
  if (!/^(0|[1-9]\d*)$/.test(tok)) throw new JsonPatchError(`invalid array index: ${tok}`);
  const i = Number(tok);
  if (forAdd ? i > arr.length : i >= arr.length) throw new JsonPatchError(`index out of range: ${tok}`);
  return i;
}

function parentOf(doc: JsonValue, tokens: string[], path: string): JsonValue {
  let cur = doc;
  for (const t of tokens.slice(0, -1)) {
    if (Array.isArray(cur)) cur = cur[arrayIndex(cur, t, false)]!;
    else if (isObject(cur) && Object.hasOwn(cur, t)) cur = cur[t]!;
    else throw new JsonPatchError(`doc is missing path: "${path}": missing value`);
  }
  return cur;
}

function getAt(doc: JsonValue, path: string): JsonValue {
  const tokens = parsePointer(path);
  if (tokens.length === 0) return doc;
  const parent = parentOf(doc, tokens, path);
  const last = tokens[tokens.length - 1]!;
  if (Array.isArray(parent)) return parent[arrayIndex(parent, last, false)]!;
  if (isObject(parent) && Object.hasOwn(parent, last)) return parent[last]!;
  throw new JsonPatchError(`doc is missing path: "${path}": missing value`);
}

function removeAt(doc: JsonValue, path: string): JsonValue {
  const tokens = parsePointer(path);
  if (tokens.length === 0) throw new JsonPatchError("cannot remove the whole document");
  const parent = parentOf(doc, tokens, path);
  const last = tokens[tokens.length - 1]!;
  if (Array.isArray(parent)) return parent.splice(arrayIndex(parent, last, false), 1)[0]!;
  if (isObject(parent) && Object.hasOwn(parent, last)) {
    const v = parent[last]!;
    delete parent[last];
    return v;
  }
  throw new JsonPatchError(`unable to remove nonexistent key: ${last}: missing value`);
}

function addAt(doc: JsonValue, path: string, value: JsonValue, replace: boolean): JsonValue {
  const tokens = parsePointer(path);
  if (tokens.length === 0) return value;
  const parent = parentOf(doc, tokens, path);
  const last = tokens[tokens.length - 1]!;
  if (Array.isArray(parent)) {
    if (replace) parent[arrayIndex(parent, last, false)] = value;
    else parent.splice(arrayIndex(parent, last, true), 0, value);
  } else if (isObject(parent)) {
    if (replace && !Object.hasOwn(parent, last)) {
      throw new JsonPatchError(`replace operation does not apply: doc is missing key: ${path}: missing value`);
    }
    setKey(parent, last, value);
  } else throw new JsonPatchError(`doc is missing path: "${path}": missing value`);
  return doc;
}

/** Applies an RFC 6902 patch (a JSON array of operations) to a copy of `doc`. */
export function jsonPatch(doc: JsonValue, ops: JsonValue): JsonValue {
  if (!Array.isArray(ops)) {
    throw new JsonPatchDecodeError(`error decoding patch: json: cannot unmarshal ${isObject(ops) ? "object" : typeof ops === "boolean" ? "bool" : typeof ops} into Go value of type []handlers.jsonPatchOp`);
  }
  let out = deepClone(doc);
  for (const op of ops) {
    if (!isObject(op)) throw new JsonPatchError("invalid operation");
    const path = op["path"] as string;
    switch (op["op"]) {
      case "add":
        out = addAt(out, path, deepClone(op["value"] ?? null), false);
        break;
      case "replace":
        out = addAt(out, path, deepClone(op["value"] ?? null), true);
        break;
      case "remove":
        removeAt(out, path);
        break;
      case "move": {
        const v = removeAt(out, op["from"] as string);
        out = addAt(out, path, v, false);
        break;
      }
      case "copy":
        out = addAt(out, path, deepClone(getAt(out, op["from"] as string)), false);
        break;
      case "test":
        if (!deepEqual(getAt(out, path), op["value"] ?? null)) {
          throw new JsonPatchError(`testing value ${path} failed: test failed`);
        }
        break;
      default:
        throw new JsonPatchError(`Unexpected kind: ${String(op["op"])}`);
    }
  }
  return out;
}

/**
 * A simplified server-side apply merge: the applied configuration's fields replace the live ones,
 * maps merge recursively and lists are replaced whole (atomic). Fields the manager dropped are not
 * removed (no managedFields bookkeeping).
 */
export function applyMerge(live: JsonValue | undefined, applied: JsonValue): JsonValue {
  if (!isObject(applied) || !isObject(live)) return deepClone(applied);
  const out: JsonObject = { ...live };
  for (const [k, v] of Object.entries(applied)) {
    setKey(out, k, applyMerge(Object.hasOwn(out, k) ? out[k] : undefined, v));
  }
  return out;
}
