/** `--kubernetes-version`: which release's built-in schemas to validate with. */
import type { BuiltinSchemas } from "../builtin/builtin-schemas.js";
import { CrdkitError } from "../errors/crdkit-error.js";

/**
 * The bundle release for a `--kubernetes-version` value (`1.30`, `v1.30`, `1.30.4`; default: the newest).
 * Throws CrdkitError (`unknown-kubernetes-version`) for a release the bundle does not have.
 */
export function builtinRelease(builtins: BuiltinSchemas, requested: string | undefined): string {
  if (requested === undefined) return builtins.newest;
  const m = /^v?(\d+)\.(\d+)(?:\.\d+)?$/.exec(requested.trim());
  const release = m ? `${Number(m[1])}.${Number(m[2])}` : requested;
  if (!builtins.releases.includes(release)) {
    throw new CrdkitError(
      "unknown-kubernetes-version",
      `unsupported --kubernetes-version "${requested}": built-in schemas are available for ${builtins.releases[0]} … ${builtins.newest}`,
    );
  }
  return release;
}
