/**
 * One built-in kind (e.g. `apps/v1` Deployment) compiled for the custom-resource pipeline, as
 * kubectl-validate validates it (`Validator.Validate`): its resolved OpenAPI schema becomes the one
 * served version of a synthetic CRD, so decoding (pruning, unknown fields, ObjectMeta coercion),
 * defaulting, OpenAPI value validation, embedded resources, list types and ObjectMeta checks are exactly
 * the CRD ones. The core group is handled as kubectl-validate does: `v1` objects are validated as
 * `core/v1` (the CRD machinery needs a group), and the stored object gets its `v1` back.
 */
import { v1ToInternal } from "../crd/internal.js";
import type { CustomResourceDefinition, JSONSchemaProps } from "../crd/types.js";
import { CompiledCrdImpl, type CompiledVersion, type CrdContext } from "../pipeline/compile.js";
import { countRules } from "../pipeline/rules-bookkeeping.js";
import type { PipelineResult, RequestOptions } from "../pipeline/types.js";
import { StructuralError, newStructural } from "../structural/new-structural.js";
import type { FactsTree } from "../structural/facts-tree.js";
import { lazyStructural } from "../structural/lazy-structural.js";
import type { Structural } from "../structural/structural.js";
import { compileSchemaValidator } from "../validation/schema-validator.js";
import { type JsonObject, getKey, isObject } from "../value/json-value.js";

/** The group kubectl-validate gives the core (legacy) API group. */
export const CORE_GROUP = "core";

/** Where a built-in kind comes from. */
export interface BuiltinKindInfo {
  /** The object's apiVersion as written (`v1`, `apps/v1`). */
  apiVersion: string;
  kind: string;
  namespaced: boolean;
  /** The Kubernetes release the schema is from (`1.37`). */
  kubernetesVersion: string;
  /** The OpenAPI definition name (`io.k8s.api.apps.v1.Deployment`). */
  definition: string;
}

function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf("/");
  return slash < 0 ? { group: "", version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** A built-in kind ready to validate objects; the same request methods as a compiled CRD. */
export class BuiltinKind {
  readonly group: string;
  readonly version: string;
  constructor(
    readonly info: BuiltinKindInfo,
    private readonly compiled: CompiledCrdImpl,
  ) {
    const gv = splitApiVersion(info.apiVersion);
    this.group = gv.group;
    this.version = gv.version;
  }
  get kind(): string {
    return this.info.kind;
  }
  get namespaced(): boolean {
    return this.info.namespaced;
  }
  get servedVersions(): string[] {
    return [this.version];
  }
  /** The structural form of {@link schema}. */
  get structural(): Structural | undefined {
    return this.compiled.ctx.versions.get(this.version)?.structural;
  }
  /** The schema the pipeline validates with (resolved, patched). */
  get schema(): JSONSchemaProps | undefined {
    return this.compiled.ctx.versions.get(this.version)?.schema;
  }
  create(obj: JsonObject, opts?: RequestOptions): PipelineResult {
    return this.restore(this.compiled.create(this.toPipeline(obj), this.opts(opts)));
  }
  update(newObj: JsonObject, oldObj: JsonObject, opts?: RequestOptions): PipelineResult {
    return this.restore(this.compiled.update(this.toPipeline(newObj), this.toPipeline(oldObj), this.opts(opts)));
  }
  updateStatus(newObj: JsonObject, oldObj: JsonObject, opts?: RequestOptions): PipelineResult {
    return this.restore(this.compiled.updateStatus(this.toPipeline(newObj), this.toPipeline(oldObj), this.opts(opts)));
  }

  private opts(opts: RequestOptions | undefined): RequestOptions {
    return { ...opts, version: this.version };
  }
  private toPipeline(obj: JsonObject): JsonObject {
    if (this.group !== "" || !isObject(obj) || getKey(obj, "apiVersion") !== this.info.apiVersion) return obj;
    return { ...obj, apiVersion: `${CORE_GROUP}/${this.version}` };
  }
  private restore(r: PipelineResult): PipelineResult {
    if (this.group === "" && r.object && getKey(r.object, "apiVersion") === `${CORE_GROUP}/${this.version}`) {
      r.object["apiVersion"] = this.info.apiVersion;
    }
    return r;
  }
}

/**
 * Compiles a kind from its resolved schema. Returns the structural-schema error text when the schema
 * cannot become a structural schema (never for the published built-in schemas). With `facts` (the
 * `factsTree` of an earlier compilation of the same schema, e.g. from a cache), the structural schema is
 * converted node by node as objects reach it (../structural/lazy-structural.ts).
 */
export function compileBuiltinKind(info: BuiltinKindInfo, schema: JSONSchemaProps, facts?: FactsTree): BuiltinKind | string {
  const { group, version } = splitApiVersion(info.apiVersion);
  const crdGroup = group === "" ? CORE_GROUP : group;
  const structural = facts !== undefined ? lazyStructural(schema, facts) : newStructural(schema);
  if (structural instanceof StructuralError) return structural.message;
  const lower = info.kind.toLowerCase();
  const crd: CustomResourceDefinition = {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${lower}.${crdGroup}` },
    spec: {
      group: crdGroup,
      names: { kind: info.kind, listKind: `${info.kind}List`, plural: lower, singular: lower },
      scope: info.namespaced ? "Namespaced" : "Cluster",
      versions: [{ name: version, served: true, storage: true, schema: { openAPIV3Schema: schema } }],
    },
  } as CustomResourceDefinition;
  const compiledVersion: CompiledVersion = {
    name: version,
    served: true,
    storage: true,
    schema,
    structural,
    statusStructural: structural.properties?.get("status"),
    subresources: undefined,
    validator: compileSchemaValidator(schema),
    statusValidator: undefined,
    ruleCount: countRules(structural),
  };
  const ctx: CrdContext = {
    crd,
    internal: v1ToInternal(crd),
    group: crdGroup,
    kind: info.kind,
    namespaced: info.namespaced,
    preserveUnknownFields: false,
    versions: new Map([[version, compiledVersion]]),
  };
  return new BuiltinKind(info, new CompiledCrdImpl(ctx));
}
