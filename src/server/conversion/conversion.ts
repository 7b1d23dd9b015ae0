/**
 * Conversion of custom resources between the versions of a CRD with `conversion.strategy: None`, as the
 * custom resource handler does it: objects are stored in the storage version; converting sets `apiVersion`
 * and prunes the object to the target version's schema (`schemaCoercingConverter`); decoding from storage
 * applies the stored version's defaults (`unstructuredDefaulter`). The request version's defaults are not
 * applied to what is served (measured against the real server: test/server-diff/sequences/06-versions).
 */
import { applyDefaults } from "../../defaulting/default.js";
import { applySchemaCoercion } from "../../defaulting/schema-coercer.js";
import { tryCompileCrd } from "../../pipeline/index.js";
import type { CompiledVersion } from "../../pipeline/compile.js";
import type { JsonObject } from "../../value/json-value.js";

/** Converts one CRD's objects between its versions. */
export interface VersionConverter {
  /** The version objects are stored in. */
  readonly storageVersion: string;
  /** An object admitted in some version, as it is stored (mutated in place and returned). */
  toStorage(obj: JsonObject): JsonObject;
  /** A stored object as served in `version` (mutated in place and returned). */
  fromStorage(obj: JsonObject, version: string): JsonObject;
}

function versionOf(apiVersion: unknown): string {
  if (typeof apiVersion !== "string") return "";
  const i = apiVersion.indexOf("/");
  return i < 0 ? apiVersion : apiVersion.slice(i + 1);
}

/** Builds the converter of `crd`; a CRD the engine cannot compile only gets `apiVersion` rewritten. */
export function versionConverter(crd: JsonObject, group: string, kind: string, storageVersion: string): VersionConverter {
  const compiled = tryCompileCrd(crd);
  const ctx = compiled.ok ? compiled.compiled.ctx : undefined;
  const version = (name: string): CompiledVersion | undefined => ctx?.versions.get(name);
  /** `schemaCoercingConverter`: apiVersion := target, then prune and coerce to the target's schema. */
  const convert = (obj: JsonObject, target: string): void => {
    obj["apiVersion"] = `${group}/${target}`;
    if (!ctx) return;
    applySchemaCoercion(obj, {
      group,
      kind,
      schemaFor: (v) => version(v)?.structural,
      preserveUnknownFields: ctx.preserveUnknownFields,
      dropInvalidMetadata: true,
    });
  };
  return {
    storageVersion,
    toStorage(obj) {
      if (versionOf(obj["apiVersion"]) !== storageVersion) convert(obj, storageVersion);
      return obj;
    },
    fromStorage(obj, target) {
      const stored = versionOf(obj["apiVersion"]);
      if (ctx && !ctx.versions.has(stored)) throw new StoredVersionError(`${group}/${stored}`);
      const s = version(stored)?.structural;
      if (s) applyDefaults(obj, s);
      // Converting for the response prunes to the target version; its defaults are not applied.
      if (stored !== target) convert(obj, target);
      return obj;
    },
  };
}

/** A stored object whose version the CRD no longer has (the API server answers 500 "corrupt object"). */
export class StoredVersionError extends Error {
  constructor(readonly groupVersion: string) {
    super(`request to convert CR from an invalid group/version: ${groupVersion}`);
  }
}
