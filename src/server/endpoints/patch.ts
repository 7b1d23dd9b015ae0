/** RFC 7386 JSON merge patch and RFC 6902 JSON patch over the value model. */
import { MAX_DEPTH } from "../../io/yaml-decode.js";
import { goJsonMarshal } from "../../go/json.js";
import { goJsonTypeWord } from "../../go/fmt.js";
import { deepClone, deepEqual, isObject, setKey, type JsonObject, type JsonValue } from "../../value/json-value.js";

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

/**
 * json-patch's `pruneNulls`: a copy of `v` without the null members of its objects (a list's nulls stay);
 * `made` sees each object of the copy.
 */
export function pruneNulls(v: JsonValue, made?: (o: JsonObject) => void): JsonValue {
  if (Array.isArray(v)) return v.map((x) => pruneNulls(x, made));
  if (!isObject(v)) return v;
  const out: JsonObject = {};
  made?.(out);
  for (const k of Object.keys(v)) if (v[k] !== null) setKey(out, k, pruneNulls(v[k]!, made));
  return out;
}

/** A failed JSON patch operation (the API server answers 422 with this text). */
export class JsonPatchError extends Error {}

/** A JSON patch document that cannot be decoded (the API server answers 400). */
export class JsonPatchDecodeError extends Error {}

/**
 * A JSON patch whose result nests deeper than the decoder allows (the API server fails to decode the
 * patched document). `document` is the patched document up to the operation that went too deep.
 */
export class JsonPatchDepthError extends Error {
  constructor(readonly document: JsonValue) {
    super("exceeded max depth");
  }
}

/** The API server's limit on operations in one JSON patch (`maxJSONPatchOperations`). */
export const MAX_JSON_PATCH_OPERATIONS = 10000;

/** The API server's `JSONPatchMaxCopyBytes` (json-patch's `AccumulatedCopySizeLimit`): 3 MiB. */
export const JSON_PATCH_MAX_COPY_BYTES = 3 * 1024 * 1024;

function unescapeToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/**
 * The tokens of a path as json-patch v4's `findObject` splits it: at every "/", the text before the first one
 * ignored (`a/b` is `/b`); "" is the document itself (empty list), a path without "/" names nothing.
 */
function parsePointer(p: unknown): string[] {
  if (typeof p !== "string") throw new JsonPatchError("missing path");
  if (p === "") return [];
  const split = p.split("/");
  if (split.length < 2) throw new JsonPatchError(`doc is missing path: "${p}"`);
  return split.slice(1).map(unescapeToken);
}

/**
 * An array index as json-patch v4 reads it: `strconv.Atoi` (a sign and leading zeros allowed), negative indices
 * counted from the end (`SupportNegativeIndices`), "-" appends (add only).
 */
function arrayIndex(arr: JsonValue[], tok: string, forAdd: boolean): number {
  if (forAdd && tok === "-") return arr.length;
  if (!/^[+-]?\d{1,18}$/.test(tok)) throw new JsonPatchError(`invalid array index: ${tok}`);
  let i = Number(tok);
  const size = forAdd ? arr.length + 1 : arr.length;
  if (i >= size) throw new JsonPatchError(`index out of range: ${tok}`);
  if (i < 0) {
    if (i < -size) throw new JsonPatchError(`index out of range: ${tok}`);
    i += size;
  }
  return i;
}

/**
 * Depths of containers (1 + the deepest child), computed without recursion and cached; every walk from
 * the root to a parent (which every mutation makes) drops the cached depths along the way.
 */
type DepthCache = WeakMap<object, number>;

function isContainer(v: JsonValue | undefined): v is JsonObject | JsonValue[] {
  return Array.isArray(v) || isObject(v);
}

function depthOf(v: JsonValue, cache: DepthCache): number {
  if (!isContainer(v)) return 0;
  const hit = cache.get(v);
  if (hit !== undefined) return hit;
  type Frame = { node: object; kids: JsonValue[]; i: number; max: number };
  const frame = (n: JsonObject | JsonValue[]): Frame => ({ node: n, kids: Array.isArray(n) ? n : Object.values(n), i: 0, max: 0 });
  const stack: Frame[] = [frame(v)];
  let result = 0;
  while (stack.length > 0) {
    const f = stack[stack.length - 1]!;
    if (f.i < f.kids.length) {
      const k = f.kids[f.i++];
      if (!isContainer(k)) continue;
      const c = cache.get(k);
      if (c !== undefined) f.max = Math.max(f.max, c);
      else stack.push(frame(k));
      continue;
    }
    stack.pop();
    const d = f.max + 1;
    cache.set(f.node, d);
    const up = stack[stack.length - 1];
    if (up) up.max = Math.max(up.max, d);
    else result = d;
  }
  return result;
}

function parentOf(doc: JsonValue, tokens: string[], path: string, cache?: DepthCache): JsonValue {
  let cur = doc;
  if (cache && isContainer(cur)) cache.delete(cur);
  for (const t of tokens.slice(0, -1)) {
    if (Array.isArray(cur)) cur = cur[arrayIndex(cur, t, false)]!;
    else if (isObject(cur) && Object.hasOwn(cur, t)) cur = cur[t]!;
    else throw new JsonPatchError(`doc is missing path: "${path}": missing value`);
    if (cache && isContainer(cur)) cache.delete(cur);
  }
  return cur;
}

/**
 * The value at `path` (`copy`'s from, `test`'s path; not the document itself). json-patch v4 reads a missing key
 * of an object as nothing, which `copy` adds as null and `test` finds equal to a missing or null value: undefined.
 */
function getAt(doc: JsonValue, path: string): JsonValue | undefined {
  const tokens = parsePointer(path);
  if (tokens.length === 0) throw new JsonPatchError(`doc is missing path: "${path}"`);
  const parent = parentOf(doc, tokens, path);
  const last = tokens[tokens.length - 1]!;
  if (Array.isArray(parent)) return parent[arrayIndex(parent, last, false)]!;
  if (isObject(parent)) return Object.hasOwn(parent, last) ? parent[last]! : undefined;
  throw new JsonPatchError(`doc is missing path: "${path}": missing value`);
}

function removeAt(doc: JsonValue, path: string, cache: DepthCache): JsonValue {
  const tokens = parsePointer(path);
  if (tokens.length === 0) throw new JsonPatchError("cannot remove the whole document");
  const parent = parentOf(doc, tokens, path, cache);
  const last = tokens[tokens.length - 1]!;
  if (Array.isArray(parent)) return parent.splice(arrayIndex(parent, last, false), 1)[0]!;
  if (isObject(parent) && Object.hasOwn(parent, last)) {
    const v = parent[last]!;
    delete parent[last];
    return v;
  }
  throw new JsonPatchError(`unable to remove nonexistent key: ${last}: missing value`);
}

function addAt(doc: JsonValue, path: string, value: JsonValue, replace: boolean, cache: DepthCache): JsonValue {
  const tokens = parsePointer(path);
  if (tokens.length === 0) {
    // Only `replace` takes the whole document, and only an object or array.
    if (!replace || !isContainer(value)) throw new JsonPatchError(`doc is missing path: "${path}"`);
    return value;
  }
  const parent = parentOf(doc, tokens, path, cache);
  const last = tokens[tokens.length - 1]!;
  if (Array.isArray(parent)) {
    if (replace) parent[arrayIndex(parent, last, false)] = value;
    else parent.splice(arrayIndex(parent, last, true), 0, value);
  } else if (isObject(parent)) {
    // json-patch v4 (the API server's) reads a missing key of an object as null: `replace` adds it.
    setKey(parent, last, value);
  } else throw new JsonPatchError(`doc is missing path: "${path}": missing value`);
  return doc;
}

/** Limits of {@link jsonPatch} (the API server's by default). */
export interface JsonPatchLimits {
  /** Total bytes `copy` operations may add (json-patch's `AccumulatedCopySizeLimit`). */
  maxCopyBytes?: number;
  /** Deepest nesting the result may have (the decoder's limit). */
  maxDepth?: number;
  /**
   * Whether the patch handler decodes the operations into `[]jsonPatchOp` first (default; under fieldValidation
   * Strict and Warn): a list that is no list or a field of the wrong type is its `error decoding patch` 400. Under
   * Ignore only json-patch reads them, operation by operation: a field it cannot read fails the patch (422).
   */
  decodeOps?: boolean;
}

/**
 * The first `*json.UnmarshalTypeError` of decoding the operations into `[]jsonPatchOp` (op, path and from are
 * strings, value anything): an operation that is no object, or a string field of another type.
 */
export function jsonPatchOpsTypeError(ops: JsonValue[], outOfRange?: (v: JsonValue) => string | undefined): string | undefined {
  for (const op of ops) {
    if (op === null) continue;
    if (!isObject(op)) return `json: cannot unmarshal ${goJsonTypeWord(op)} into Go value of type handlers.jsonPatchOp`;
    // (in the order of the text, as Go decodes it)
    for (const k of Object.keys(op)) {
      const v = op[k];
      if ((k === "op" || k === "path" || k === "from") && v !== null && typeof v !== "string") return `json: cannot unmarshal ${goJsonTypeWord(v!)} into Go struct field jsonPatchOp.${k} of type string`;
      // `value` is an interface{}: a number beyond float64 in it fails to convert (`outOfRange`: its literal)
      const lit = k === "value" && outOfRange ? outOfRange(v!) : undefined;
      if (lit !== undefined) return `json: cannot unmarshal number ${lit} into Go struct field jsonPatchOp.value of type float64`;
    }
  }
  return undefined;
}

/**
 * Applies an RFC 6902 patch (a JSON array of operations) to a copy of `doc`. `copy` operations may add
 * at most `maxCopyBytes` in total (sizes as json-patch measures them: the value's JSON); an operation
 * that nests the document deeper than `maxDepth` throws {@link JsonPatchDepthError}, so the document
 * never gets deeper than `maxDepth` plus one decoded value while the patch runs.
 */
export function jsonPatch(doc: JsonValue, ops: JsonValue, limits: JsonPatchLimits = {}): JsonValue {
  // `null` decodes as no operations.
  if (ops === null) return deepClone(doc);
  if (!Array.isArray(ops)) {
    throw new JsonPatchDecodeError(`error decoding patch: json: cannot unmarshal ${isObject(ops) ? "object" : typeof ops === "boolean" ? "bool" : typeof ops} into Go value of type []handlers.jsonPatchOp`);
  }
  const typeError = limits.decodeOps === false ? undefined : jsonPatchOpsTypeError(ops);
  if (typeError !== undefined) throw new JsonPatchDecodeError(`error decoding patch: ${typeError}`);
  const maxCopy = limits.maxCopyBytes ?? JSON_PATCH_MAX_COPY_BYTES;
  const maxDepth = limits.maxDepth ?? MAX_DEPTH;
  const cache: DepthCache = new WeakMap();
  let copied = 0;
  let out = deepClone(doc);
  /** After placing `value` at `path`: the document may not nest deeper than the limit. */
  const checkDepth = (path: string, value: JsonValue) => {
    if (!isContainer(value)) return;
    if (parsePointer(path).length + depthOf(value, cache) > maxDepth) throw new JsonPatchDepthError(out);
  };
  for (const op of ops) {
    if (!isObject(op)) throw new JsonPatchError("invalid operation");
    const path = op["path"] as string;
    switch (op["op"]) {
      case "add":
      case "replace": {
        const v = deepClone(op["value"] ?? null);
        out = addAt(out, path, v, op["op"] === "replace", cache);
        checkDepth(path, v);
        break;
      }
      case "remove":
        removeAt(out, path, cache);
        break;
      case "move": {
        const from = op["from"] as string;
        const v = removeAt(out, from, cache);
        out = addAt(out, path, v, false, cache);
        // Moving up or sideways cannot nest deeper than the document already was.
        if (parsePointer(path).length > parsePointer(from).length) checkDepth(path, v);
        break;
      }
      case "copy": {
        const v = getAt(out, op["from"] as string) ?? null;
        copied += Buffer.byteLength(goJsonMarshal(v));
        if (maxCopy > 0 && copied > maxCopy) {
          throw new JsonPatchError(
            `Unable to complete the copy, the accumulated size increase of copy is ${copied}, exceeding the limit ${maxCopy}`,
          );
        }
        const c = deepClone(v);
        out = addAt(out, path, c, false, cache);
        checkDepth(path, c);
        break;
      }
      case "test":
        if (path === "" ? !deepEqual(out, op["value"] ?? null) : !deepEqual(getAt(out, path) ?? null, op["value"] ?? null)) {
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
