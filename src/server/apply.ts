/**
 * Server-side apply with per-manager field ownership recorded in `metadata.managedFields` (`Apply`
 * entries, FieldsV1). Applying merges the configuration into the live object (maps recursively, lists
 * atomically) and removes the fields this manager applied before but no longer applies, unless another
 * applier owns them. Not modelled: conflicts with other managers (applies always win, as with `force`),
 * ownership of fields written by updates, list-map merging by key.
 */
import { deepClone, deepEqual, isObject, setKey, type JsonObject, type JsonValue } from "../value/json-value.js";
import { nowTimestamp } from "./object-meta.js";
import { applyMerge } from "./patch.js";

/** Fields of metadata that are identity, not configuration. */
const META_IDENTITY = new Set(["name", "namespace", "uid", "resourceVersion", "generation", "creationTimestamp", "managedFields", "selfLink"]);

/** The FieldsV1 set of an applied configuration: `{"f:spec": {"f:image": {}}}`. */
export function fieldsOf(applied: JsonObject): JsonObject {
  const walk = (v: JsonObject, top: boolean): JsonObject => {
    const out: JsonObject = {};
    for (const [k, x] of Object.entries(v)) {
      if (top && (k === "apiVersion" || k === "kind")) continue;
      if (top && k === "metadata" && isObject(x)) {
        const meta: JsonObject = {};
        for (const [mk, mv] of Object.entries(x)) if (!META_IDENTITY.has(mk)) setKey(meta, `f:${mk}`, isObject(mv) ? walk(mv, false) : {});
        if (Object.keys(meta).length > 0) out["f:metadata"] = meta;
        continue;
      }
      setKey(out, `f:${k}`, isObject(x) && Object.keys(x).length > 0 ? walk(x, false) : {});
    }
    return out;
  };
  return walk(applied, true);
}

/** Leaf paths of a FieldsV1 set, as key lists. */
function leafPaths(fields: JsonValue | undefined, prefix: string[] = []): string[][] {
  if (!isObject(fields)) return [];
  const keys = Object.keys(fields).filter((k) => k.startsWith("f:"));
  if (keys.length === 0) return prefix.length > 0 ? [prefix] : [];
  return keys.flatMap((k) => leafPaths(fields[k], [...prefix, k.slice(2)]));
}

function hasPath(fields: JsonValue | undefined, path: string[]): boolean {
  let cur = fields;
  for (const p of path) {
    if (!isObject(cur) || !Object.hasOwn(cur, `f:${p}`)) return false;
    cur = cur[`f:${p}`];
  }
  return true;
}

function removePath(obj: JsonObject, path: string[]): void {
  let cur: JsonValue = obj;
  for (const p of path.slice(0, -1)) {
    if (!isObject(cur) || !Object.hasOwn(cur, p)) return;
    cur = cur[p]!;
  }
  if (isObject(cur)) delete cur[path[path.length - 1]!];
}

/** The `managedFields` entries of an object. */
function managedFieldsOf(obj: JsonObject): JsonObject[] {
  const m = obj["metadata"];
  if (!isObject(m) || !Array.isArray(m["managedFields"])) return [];
  return m["managedFields"].filter(isObject);
}

/** Applies `applied` for `manager` over `live` (undefined when creating); returns the new object. */
export function serverSideApply(live: JsonObject | undefined, applied: JsonObject, manager: string, apiVersion: string): JsonObject {
  const entries = live ? managedFieldsOf(live) : [];
  const mine = entries.find((e) => e["manager"] === manager && e["operation"] === "Apply");
  const others = entries.filter((e) => e !== mine && e["operation"] === "Apply");
  const newFields = fieldsOf(applied);
  const merged = (live ? applyMerge(live, applied) : deepClone(applied)) as JsonObject;
  if (mine) {
    for (const p of leafPaths(mine["fieldsV1"])) {
      if (hasPath(newFields, p) || others.some((o) => hasPath(o["fieldsV1"], p))) continue;
      removePath(merged, p);
    }
  }
  // A no-op apply keeps the entry (and its time), so the object and its resourceVersion stay unchanged.
  const unchanged = mine !== undefined && live !== undefined && deepEqual(mine["fieldsV1"], newFields) && deepEqual(withoutManaged(merged), withoutManaged(live));
  const entry: JsonObject = unchanged
    ? mine
    : { manager, operation: "Apply", apiVersion, time: nowTimestamp(), fieldsType: "FieldsV1", fieldsV1: newFields };
  const meta = isObject(merged["metadata"]) ? merged["metadata"] : (merged["metadata"] = {});
  meta["managedFields"] = unchanged ? entries : [...entries.filter((e) => e !== mine), entry];
  return merged;
}

function withoutManaged(o: JsonObject): JsonObject {
  if (!isObject(o["metadata"])) return o;
  const meta = { ...o["metadata"] };
  delete meta["managedFields"];
  return { ...o, metadata: meta };
}
