/** `crdkit validate`'s hook for built-in kinds: the shipped schemas of the `--kubernetes-version` release. */
import { BuiltinKind } from "../builtin/builtin-kind.js";
import type { BuiltinSchemas } from "../builtin/builtin-schemas.js";
import { builtinRelease } from "./builtin-release.js";
import { loadBuiltinSchemas } from "./builtin-loader.js";

/** Looks up a built-in kind; undefined when the release does not serve it (or its schema is unusable). */
export type BuiltinKindLookup = (apiVersion: string, kind: string) => BuiltinKind | undefined;

/**
 * The lookup for a `--kubernetes-version` value (default: the newest release). Throws CrdkitError
 * (`unknown-kubernetes-version`, a usage error) for a release the bundle does not have: at once when
 * `builtins` is given, else on the first lookup — the shipped bundle is read and decompressed only when a
 * document's kind is not a CRD's (a run that validates custom resources alone never pays for it).
 */
export function builtinKindLookup(kubernetesVersion: string | undefined, builtins?: BuiltinSchemas): BuiltinKindLookup {
  let release = builtins === undefined ? undefined : builtinRelease(builtins, kubernetesVersion);
  return (apiVersion, kind) => {
    const b = (builtins ??= loadBuiltinSchemas());
    release ??= builtinRelease(b, kubernetesVersion);
    const k = b.lookup(apiVersion, kind, release);
    return k instanceof BuiltinKind ? k : undefined;
  };
}
