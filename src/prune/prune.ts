/**
 * Pruning of unknown fields (apiextensions `pkg/apiserver/schema/pruning/algorithm.go`): removes every
 * object field the structural schema does not specify, except under `x-kubernetes-preserve-unknown-fields`
 * and except `apiVersion`/`kind`/`metadata` of embedded resources (and of the resource root).
 */
import type { Structural } from "../structural/structural.js";
import { compareGoStrings } from "../go/fmt.js";
import { type JsonObject, type JsonValue, isObject } from "../value/json-value.js";
import { UnknownPathTracker } from "./unknown-paths.js";

const META_FIELDS = new Set(["apiVersion", "kind", "metadata"]);

/** Options of {@link prune}. */
export interface PruneOptions {
  /** Collect the paths of pruned fields (default true). Without it nothing is allocated for paths. */
  trackUnknownFieldPaths?: boolean;
}

/**
 * The schema as the resource root sees it: a missing schema becomes the empty schema, and the root is
 * always treated as `x-kubernetes-embedded-resource: true` (Go clones the node; so do we, shallowly).
 */
export function asResourceRoot(s: Structural | undefined | null): Structural {
  if (!s) return EMPTY_ROOT;
  if (s.xEmbeddedResource) return s;
  let r = rootClones.get(s);
  if (r === undefined) {
    r = { ...s, xEmbeddedResource: true };
    rootClones.set(s, r);
  }
  return r;
}

const rootClones = new WeakMap<Structural, Structural>();

/** A structural node with nothing set (Go's `&Structural{}`). */
export function emptyStructural(embedded = false): Structural {
  return {
    type: "",
    hasDefault: false,
    nullable: false,
    xPreserveUnknownFields: false,
    xEmbeddedResource: embedded,
    xIntOrString: false,
    raw: {},
  };
}

/**
 * `pruning.PruneWithOptions(obj, s, isResourceRoot, {TrackUnknownFieldPaths: true})`: mutates `obj` in
 * place and returns the pruned field paths sorted as Go's `sort.Strings` (e.g. `spec.list[1].b`;
 * `apiVersion`/`kind`/`metadata` directly at the root are removed silently when not specified).
 */
export function prune(
  obj: JsonValue,
  s: Structural | undefined | null,
  isResourceRoot: boolean,
  opts: PruneOptions = {},
): string[] {
  const schema = isResourceRoot ? asResourceRoot(s) : (s ?? undefined);
  const tracker = new UnknownPathTracker(opts.trackUnknownFieldPaths !== false);
  pruneNode(obj, schema, tracker);
  if (tracker.paths.length > 1) tracker.paths.sort(compareGoStrings);
  return tracker.paths;
}

function pruneNode(x: JsonValue, s: Structural | undefined, t: UnknownPathTracker): void {
  if (s?.xPreserveUnknownFields) {
    skipPrune(x, s, t);
    return;
  }
  if (Array.isArray(x)) {
    const items = s?.items;
    if (!items) {
      pruneWithoutSchema(x, t);
      return;
    }
    for (let i = 0; i < x.length; i++) {
      const v = x[i]!;
      if (typeof v !== "object" || v === null) continue; // scalars: nothing to prune
      const n = t.pushIndex(i);
      pruneNode(v, items, t);
      t.pop(n);
    }
    return;
  }
  if (!isObject(x)) return;
  // indexed loops: a for-of allocates an iterator (and a result per step) in V8's lower tiers
  const keys = Object.keys(x);
  if (!s) {
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      t.record(k);
      delete x[k];
    }
    return;
  }
  const props = s.properties;
  const ap = s.additionalProperties;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (s.xEmbeddedResource && META_FIELDS.has(k)) continue;
    const prop = props?.get(k);
    if (prop !== undefined) {
      recurse(x, k, prop, t);
    } else if (ap !== undefined) {
      recurse(x, k, ap.schema, t);
    } else {
      if (!META_FIELDS.has(k) || t.hasParent()) t.record(k);
      delete x[k];
    }
  }
}

/**
 * Everything below an array without items schema: objects lose all their keys, nested arrays are walked.
 * Iterative (an explicit stack), so arbitrarily deep `[[[…]]]` input cannot overflow the call stack.
 */
function pruneWithoutSchema(root: JsonValue[], t: UnknownPathTracker): void {
  // stack entries: [array, next index, path length to restore after the array]
  const stack: [JsonValue[], number, number][] = [[root, 0, t.parent.length]];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const [arr, i, base] = top;
    if (i >= arr.length) {
      stack.pop();
      t.pop(base);
      continue;
    }
    top[1] = i + 1;
    const v = arr[i]!;
    if (typeof v !== "object" || v === null) continue;
    t.pop(base);
    t.pushIndex(i);
    if (Array.isArray(v)) stack.push([v, 0, t.parent.length]);
    else if (isObject(v)) {
      for (const k of Object.keys(v)) {
        t.record(k);
        delete v[k];
      }
    }
  }
}

function recurse(x: JsonObject, k: string, s: Structural | undefined, t: UnknownPathTracker): void {
  const v = x[k]!;
  if (typeof v !== "object" || v === null) return;
  const n = t.pushKey(k);
  pruneNode(v, s, t);
  t.pop(n);
}

function skipPrune(x: JsonValue, s: Structural, t: UnknownPathTracker): void {
  if (Array.isArray(x)) {
    const items = s.items;
    if (!items) return;
    for (let i = 0; i < x.length; i++) {
      const v = x[i]!;
      if (typeof v !== "object" || v === null) continue;
      const n = t.pushIndex(i);
      skipPrune(v, items, t);
      t.pop(n);
    }
    return;
  }
  if (!isObject(x)) return;
  const props = s.properties;
  const ap = s.additionalProperties;
  const keys = Object.keys(x);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (s.xEmbeddedResource && META_FIELDS.has(k)) continue;
    const prop = props?.get(k);
    if (prop !== undefined) recurse(x, k, prop, t);
    else if (ap !== undefined) recurse(x, k, ap.schema, t);
  }
}

const EMPTY_ROOT: Structural = Object.freeze(emptyStructural(true)) as Structural;
