/**
 * Field ownership in `metadata.managedFields`, as the API server's field manager keeps it
 * (apimachinery `util/managedfields/internal` over structured-merge-diff `merge.Updater`):
 * - Update (create, PUT, non-apply PATCH, subresources): the fields the request added or changed are
 *   owned by the manager (`Update` entry per manager, API version and subresource) and taken from
 *   everyone else; removed fields are dropped from every set.
 * - Apply: the applier owns exactly the fields of its configuration; fields it applied before and no
 *   longer applies are removed unless someone else owns them; changing a field another manager owns
 *   is a 409 conflict unless `force=true`, which takes it over.
 * - The client-side-apply upgrade of `kubectl` (manager `kubectl` may take fields recorded in the
 *   last-applied annotation) and the annotation's refresh.
 */
import { goJsonMarshal } from "../../go/json.js";
import { deepClone, deepEqual, isObject, type JsonObject, type JsonValue } from "../../value/json-value.js";
import { ApiError, apiErrors } from "../endpoints/errors.js";
import { nowTimestamp } from "../registry/object-meta.js";
import { failureStatus } from "../../errors/index.js";
import { FieldSet, pathString, type PathElement } from "./fieldset.js";
import type { TypeNode } from "./type-schema.js";
import { compareValues, mergeValues, removeItems, toFieldSet, withNamedFieldsAsMembers } from "./typed.js";
import { appliedTypeErrors } from "./typed-validate.js";

export const LAST_APPLIED_ANNOTATION = "kubectl.kubernetes.io/last-applied-configuration";

/** One manager's entry. */
export interface Managed {
  manager: string;
  operation: "Apply" | "Update";
  apiVersion: string;
  subresource: string;
  time?: string;
  set: FieldSet;
}

/** Fields no manager owns (`stripMetaManager`). */
const STRIPPED: PathElement[][] = [
  ["apiVersion"],
  ["kind"],
  ["metadata"],
  ...["name", "namespace", "creationTimestamp", "selfLink", "uid", "clusterName", "generation", "managedFields", "resourceVersion"].map((n) => [
    "metadata",
    n,
  ]),
].map((p) => p.map((name): PathElement => ({ kind: "f", name })));

/** Drops the paths under the top-level fields a strategy resets (`GetResetFields`). */
function ignore(set: FieldSet, fields: readonly string[]): FieldSet {
  return fields.length === 0 ? set : set.withoutTopFields(fields);
}

function strip(set: FieldSet): FieldSet {
  return set.difference(STRIPPED_SET);
}
const STRIPPED_SET = new FieldSet();
for (const p of STRIPPED) STRIPPED_SET.insert(p);

/** `BuildManagerIdentifier`: the entry without fields and time (and without apiVersion for appliers). */
function identifier(m: { manager: string; operation: string; apiVersion: string; subresource: string }): string {
  // lengths first: names may contain any character (a manager name from stored managedFields included)
  const id = `${m.manager.length},${m.operation.length},${m.apiVersion.length}:${m.manager}${m.operation}${m.apiVersion}${m.subresource}`;
  let text = identifiers.get(id);
  if (text === undefined) {
    const o: Record<string, string> = { manager: m.manager, operation: m.operation };
    if (m.operation !== "Apply" && m.apiVersion !== "") o["apiVersion"] = m.apiVersion;
    if (m.subresource !== "") o["subresource"] = m.subresource;
    text = JSON.stringify(o);
    if (identifiers.size >= 1024) identifiers.clear();
    identifiers.set(id, text);
  }
  return text;
}
/** Identifiers built so far (a server sees few managers). */
const identifiers = new Map<string, string>();

/** `printManager`: `"name"`, `"name" with subresource "status"`, `… using group/version`. */
function printManager(m: Managed): string {
  let s = JSON.stringify(m.manager);
  if (m.subresource !== "") s += ` with subresource ${JSON.stringify(m.subresource)}`;
  if (m.operation === "Update") s += ` using ${m.apiVersion}`;
  return s;
}

/** Decodes `metadata.managedFields`; undefined when an entry is invalid (the server then falls back). */
export function decodeManagedFields(entries: JsonValue | undefined): Map<string, Managed> | undefined {
  const out = new Map<string, Managed>();
  if (entries === undefined || entries === null) return out;
  if (!Array.isArray(entries)) return undefined;
  for (const e of entries) {
    if (!isObject(e)) return undefined;
    const op = e["operation"];
    if (op !== "Apply" && op !== "Update") return undefined;
    if (typeof e["apiVersion"] !== "string" || e["apiVersion"] === "" || e["fieldsType"] !== "FieldsV1") return undefined;
    let set: FieldSet;
    try {
      set = FieldSet.fromFieldsV1(e["fieldsV1"]);
    } catch {
      return undefined;
    }
    const m: Managed = {
      manager: typeof e["manager"] === "string" ? e["manager"] : "",
      operation: op,
      apiVersion: e["apiVersion"],
      subresource: typeof e["subresource"] === "string" ? e["subresource"] : "",
      set,
    };
    if (typeof e["time"] === "string") m.time = e["time"];
    out.set(identifier(m), m);
  }
  return out;
}

/**
 * A write's own `metadata.managedFields`, as the field manager takes them before validation sees the object: `[{}]`
 * (a request to strip them) and entries it cannot decode are removed from `meta` (the field manager works from the
 * live object's then, and validation sees only what it writes). True for `[{}]`: hand it to {@link trackUpdate}.
 */
export function takeRequestManagedFields(meta: JsonObject, keepUndecodable?: (managedFields: JsonValue) => boolean): boolean {
  const requested = meta["managedFields"];
  if (requested === undefined) return false;
  if (Array.isArray(requested) && requested.length === 1 && deepEqual(requested[0]!, {})) {
    delete meta["managedFields"];
    return true;
  }
  // (`keepUndecodable`: entries that are some other request's error, kept for it)
  if (decodeManagedFields(requested) === undefined && keepUndecodable?.(requested) !== true) delete meta["managedFields"];
  return false;
}

/**
 * `encodeManagedFields`: sorted by operation, time, manager, apiVersion, subresource. An entry's apiVersion is its
 * own (which the scale handler may set apart from the key it is filed under, as Kubernetes does).
 */
export function encodeManagedFields(managers: Map<string, Managed>): JsonObject[] | undefined {
  const list = [...managers.values()].filter((m) => !m.set.empty());
  if (list.length === 0) return undefined;
  const secs = (m: Managed) => (m.time ? Date.parse(m.time) : 0);
  list.sort(
    (a, b) =>
      (a.operation < b.operation ? -1 : a.operation > b.operation ? 1 : 0) ||
      secs(a) - secs(b) ||
      (a.manager < b.manager ? -1 : a.manager > b.manager ? 1 : 0) ||
      (a.apiVersion < b.apiVersion ? -1 : a.apiVersion > b.apiVersion ? 1 : 0) ||
      (a.subresource < b.subresource ? -1 : a.subresource > b.subresource ? 1 : 0),
  );
  return list.map((m) => {
    const e: JsonObject = { manager: m.manager, operation: m.operation, apiVersion: m.apiVersion };
    if (m.time) e["time"] = m.time;
    e["fieldsType"] = "FieldsV1";
    e["fieldsV1"] = m.set.toFieldsV1();
    if (m.subresource !== "") e["subresource"] = m.subresource;
    return e;
  });
}

function withoutManaged(o: JsonObject): JsonObject {
  if (!isObject(o["metadata"]) || !Object.hasOwn(o["metadata"], "managedFields")) return o;
  const meta = { ...o["metadata"] };
  delete meta["managedFields"];
  return { ...o, metadata: meta };
}

/**
 * The object without the top-level fields a strategy resets: their paths are dropped from every comparison
 * result anyway (`ignore`), so they are left out of the comparison (a status write does not walk the spec).
 */
function withoutFields(o: JsonObject, fields: readonly string[]): JsonObject {
  if (!fields.some((k) => Object.hasOwn(o, k))) return o;
  const out = { ...o };
  for (const k of fields) delete out[k];
  return out;
}

function setManaged(o: JsonObject, managers: Map<string, Managed>): JsonObject {
  const out = withoutManaged(o);
  const enc = encodeManagedFields(managers);
  const meta = isObject(out["metadata"]) ? { ...out["metadata"] } : {};
  if (enc) meta["managedFields"] = enc;
  return { ...out, metadata: meta };
}

/** One conflict: another manager owns a path the request changes. */
interface Conflict {
  owner: Managed;
  path: PathElement[];
}

/** The 409 of `NewConflictError` (`Apply failed with N conflicts: …`). */
export function conflictError(conflicts: readonly Conflict[]): ApiError {
  const causes = conflicts.map((c) => ({
    reason: "FieldManagerConflict",
    message: `conflict with ${printManager(c.owner)}`,
    field: pathString(c.path),
  }));
  let message: string;
  if (conflicts.length === 1) {
    message = `Apply failed with 1 conflict: conflict with ${printManager(conflicts[0]!.owner)}: ${pathString(conflicts[0]!.path)}`;
  } else {
    const byManager = new Map<string, { owner: Managed; paths: string[] }>();
    for (const c of conflicts) {
      const id = identifier(c.owner);
      const e = byManager.get(id) ?? { owner: c.owner, paths: [] };
      e.paths.push(pathString(c.path));
      byManager.set(id, e);
    }
    const lines: string[] = [];
    for (const id of [...byManager.keys()].sort()) {
      const e = byManager.get(id)!;
      lines.push(`conflicts with ${printManager(e.owner)}:`, ...e.paths.map((p) => `- ${p}`));
    }
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join("\n")}`;
  }
  return new ApiError(failureStatus(409, "Conflict", message, { causes }));
}

/**
 * smd `Updater.update`: takes the changed fields from every other manager. Returns the conflicts (the
 * other managers' fields among the added/modified ones) and the comparison.
 */
function takeOver(
  live: JsonObject,
  next: JsonObject,
  type: TypeNode,
  managers: Map<string, Managed>,
  self: string,
  force: boolean,
  ignored: readonly string[],
  ignoredVersion: string | undefined,
): { conflicts: Conflict[]; changed: FieldSet; removed: FieldSet } {
  const cmp = compareValues(withoutFields(withoutManaged(live), ignored), withoutFields(withoutManaged(next), ignored), type);
  const changed = ignore(cmp.modified.union(cmp.added), ignored);
  cmp.removed = ignore(cmp.removed, ignored);
  // smd compares the objects once per manager's apiVersion, leaving out the reset fields registered for that
  // version: a manager of another version than `ignoredVersion` sees the comparison without them.
  const own = { changed, removed: cmp.removed };
  const perVersion = ignored.length > 0 && ignoredVersion !== undefined;
  let whole: { changed: FieldSet; removed: FieldSet } | undefined;
  const conflicts: Conflict[] = [];
  for (const [id, m] of managers) {
    if (id === self) continue;
    if (perVersion && m.apiVersion !== ignoredVersion) whole ??= wholeComparison(live, next, type);
    const seen = perVersion && m.apiVersion !== ignoredVersion ? whole! : own;
    for (const p of m.set.intersection(seen.changed).iteratePaths()) conflicts.push({ owner: m, path: p });
  }
  if (force || conflicts.length === 0) {
    for (const [id, m] of managers) {
      if (id === self) continue;
      const seen = perVersion && m.apiVersion !== ignoredVersion ? whole! : own;
      // A set the request takes nothing from stays the same set (its FieldsV1 is not encoded again).
      if (m.set.sharesMember(seen.changed) || m.set.sharesMember(seen.removed)) m.set = m.set.difference(seen.changed).difference(seen.removed);
      if (m.set.empty()) managers.delete(id);
    }
  }
  return { conflicts, changed, removed: cmp.removed };
}

/** What changed between `live` and `next`, reset fields included. */
function wholeComparison(live: JsonObject, next: JsonObject, type: TypeNode): { changed: FieldSet; removed: FieldSet } {
  const c = compareValues(withoutManaged(live), withoutManaged(next), type);
  return { changed: c.modified.union(c.added), removed: c.removed };
}

/**
 * The version whose managers do not see `ignored` change: the main resource's strategy registers its reset fields
 * (status) for the request's own version only, the status strategy for every version (undefined).
 */
function resetFieldsVersion(apiVersion: string, subresource: string): string | undefined {
  return subresource === "" ? apiVersion : undefined;
}

/**
 * Records an update by `manager` on `next` (`live` undefined for a create, which is compared with
 * `createBase`); returns `next` with managedFields.
 */
export function trackUpdate(
  live: JsonObject | undefined,
  next: JsonObject,
  type: TypeNode,
  manager: string,
  apiVersion: string,
  subresource: string,
  ignored: readonly string[] = [],
  createBase: JsonObject = {},
): JsonObject {
  const liveMeta = live && isObject(live["metadata"]) ? live["metadata"] : {};
  const newMeta = isObject(next["metadata"]) ? next["metadata"] : {};
  let managers: Map<string, Managed> | undefined;
  const requested = newMeta["managedFields"];
  // `[{}]` strips the managed fields; an empty list is no request (the live object's are kept).
  const reset = Array.isArray(requested) && requested.length === 1 && deepEqual(requested[0]!, {});
  if (subresource !== "") managers = decodeManagedFields(liveMeta["managedFields"]) ?? new Map();
  else if (reset) managers = new Map();
  else {
    managers = decodeManagedFields(requested);
    if (!managers || managers.size === 0) managers = decodeManagedFields(liveMeta["managedFields"]) ?? new Map();
  }
  // An existing object nobody tracks stays untracked until its first apply (`skipNonAppliedManager`).
  if (managers.size === 0 && live !== undefined && !reset) return withoutManaged(next);
  const base: JsonObject = live ?? createBase;
  const self = identifier({ manager: manager || "unknown", operation: "Update", apiVersion, subresource });
  const { changed, removed } = takeOver(base, next, type, managers, "current-operation", true, ignored, resetFieldsVersion(apiVersion, subresource));
  const set = strip(changed.difference(removed));
  if (!set.empty()) {
    const prev = managers.get(self);
    managers.set(self, {
      manager: manager || "unknown",
      operation: "Update",
      apiVersion,
      subresource,
      time: nowTimestamp(),
      set: prev ? prev.set.union(set) : set,
    });
  }
  capUpdateManagers(managers);
  return setManaged(next, managers);
}

/**
 * smd's `prune` of an apply: what the applier owned before (`last`) and no longer does leaves the merged object, in
 * three passes over field sets (`withNamedFieldsAsMembers`: a struct field with paths below it counts whole):
 * remove all of `last`; add back what any manager (the applier's new configuration among them) owns; then remove from
 * the merged object only what its own field set has, `last` had and the pruned value lost — so an item no field set
 * holds (an empty list) is never removed, and a map or list emptied this way is null (`removeItems`).
 * (the object itself keeps its apiVersion and kind, which nobody manages: it is never emptied to null)
 */
function pruneApplied(merged: JsonObject, lastSet: FieldSet, managers: Map<string, Managed>, type: TypeNode): JsonObject {
  const whole = (s: FieldSet) => withNamedFieldsAsMembers(s, type);
  const last = whole(lastSet);
  const mergedSet = whole(toFieldSet(merged, type));
  const removed = removeItems(merged, last, type) ?? {};
  let managed = new FieldSet();
  for (const m of managers.values()) managed = managed.union(m.set);
  const ownedBack = removeItems(merged, mergedSet.difference(whole(toFieldSet(removed, type)).union(whole(managed))), type) ?? {};
  const dangling = mergedSet.difference(whole(toFieldSet(ownedBack, type))).intersection(last);
  return dangling.empty() ? merged : ((removeItems(merged, dangling, type) ?? {}) as JsonObject);
}

/** `DefaultMaxUpdateManagers`. */
const MAX_UPDATE_MANAGERS = 10;

/**
 * `capManagersManager`: beyond 10 Update entries, the oldest are merged into one `ancient-changes`
 * bucket per API version (taking the time of the newest update merged in).
 */
function capUpdateManagers(managers: Map<string, Managed>): void {
  const updaters = [...managers.entries()].filter(([, m]) => m.operation === "Update");
  if (updaters.length <= MAX_UPDATE_MANAGERS) return;
  const secs = (m: Managed) => (m.time ? Math.floor(Date.parse(m.time) / 1000) : 0);
  updaters.sort(([ia, a], [ib, b]) => secs(a) - secs(b) || (ia < ib ? -1 : ia > ib ? 1 : 0));
  const firstOfVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > MAX_UPDATE_MANAGERS; i++) {
    const [id, m] = updaters[i]!;
    const bucket = identifier({ manager: "ancient-changes", operation: "Update", apiVersion: m.apiVersion, subresource: "" });
    const first = firstOfVersion.get(m.apiVersion);
    if (first === undefined) {
      firstOfVersion.set(m.apiVersion, id);
      continue;
    }
    if (!managers.has(bucket)) {
      const f = managers.get(first)!;
      managers.delete(first);
      managers.set(bucket, { ...f, manager: "ancient-changes", subresource: "" });
    }
    const b = managers.get(bucket)!;
    managers.set(bucket, { ...b, set: m.set.union(b.set), ...(m.time ? { time: m.time } : {}) });
    managers.delete(id);
    length--;
  }
}

/** The fields kubectl's client-side apply recorded and that still hold their recorded values. */
function lastAppliedFields(live: JsonObject, type: TypeNode, gv: string): FieldSet | undefined {
  const ann = isObject(live["metadata"]) && isObject(live["metadata"]["annotations"]) ? live["metadata"]["annotations"][LAST_APPLIED_ANNOTATION] : undefined;
  if (typeof ann !== "string" || ann === "") return undefined;
  let last: unknown;
  try {
    last = JSON.parse(ann);
  } catch {
    return undefined;
  }
  if (!isObject(last) || last["apiVersion"] !== gv) return undefined;
  const cmp = compareValues(last as JsonObject, withoutManaged(live), type);
  return toFieldSet(last as JsonObject, type).difference(cmp.modified).difference(cmp.added).difference(cmp.removed);
}

/**
 * Applies `config` for `manager` over `live` (an empty object for a create). Throws the 409 conflict
 * error unless `force`. Returns the new object with managedFields.
 */
export function trackApply(
  live: JsonObject | undefined,
  config: JsonObject,
  type: TypeNode,
  manager: string,
  apiVersion: string,
  force: boolean,
  ignored: readonly string[] = [],
  subresource = "",
): JsonObject {
  const cm = config["metadata"];
  if (isObject(cm) && cm["managedFields"] !== undefined && cm["managedFields"] !== null) throw apiErrors.badRequest("metadata.managedFields must be nil");
  const typeErrors = appliedTypeErrors(config, type);
  if (typeErrors !== undefined) {
    // `failed to create typed patch object (namespace/name; gvk)`: a plain error, answered as a 500 Status.
    const ns = isObject(cm) && typeof cm["namespace"] === "string" ? cm["namespace"] : "";
    const name = isObject(cm) && typeof cm["name"] === "string" ? cm["name"] : "";
    const gvk = `${typeof config["apiVersion"] === "string" ? config["apiVersion"] : ""}, Kind=${typeof config["kind"] === "string" ? config["kind"] : ""}`;
    throw new ApiError(failureStatus(500, "", `failed to create typed patch object (${ns}/${name}; ${gvk}): ${typeErrors}`));
  }
  const liveObj: JsonObject = live ?? {};
  const liveMeta = isObject(liveObj["metadata"]) ? liveObj["metadata"] : {};
  let managers = decodeManagedFields(liveMeta["managedFields"]);
  if (!managers) throw apiErrors.internal("failed to decode managed fields: invalid managedFields entry");
  if (managers.size === 0 && live !== undefined) {
    // The fields of an untracked object belong to "before-first-apply".
    const seeded = trackUpdate({}, { ...withoutManaged(liveObj), metadata: { ...liveMeta, managedFields: [{}] } }, type, "before-first-apply", apiVersion, "", ignored);
    managers = decodeManagedFields(isObject(seeded["metadata"]) ? seeded["metadata"]["managedFields"] : undefined) ?? new Map();
  }
  const self = identifier({ manager, operation: "Apply", apiVersion, subresource });
  const attempt = (mgrs: Map<string, Managed>, forced: boolean) => {
    const work = new Map([...mgrs].map(([k, v]): [string, Managed] => [k, { ...v }]));
    const lastSet = work.get(self)?.set;
    const newSet = ignore(toFieldSet(config, type), ignored);
    work.set(self, { manager, operation: "Apply", apiVersion, subresource, set: newSet, ...(mgrs.get(self)?.time ? { time: mgrs.get(self)!.time! } : {}) });
    let merged = mergeValues(withoutManaged(liveObj), withoutManaged(config), type) as JsonObject;
    if (lastSet && !lastSet.empty()) merged = pruneApplied(merged, lastSet, work, type);
    const r = takeOver(liveObj, merged, type, work, self, forced, ignored, resetFieldsVersion(apiVersion, subresource));
    return { work, merged, conflicts: r.conflicts };
  };
  let res = attempt(managers, force);
  if (!force && res.conflicts.length > 0) {
    let conflicts = res.conflicts;
    if (manager === "kubectl") {
      const allowed = lastAppliedFields(liveObj, type, apiVersion);
      if (allowed) conflicts = conflicts.filter((c) => !allowed.has(c.path));
    }
    if (conflicts.length > 0) throw conflictError(conflicts);
    res = attempt(managers, true);
  }
  const mine = res.work.get(self)!;
  mine.set = strip(mine.set);
  const changed = !deepEqual(withoutManaged(liveObj), res.merged);
  if (changed) mine.time = nowTimestamp();
  let out = setManaged(res.merged, res.work);
  if (manager === "kubectl" && typeof (isObject(liveMeta["annotations"]) ? liveMeta["annotations"][LAST_APPLIED_ANNOTATION] : undefined) === "string") {
    out = refreshLastApplied(out, config);
  }
  return out;
}

/** `lastAppliedUpdater`: the annotation becomes the applied configuration (without the annotation). */
function refreshLastApplied(obj: JsonObject, config: JsonObject): JsonObject {
  const cfg = deepClone(config);
  if (isObject(cfg["metadata"]) && isObject(cfg["metadata"]["annotations"])) {
    delete cfg["metadata"]["annotations"][LAST_APPLIED_ANNOTATION];
  }
  const meta = isObject(obj["metadata"]) ? { ...obj["metadata"] } : {};
  const ann = isObject(meta["annotations"]) ? { ...meta["annotations"] } : {};
  ann[LAST_APPLIED_ANNOTATION] = `${goJsonMarshal(cfg)}\n`;
  meta["annotations"] = ann;
  return { ...obj, metadata: meta };
}
