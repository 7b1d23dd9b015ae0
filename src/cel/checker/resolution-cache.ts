/**
 * A cache of overload resolutions for calls whose argument types contain no type parameters.
 * Such a resolution depends only on the function, the call style and the argument types (by
 * identity: shared constants, declared variable and field types), and leaves no type-parameter
 * bindings behind that later nodes could observe — so it can be replayed: same result type,
 * same overload ids, same number of fresh type variables consumed (cel-go's `_varN` numbering).
 * Keys are held weakly.
 * @module
 */
import type { CelType } from "../types/types.js";

/** A replayable resolution. */
export interface CachedResolution {
  readonly result: CelType;
  /** The call's reference (function name and overload ids), shared by every replay. */
  readonly reference: { readonly name: string; readonly overloadIds: readonly string[] };
  readonly typeVarsConsumed: number;
}

/** A trie node: the resolution for the argument types so far, and the nodes for one more argument type. */
interface Node {
  readonly next: WeakMap<CelType, Node>;
  result: CachedResolution | undefined;
}

const newNode = (): Node => ({ next: new WeakMap(), result: undefined });

/** Whether `t` mentions a type parameter anywhere. */
export function hasTypeParam(t: CelType): boolean {
  if (t.kind === "type_param") return true;
  const ps = t.params;
  for (let i = 0; i < ps.length; i++) if (hasTypeParam(ps[i] as CelType)) return true;
  return false;
}

/** Per-declaration-set cache keyed by function, call style and argument types. */
export class ResolutionCache {
  /** Roots of global and of member (receiver-style) calls, by function name. */
  private readonly globalRoots = new Map<string, Node>();
  private readonly memberRoots = new Map<string, Node>();

  get(fn: string, member: boolean, argTypes: readonly CelType[]): CachedResolution | undefined {
    let node = (member ? this.memberRoots : this.globalRoots).get(fn);
    for (let i = 0; i < argTypes.length; i++) {
      if (node === undefined) return undefined;
      node = node.next.get(argTypes[i] as CelType);
    }
    return node?.result;
  }

  set(fn: string, member: boolean, argTypes: readonly CelType[], r: CachedResolution): void {
    const roots = member ? this.memberRoots : this.globalRoots;
    let node: Node | undefined = roots.get(fn);
    if (node === undefined) {
      node = newNode();
      roots.set(fn, node);
    }
    for (const t of argTypes) {
      let next: Node | undefined = node.next.get(t);
      if (next === undefined) {
        next = newNode();
        node.next.set(t, next);
      }
      node = next;
    }
    node.result = r;
  }
}

const caches = new WeakMap<object, WeakMap<object, ResolutionCache>>();

/**
 * The cache shared by all checks against one function table and set of disabled overloads
 * (environments built with the same libraries share the function table).
 */
export function resolutionCacheFor(functions: object, disabledOverloads: object): ResolutionCache {
  if (functions === last.functions && disabledOverloads === last.disabled) return last.cache;
  const c = lookupCache(functions, disabledOverloads);
  last = { functions, disabled: disabledOverloads, cache: c };
  return c;
}

/** The most recent {@link resolutionCacheFor} answer (checks mostly run against one environment in a row). */
let last: { functions: object | undefined; disabled: object | undefined; cache: ResolutionCache } = {
  functions: undefined,
  disabled: undefined,
  cache: new ResolutionCache(),
};

function lookupCache(functions: object, disabledOverloads: object): ResolutionCache {
  let byDisabled = caches.get(functions);
  if (byDisabled === undefined) {
    byDisabled = new WeakMap();
    caches.set(functions, byDisabled);
  }
  let c = byDisabled.get(disabledOverloads);
  if (c === undefined) {
    c = new ResolutionCache();
    byDisabled.set(disabledOverloads, c);
  }
  return c;
}
