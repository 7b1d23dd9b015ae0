/**
 * The bundle of built-in kinds' OpenAPI v3 schemas (`schemas/builtin.json.br`, written by
 * `scripts/gen-builtin-schemas.ts` from the `api/openapi-spec/v3` documents of the `k8s.io/kubernetes`
 * module): every distinct definition body once, and per Kubernetes release the served kinds and which
 * body each definition name has.
 */
import { CrdkitError } from "../errors/crdkit-error.js";
import type { JsonObject, JsonValue } from "../value/json-value.js";

/** One release: `[apiVersion, kind, definition-name id, namespaced 0|1]` and `[name id, body id]`. */
export interface BundleRelease {
  /** The k8s.io/kubernetes module version the schemas come from, e.g. `v1.37.2`. */
  module: string;
  kinds: [string, string, number, number][];
  defs: [number, number][];
}

/** The decoded bundle. */
export interface BuiltinBundle {
  format: 1;
  source: string;
  /** Keyed by minor release, `"1.27"` … `"1.37"`. */
  versions: Record<string, BundleRelease>;
  names: string[];
  /** Definition bodies without descriptions; `$ref` values are definition names. */
  bodies: JsonObject[];
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Checks the shape of a parsed bundle; throws CrdkitError (`invalid-builtin-bundle`) when it is not one. */
export function asBuiltinBundle(v: JsonValue | unknown): BuiltinBundle {
  if (
    !isObj(v) ||
    v["format"] !== 1 ||
    !isObj(v["versions"]) ||
    !Array.isArray(v["names"]) ||
    !Array.isArray(v["bodies"]) ||
    Object.values(v["versions"]).some((r) => !isObj(r) || !Array.isArray(r["kinds"]) || !Array.isArray(r["defs"]))
  ) {
    throw new CrdkitError("invalid-builtin-bundle", "not a crdkit built-in schema bundle (format 1)");
  }
  return v as unknown as BuiltinBundle;
}

/** Release names (`"1.27"`, …) in ascending order. */
export function bundleReleases(b: BuiltinBundle): string[] {
  const minor = (s: string) => Number(s.split(".")[1] ?? 0);
  return Object.keys(b.versions).sort((a, c) => minor(a) - minor(c));
}
