/**
 * Strategic merge patch (`application/strategic-merge-patch+json`, what `kubectl apply`, `label`,
 * `annotate` and `edit` send for built-in kinds) for the RBAC kinds. Their fields carry no patch strategy
 * (lists such as `rules` and `subjects` are replaced, as a JSON merge patch would), except ObjectMeta's
 * `finalizers` (merged as a set; `$deleteFromPrimitiveList/finalizers` removes) and `ownerReferences`
 * (merged by `uid`). Directives: `$patch: replace|delete` on maps and list items; `$setElementOrder/…`
 * is accepted (order hints only); other directives are refused with 400.
 */
import { deepClone, deepEqual, isObject, type JsonObject, type JsonValue, setKey } from "../../value/json-value.js";
import { apiErrors } from "../endpoints/errors.js";

export const STRATEGIC_MERGE_PATCH = "application/strategic-merge-patch+json";

/** Per-path list strategies: `set` (primitive merge), or a merge key. */
const LIST_STRATEGY: Record<string, { set: true } | { key: string }> = {
  "metadata.finalizers": { set: true },
  "metadata.ownerReferences": { key: "uid" },
};

function mergeMap(target: JsonObject | undefined, patch: JsonObject, path: string): JsonValue | undefined {
  if (patch["$patch"] === "delete") return undefined;
  if (patch["$patch"] === "replace") {
    const out = deepClone(patch);
    delete out["$patch"];
    return out;
  }
  if (patch["$patch"] !== undefined) throw apiErrors.badRequest(`unknown patch type: ${JSON.stringify(patch["$patch"])} in map`);
  const out: JsonObject = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (k === "$patch" || k.startsWith("$setElementOrder/")) continue;
    if (k.startsWith("$deleteFromPrimitiveList/")) {
      const field = k.slice("$deleteFromPrimitiveList/".length);
      const p = path === "" ? field : `${path}.${field}`;
      if (!("set" in (listStrategy(p) ?? {})) || !Array.isArray(v)) throw apiErrors.badRequest(`unable to find api field in struct for the directive ${k}`);
      const cur = Array.isArray(out[field]) ? (out[field] as JsonValue[]) : [];
      setKey(out, field, cur.filter((x) => !v.some((d) => deepEqual(d, x))));
      continue;
    }
    if (k.startsWith("$")) throw apiErrors.badRequest(`unsupported strategic merge patch directive ${JSON.stringify(k)}`);
    const p = path === "" ? k : `${path}.${k}`;
    if (v === null) {
      delete out[k];
      continue;
    }
    const cur = Object.hasOwn(out, k) ? out[k] : undefined;
    const merged = isObject(v) ? mergeMap(isObject(cur) ? cur : undefined, v, p) : Array.isArray(v) ? mergeList(cur, v, p) : deepClone(v);
    if (merged === undefined) delete out[k];
    else setKey(out, k, merged);
  }
  return out;
}

/** The list strategy of the field at `path` (own keys only: a field named `constructor` has none). */
function listStrategy(path: string): { set: true } | { key: string } | undefined {
  return Object.hasOwn(LIST_STRATEGY, path) ? LIST_STRATEGY[path] : undefined;
}

function mergeList(target: JsonValue | undefined, patch: JsonValue[], path: string): JsonValue {
  const strategy = listStrategy(path);
  const cur = Array.isArray(target) ? target : [];
  if (!strategy) return deepClone(patch);
  if ("set" in strategy) {
    const out = [...cur];
    for (const x of patch) if (!out.some((y) => deepEqual(x, y))) out.push(deepClone(x));
    return out;
  }
  const out = cur.map((x) => deepClone(x));
  for (const item of patch) {
    if (!isObject(item)) throw apiErrors.badRequest(`${path}: list items must be objects`);
    const idx = out.findIndex((x) => isObject(x) && deepEqual(x[strategy.key] ?? null, item[strategy.key] ?? null));
    const merged = mergeMap(idx >= 0 ? (out[idx] as JsonObject) : undefined, item, path);
    if (merged === undefined) {
      if (idx >= 0) out.splice(idx, 1);
    } else if (idx >= 0) out[idx] = merged;
    else out.push(merged);
  }
  return out;
}

/** Applies a strategic merge patch to `base`. */
export function strategicMergePatch(base: JsonObject, patch: JsonValue): JsonValue {
  if (!isObject(patch)) throw apiErrors.badRequest("strategic merge patch must be a JSON object");
  return mergeMap(base, patch, "") ?? {};
}
