/**
 * Compiling a CRD once for many requests (Kubernetes' `getOrCreateServingInfoFor`): decoding and
 * defaulting the CRD, the internal form, and per served version the structural schema, subresources and
 * the rules that cannot be evaluated yet.
 */
import { type DecodedCrd, decodeCrd } from "../crd/decode-crd.js";
import type { CrdValidationResult } from "../crdvalidation/validate-crd.js";
import { aggregateMessage, errorString } from "../errors/field-error.js";
import { validateCrdCreateComplete } from "./check-crd-create.js";
import { type InternalCrd, schemaForVersion, subresourcesForVersion } from "../crd/internal.js";
import type { CustomResourceDefinition, CustomResourceSubresources, JSONSchemaProps } from "../crd/types.js";
import { CrdkitError } from "../errors/crdkit-error.js";
import { cachedStructural, StructuralError } from "../structural/new-structural.js";
import type { FactsTree } from "../structural/facts-tree.js";
import { lazyStructural } from "../structural/lazy-structural.js";
import type { Structural } from "../structural/structural.js";
import type { JsonValue } from "../value/json-value.js";
import { countRules } from "./rules-bookkeeping.js";
import { type SchemaValidator, type SchemaValidatorOptions, compileSchemaValidator } from "../validation/schema-validator.js";
import { runCreate, runUpdate, runUpdateStatus } from "./request.js";
import type { CompiledCrd, PipelineResult, RequestOptions } from "./types.js";
import type { JsonObject } from "../value/json-value.js";

/** Everything the request pipeline needs for one version. */
export interface CompiledVersion {
  name: string;
  served: boolean;
  storage: boolean;
  /** The version's openAPIV3Schema (undefined when the CRD has none). */
  schema: JSONSchemaProps | undefined;
  /** The structural schema; undefined when there is no schema. */
  structural: Structural | undefined;
  /** `properties.status` of the structural schema (for /status validation). */
  statusStructural: Structural | undefined;
  subresources: CustomResourceSubresources | undefined;
  /** The OpenAPI value validator of the whole object. */
  validator: SchemaValidator;
  /** The validator of `properties.status` (status subresource only). */
  statusValidator: SchemaValidator | undefined;
  /** x-kubernetes-validations rules in the schema (for the warning when the CEL engine cannot run them). */
  ruleCount: number;
}

/** Internal view of a compiled CRD, shared by the request functions. */
export interface CrdContext {
  crd: CustomResourceDefinition;
  internal: InternalCrd;
  group: string;
  kind: string;
  namespaced: boolean;
  preserveUnknownFields: boolean;
  versions: Map<string, CompiledVersion>;
}

/** The outcome of {@link tryCompileCrd}. */
export type CompileResult =
  | { ok: true; compiled: CompiledCrdImpl; warnings: string[] }
  | { ok: false; message: string; errors: string[] };

/** The compiled CRD object returned by {@link compileCrd}. */
export class CompiledCrdImpl implements CompiledCrd {
  constructor(readonly ctx: CrdContext) {}
  get crd(): CustomResourceDefinition {
    return this.ctx.crd;
  }
  /** `spec.group`. */
  get group(): string {
    return this.ctx.group;
  }
  /** `spec.names.kind`. */
  get kind(): string {
    return this.ctx.kind;
  }
  /** True for `scope: Namespaced`. */
  get namespaced(): boolean {
    return this.ctx.namespaced;
  }
  /** Names of the served versions. */
  get servedVersions(): string[] {
    return [...this.ctx.versions.values()].filter((v) => v.served).map((v) => v.name);
  }
  create(obj: JsonObject, opts?: RequestOptions): PipelineResult {
    return runCreate(this.ctx, obj, opts ?? {});
  }
  update(newObj: JsonObject, oldObj: JsonObject, opts?: RequestOptions): PipelineResult {
    return runUpdate(this.ctx, newObj, oldObj, opts ?? {});
  }
  updateStatus(newObj: JsonObject, oldObj: JsonObject, opts?: RequestOptions): PipelineResult {
    return runUpdateStatus(this.ctx, newObj, oldObj, opts ?? {});
  }
}

/**
 * The outcome of the API server's CRD create checks, in serialisable form (what a compiled-CRD cache
 * stores): accepted with its warnings, or rejected with Kubernetes' message and error texts.
 */
export type CrdVerdict = { ok: true; warnings: string[] } | { ok: false; message: string; errors: string[] };

/** Runs the CRD create checks (decoding, validation, CEL compilation and cost limits) on a CRD value. */
export function checkCrd(value: JsonValue | CustomResourceDefinition): CrdVerdict & { decoded?: DecodedCrd } {
  return verdictOf(validateCrdCreateComplete(value as JsonValue));
}

/** The verdict of a `validateCrdCreate(value, crdValidationOptions)` result a caller already has. */
export function verdictOf(checked: CrdValidationResult): CrdVerdict & { decoded?: DecodedCrd } {
  if (checked.decodeError !== undefined) return { ok: false, message: checked.decodeError, errors: [checked.decodeError] };
  const decoded = checked.crd!;
  if (checked.errors.length > 0) {
    const name = decoded.crd.metadata.name ?? "";
    const texts = checked.errors.map(errorString);
    return { ok: false, message: `CustomResourceDefinition.apiextensions.k8s.io "${name}" is invalid: ${aggregateMessage(checked.errors)}`, errors: texts };
  }
  return { ok: true, warnings: [...decoded.unknownFields.map((f) => `unknown field "${f}"`), ...checked.warnings], decoded };
}

/**
 * Compiles a CRD given as a decoded YAML/JSON value (v1 or v1beta1). Returns the CRD's decode or
 * schema errors instead of throwing.
 *
 * `verdict` is the result of an earlier {@link checkCrd} of the same value (e.g. from a cache): the
 * checks are then not run again.
 */
export function tryCompileCrd(value: JsonValue | CustomResourceDefinition, verdict?: CrdVerdict): CompileResult {
  const checked = verdict ?? checkCrd(value);
  if (!checked.ok) return checked;
  let decoded = "decoded" in checked ? (checked as { decoded?: DecodedCrd }).decoded : undefined;
  if (!decoded) {
    const d = decodeCrd(value as JsonValue);
    if (!d.ok) return { ok: false, message: d.message, errors: [d.message] };
    decoded = d;
  }
  return compileDecoded(decoded, checked.warnings);
}

/** The compiled schema of a version (shared by the versions with the same schema object). */
interface CompiledSchema {
  structural: Structural | undefined;
  validator: SchemaValidator;
  statusValidator: SchemaValidator | undefined;
  ruleCount: number;
}

/**
 * Compiles a version's schema; a string is the error (`newStructural`'s, or the validator's). With `facts`
 * (of a schema that passed the CRD checks), its structural form is converted as it is reached.
 */
function compileSchema(schema: JSONSchemaProps | undefined, status: boolean, opts: SchemaValidatorOptions, facts: FactsTree | undefined): CompiledSchema | string {
  let structural: Structural | undefined;
  if (schema) {
    const s = facts !== undefined ? lazyStructural(schema, facts) : cachedStructural(schema);
    if (s instanceof StructuralError) return s.message;
    structural = s;
  }
  try {
    const validator = compileSchemaValidator(schema, opts);
    const statusValidator = status ? compileSchemaValidator(schema?.properties?.["status"], opts) : undefined;
    return { structural, validator, statusValidator, ruleCount: countRules(structural) };
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

const PASSED_CHECKS: SchemaValidatorOptions = { passedCrdChecks: true };

/** Options of {@link compileDecoded}. */
export interface CompileDecodedOptions {
  /**
   * Compile a version's schema when a request first needs it (the CRD passed the create checks, which
   * reject what compiling could reject: non-structural schemas, `$ref`; so the validator's up-front walk
   * for `$ref` is skipped too): a run that validates objects of one version of a CRD with several
   * compiles one.
   */
  lazyVersions?: boolean;
  /**
   * With {@link lazyVersions}: the subtree facts of each version's structural schema (by version name,
   * `factsTree` of an earlier full conversion, e.g. kept in a cache): that version's structural schema is
   * then converted node by node as requests reach it (../structural/lazy-structural.ts).
   */
  structuralFacts?: ReadonlyMap<string, FactsTree>;
  /** Told each version's structural schema when it is made (before any request uses it). */
  onStructural?: (version: string, s: Structural) => void;
}

/** A version whose schema is compiled on first use (see {@link CompileDecodedOptions.lazyVersions}). */
function lazyVersion(crdName: string, base: Pick<CompiledVersion, "name" | "served" | "storage" | "schema" | "subresources">, compile: () => CompiledSchema | string): CompiledVersion {
  let c: CompiledSchema | undefined;
  const get = (): CompiledSchema => {
    if (c === undefined) {
      const r = compile();
      if (typeof r === "string") {
        throw new CrdkitError("invalid-crd", `CustomResourceDefinition.apiextensions.k8s.io "${crdName}" is invalid: spec.versions[${base.name}].schema.openAPIV3Schema: ${r}`);
      }
      c = r;
    }
    return c;
  };
  return {
    ...base,
    get structural() {
      return get().structural;
    },
    get statusStructural() {
      return get().structural?.properties?.get("status");
    },
    get validator() {
      return get().validator;
    },
    get statusValidator() {
      return get().statusValidator;
    },
    get ruleCount() {
      return get().ruleCount;
    },
  };
}

/**
 * Compiles a CRD that passed the create checks (with their `warnings`) from its decoded form, e.g. one
 * read back from a cache: what {@link tryCompileCrd} does after decoding.
 */
export function compileDecoded(decoded: DecodedCrd, warnings: string[], opts: CompileDecodedOptions = {}): CompileResult {
  const { crd, internal } = decoded;
  const name = crd.metadata.name ?? "";
  const errors: string[] = [];
  const versions = new Map<string, CompiledVersion>();
  // versions with the same schema (hoisted to spec.validation when all are equal) share its compilation
  const done = new Map<JSONSchemaProps | undefined, CompiledSchema>();
  const compileShared = (schema: JSONSchemaProps | undefined, status: boolean, facts: FactsTree | undefined): CompiledSchema | string => {
    const prev = done.get(schema);
    if (prev && (!status || prev.statusValidator)) return prev;
    const r = compileSchema(schema, status, opts.lazyVersions ? PASSED_CHECKS : {}, opts.lazyVersions ? facts : undefined);
    if (typeof r !== "string") done.set(schema, r);
    return r;
  };
  const compileVersion = (version: string, schema: JSONSchemaProps | undefined, status: boolean, facts: FactsTree | undefined): CompiledSchema | string => {
    const r = compileShared(schema, status, facts);
    if (typeof r !== "string" && r.structural && opts.onStructural) opts.onStructural(version, r.structural);
    return r;
  };
  for (const v of internal.spec.versions) {
    const schema = schemaForVersion(internal, v.name)?.openAPIV3Schema;
    const subresources = subresourcesForVersion(internal, v.name);
    const base = { name: v.name, served: v.served, storage: v.storage, schema, subresources };
    const status = subresources?.status !== undefined;
    if (opts.lazyVersions) {
      const facts = opts.structuralFacts?.get(v.name);
      versions.set(v.name, lazyVersion(name, base, () => compileVersion(v.name, schema, status, facts)));
      continue;
    }
    const c = compileVersion(v.name, schema, status, undefined);
    if (typeof c === "string") {
      errors.push(`spec.versions[${v.name}].schema.openAPIV3Schema: ${c}`);
      continue;
    }
    versions.set(v.name, { ...base, ...c, statusStructural: c.structural?.properties?.get("status") });
  }
  if (errors.length > 0) {
    const message = `CustomResourceDefinition.apiextensions.k8s.io "${name}" is invalid: ${errors.length === 1 ? errors[0] : `[${errors.join(", ")}]`}`;
    return { ok: false, message, errors };
  }
  const ctx: CrdContext = {
    crd,
    internal,
    group: crd.spec.group,
    kind: crd.spec.names.kind,
    namespaced: crd.spec.scope !== "Cluster",
    preserveUnknownFields: crd.spec.preserveUnknownFields === true,
    versions,
  };
  return { ok: true, compiled: new CompiledCrdImpl(ctx), warnings };
}

/**
 * Compiles a CRD (decoded YAML/JSON value, v1 or v1beta1) once, to validate many objects with it.
 * Throws a {@link CrdkitError} (`code: "invalid-crd"`) with Kubernetes' message when the CRD is rejected.
 */
export function compileCrd(value: JsonValue | CustomResourceDefinition): CompiledCrdImpl {
  const r = tryCompileCrd(value);
  if (!r.ok) throw new CrdkitError("invalid-crd", r.message);
  return r.compiled;
}
