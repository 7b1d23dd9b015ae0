/**
 * Which schema validates an object of a given apiVersion and kind, for `crdkit validate`: a registered CRD,
 * a built-in kind (through a pluggable lookup), nothing (kubectl's `no matches for kind ...`), or a CRD that
 * exists but failed the CRD checks. The CRDs are those of a {@link LazyCrdRegistry} (the later one wins).
 */
import type { CompiledCrdImpl } from "../pipeline/compile.js";
import type { PipelineResult, RequestOptions } from "../pipeline/types.js";
import type { JsonObject } from "../value/json-value.js";
import type { CrdOrigin, LazyCrdRegistry } from "./lazy-registry.js";

/** What validates objects of one kind: a compiled CRD or a built-in schema. */
export interface ResourceValidator {
  /** Whether objects of the kind live in a namespace (a missing namespace defaults to `default`). */
  readonly namespaced: boolean;
  create(obj: JsonObject, opts?: RequestOptions): PipelineResult;
  update(newObj: JsonObject, oldObj: JsonObject, opts?: RequestOptions): PipelineResult;
}

/** `file:line` of a CRD (just the source for a cluster's CRD, which has no line). */
export function crdWhere(o: CrdOrigin): string {
  return o.line > 0 ? `${o.file}:${o.line}` : o.file;
}

/** The warning for a group and kind defined by two CRDs (the later one is used). */
export function duplicateCrdWarning(before: CrdOrigin, after: CrdOrigin, group: string, kind: string): string {
  return `CustomResourceDefinition for ${kind}.${group} is defined twice, in ${crdWhere(before)} and in ${crdWhere(after)}: the later one (${crdWhere(after)}) is used`;
}

/** A lookup of built-in kinds (Deployments, ConfigMaps, ...); undefined when the kind is not built in. */
export type BuiltinLookup = (apiVersion: string, kind: string) => ResourceValidator | undefined;

export type KindResolution =
  | { type: "crd"; validator: CompiledCrdImpl; version: string; origin: CrdOrigin }
  | { type: "builtin"; validator: ResourceValidator; version: string }
  /** No schema: `message` is kubectl's `no matches for kind "X" in version "g/v"`. */
  | { type: "missing"; message: string }
  /** The kind's CRD failed the CRD checks: `message` is `not validated: CRD <name> is invalid (file:line)`. */
  | { type: "crd-invalid"; message: string; origin: CrdOrigin };

function versionOf(apiVersion: string): string {
  return apiVersion.slice(apiVersion.indexOf("/") + 1);
}

/** kubectl's RESTMapper error text (`meta.NoKindMatchError`). */
export function noKindMatchMessage(apiVersion: string, kind: string): string {
  return `no matches for kind "${kind}" in version "${apiVersion}"`;
}

/** The schema for objects of `apiVersion` and `kind`: the run's CRDs first, then the built-in kinds. */
export function resolveKind(registry: LazyCrdRegistry, builtins: BuiltinLookup | undefined, apiVersion: string, kind: string): KindResolution {
  const crd = registry.resolve(apiVersion, kind);
  if (crd && !crd.ok) {
    return { type: "crd-invalid", origin: crd.origin, message: `not validated: CRD ${crd.name} is invalid (${crdWhere(crd.origin)})` };
  }
  const version = versionOf(apiVersion);
  if (crd) {
    if (crd.compiled.servedVersions.includes(version)) return { type: "crd", validator: crd.compiled, version, origin: crd.origin };
    return { type: "missing", message: noKindMatchMessage(apiVersion, kind) };
  }
  const builtin = builtins?.(apiVersion, kind);
  if (builtin) return { type: "builtin", validator: builtin, version };
  return { type: "missing", message: noKindMatchMessage(apiVersion, kind) };
}
