/** What the REST layer needs to know about one served resource (a CRD version, or CRDs themselves). */
import type { PipelineResult, RequestOptions } from "../../pipeline/types.js";
import type { JsonObject, JsonValue } from "../../value/json-value.js";
import type { VersionConverter } from "../conversion/conversion.js";
import type { CompiledPath } from "../tableconvertor/jsonpath.js";
import type { TypeNode } from "../ssa/type-schema.js";
import type { TableConvertor } from "../tableconvertor/table.js";
import type { ApiError } from "../endpoints/errors.js";
import type { TypedScheme } from "./typed-scheme.js";
import type { GoShape } from "../../go/json-struct.js";

/** The admission step of writes: decode checks, defaulting, strategy preparation and validation. */
export interface Admission {
  create(obj: JsonObject, opts: RequestOptions): PipelineResult;
  update(newObj: JsonObject, oldObj: JsonObject, opts: RequestOptions): PipelineResult;
  updateStatus(newObj: JsonObject, oldObj: JsonObject, opts: RequestOptions): PipelineResult;
  /** The `/finalize` subresource (Namespaces): PUT only. */
  finalize?(newObj: JsonObject, oldObj: JsonObject, opts: RequestOptions): PipelineResult;
}

/** `subresources.scale` of a version. */
export interface ScaleSpec {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
  /**
   * Every version of the CRD (`group/version`) → its spec replicas path, null without the scale subresource
   * (`ResourcePathMappings`: how managed fields map between the custom resource and its Scale).
   */
  replicasPaths?: ReadonlyMap<string, string | null>;
}

export interface ResourceType {
  group: string;
  version: string;
  plural: string;
  singular: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  /** Discovery's `storageVersionHash` (of the storage version's group/version/kind). */
  storageVersionHash?: string;
  /**
   * The revision at which this resource's storage was set up (the API server's watch cache starts there):
   * a watch from an older resourceVersion is answered with 410 `too old resource version`.
   */
  watchCacheStart?: number;
  /** Objects of a Go type (CRDs): list items carry no apiVersion/kind, an empty `continue` is omitted. */
  typedList?: boolean;
  /**
   * Custom resources: a write's body is decoded in its own apiVersion (RequestOptions.decodeBodyVersion), so
   * a wrong apiVersion is answered by the decoder, after its unknown-field warnings.
   */
  decodesBodyVersion?: boolean;
  /**
   * A resource backed by a Go type whose bodies the API server decodes through this scheme (CRDs): an apiVersion
   * or kind it does not know, or cannot convert, is refused first (`typed-body.ts`).
   */
  typedScheme?: TypedScheme;
  /** The status subresource is enabled. */
  status: boolean;
  scale?: ScaleSpec;
  table: TableConvertor;
  /** selectableFields: field label (jsonPath without the leading dot) → compiled path. */
  selectableFields: Map<string, CompiledPath>;
  /** Storage key prefix of every object of this resource (all versions share it). */
  storagePrefix: string;
  /** The CRD is being deleted: only reads and deletes are allowed. */
  terminating: boolean;
  /** A deprecation warning for this version, if deprecated. */
  deprecationWarning?: string;
  /** Set for resources whose first DELETE only marks the object (CRDs: finalizer + Terminating condition). */
  markForDeletion?: (obj: JsonObject) => void;
  /**
   * Set for resources whose marked objects stay until a controller finishes (Namespaces: `spec.finalizers`):
   * the 409 text a DELETE answers meanwhile, or undefined once the object may go; an update that empties
   * `metadata.finalizers` deletes the object only when this is undefined (`ShouldDeleteDuringUpdate`).
   */
  deletionHeld?: (obj: JsonObject) => string | undefined;
  /** Subresources besides status and scale (Namespaces: `finalize`, PUT only), with their discovery verbs. */
  extraSubresources?: { name: string; verbs: string[] }[];
  /** `AllowUnconditionalUpdate`: a PUT without `metadata.resourceVersion` updates the current object. */
  unconditionalUpdate?: boolean;
  /**
   * The create strategy's additions made after field tracking (`PrepareForCreate` runs after the field
   * manager has recorded the request object; Namespaces: the `kubernetes` finalizer).
   */
  prepareCreate?: (obj: JsonObject) => void;
  /** Discovery verbs of a built-in resource (default: every verb); a DELETE of the collection needs `deletecollection`. */
  verbs?: string[];
  /** Called before an object is deleted for good (CRDs delete their custom resources). */
  beforeDelete?: (obj: JsonObject) => Promise<void>;
  /**
   * The 409 of a DELETE whose precondition failed, when the kind's REST storage checks it itself (CRDs:
   * `precondition failed: UID in precondition: …`); undefined: the generic store's text.
   */
  preconditionFailed?: (name: string, field: "UID" | "ResourceVersion", wanted: string, actual: string) => ApiError;
  /** Deletes answer the deleted object (else a `Status` of `Success`, as the custom resource store). */
  returnDeletedObject?: boolean;
  /**
   * A typed kind's stored object with its keys in Go's encoding order (its Go maps added to `maps`): JSON and
   * merge patches apply to that encoding (CRDs). Undefined: unstructured (custom resources).
   */
  goOrdered?: (obj: JsonObject, maps: WeakSet<object>) => JsonObject;
  /**
   * The Go struct a typed kind's JSON body decodes into: a body with duplicate fields is read as Go decodes it
   * (`decodeWithDuplicates`: the later occurrence decoded into the earlier). Undefined: the last occurrence wins.
   */
  bodyShape?: GoShape;
  /** Built-in kinds accept `application/strategic-merge-patch+json` through this (CRs do not). */
  strategicMergePatch?: (base: JsonObject, patch: JsonValue) => JsonValue;
  /**
   * What a create is compared with for field ownership: the Go zero value of a typed kind (CRDs), so that
   * structs the zero value already has are not "added". Undefined: nothing (custom resources).
   */
  createBase?: () => JsonObject;
  /** The structured-merge-diff type of the objects (field ownership), built lazily. */
  smdType(): TypeNode;
  /** Conversion between the CRD's versions (custom resources only; built lazily). */
  converter?: () => VersionConverter;
  /** Compiled lazily: the first write pays for it. */
  admission(): Admission;
}

/** `group/version`, or `version` for the core group. */
export function groupVersion(group: string, version: string): string {
  return group === "" ? version : `${group}/${version}`;
}

/** `discovery.StorageVersionHash`: base64 of the first 8 bytes of sha256("group/version/kind"). */
export function storageVersionHash(group: string, version: string, kind: string, sha256: (text: string) => Uint8Array): string {
  const bytes = sha256(`${group}/${version}/${kind}`).subarray(0, 8);
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}
