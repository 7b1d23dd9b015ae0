/**
 * Built-in kinds through the compiled-CRD cache: a kind's resolved (and patched) schema is kept per
 * schema bundle, release, apiVersion and kind, so that a repeat run compiles the kind from it without
 * decompressing and parsing the shipped bundle or resolving the kind's definitions again.
 */
import { statSync } from "node:fs";
import { BuiltinKind, type BuiltinKindInfo, compileBuiltinKind } from "../builtin/builtin-kind.js";
import type { JSONSchemaProps } from "../crd/types.js";
import type { JsonValue } from "../value/json-value.js";
import { factsTree, isFactsTree } from "../structural/facts-tree.js";
import { BUILTIN_BUNDLE_URL } from "./builtin-bundle-url.js";
import type { BuiltinKindLookup } from "./builtin-lookup.js";
import type { SchemaCache } from "./schema-cache.js";

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

function asInfo(x: unknown, apiVersion: string, kind: string): BuiltinKindInfo | undefined {
  if (!isObj(x) || x["apiVersion"] !== apiVersion || x["kind"] !== kind || typeof x["namespaced"] !== "boolean") return undefined;
  if (typeof x["kubernetesVersion"] !== "string" || typeof x["definition"] !== "string") return undefined;
  return { apiVersion, kind, namespaced: x["namespaced"], kubernetesVersion: x["kubernetesVersion"], definition: x["definition"] };
}

/** The identity of the shipped schema bundle (size and mtime; "" when it cannot be read). */
function bundleId(): string {
  try {
    const st = statSync(BUILTIN_BUNDLE_URL);
    return `${st.size}-${st.mtimeMs}`;
  } catch {
    return "";
  }
}

/**
 * `lookup` (the built-in kinds of release `release`: `""` is the newest) with its kinds kept in `cache`.
 * Each kind is looked up once per run; a kind read back from the cache is compiled as `lookup` compiles it.
 */
export function cachedBuiltinLookup(cache: SchemaCache, release: string, lookup: BuiltinKindLookup): BuiltinKindLookup {
  let bundle: string | undefined;
  const seen = new Map<string, BuiltinKind | undefined>();
  return (apiVersion, kind) => {
    const id = `${apiVersion}\u0000${kind}`;
    if (seen.has(id)) return seen.get(id);
    bundle ??= bundleId();
    const key = bundle === "" ? undefined : cache.builtinKey(bundle, release, apiVersion, kind);
    let found = key === undefined ? undefined : fromEntry(cache.getBuiltinKind(key), apiVersion, kind);
    if (found === undefined) {
      const k = lookup(apiVersion, kind);
      found = { kind: k };
      // written after compiling: compiling reads the resolved schema, never changes it
      // with the subtree facts of its structural schema: read back, it is converted only where objects reach
      if (key !== undefined) {
        const s = k?.structural;
        cache.putBuiltinKind(key, k ? { info: k.info, schema: k.schema ?? null, ...(s ? { facts: factsTree(s) } : {}) } : { none: true });
      }
    }
    seen.set(id, found.kind);
    return found.kind;
  };
}

/** The kind of a cache entry (`kind` undefined: the release has no usable such kind); undefined: no entry. */
function fromEntry(entry: JsonValue | undefined, apiVersion: string, kind: string): { kind: BuiltinKind | undefined } | undefined {
  if (!isObj(entry)) return undefined;
  if (entry["none"] === true) return { kind: undefined };
  const info = asInfo(entry["info"], apiVersion, kind);
  if (!info || !isObj(entry["schema"])) return undefined;
  const facts = entry["facts"];
  const c = compileBuiltinKind(info, entry["schema"] as JSONSchemaProps, isFactsTree(facts) ? facts : undefined);
  return c instanceof BuiltinKind ? { kind: c } : undefined;
}
