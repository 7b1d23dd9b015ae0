/**
 * The public shape of the custom-resource pipeline (implemented in this folder). Other layers (CLI,
 * server, oracle comparison) program against these types.
 */
import type { CustomResourceDefinition } from "../crd/types.js";
import type { FieldError } from "../errors/field-error.js";
import type { JsonObject } from "../value/json-value.js";

/** `fieldValidation` query parameter / `--field-validation`. The API server default is Warn; kubectl sends Strict. */
export type FieldValidationMode = "Strict" | "Warn" | "Ignore";

export interface RequestOptions {
  /** The version the object is written in (default: the object's apiVersion). */
  version?: string;
  /**
   * With `version`: a body of another apiVersion is decoded with that version's schema (none when the CRD
   * lacks it), as the CRD handler's decoder does, and the apiVersion mismatch is reported after decoding —
   * with the unknown fields it found as warnings (Warn), or their strict decoding error (Strict).
   */
  decodeBodyVersion?: boolean;
  /**
   * With `decodeBodyVersion`: the object is a JSON or merge patch's result, which the patch handler decodes
   * whatever version it names: an apiVersion other than `version` is no decoding error (validation answers it).
   */
  patched?: boolean;
  fieldValidation?: FieldValidationMode;
  /**
   * The namespace of the request (the URL's). Default: the object's own namespace (on update and /status:
   * the stored object's), or `default` (kubectl's default) when a namespaced object has none. Cluster-scoped objects have their namespace cleared.
   */
  namespace?: string;
  /**
   * Update and /status only: the object name in the request URL. Default: the stored (old) object's name.
   * A body naming another object is refused with Kubernetes' 400 (`decodeError`).
   */
  name?: string;
  /**
   * Create only: apply the create handler's `rest.WipeObjectMetaSystemFields` — drop client-set `uid`,
   * `creationTimestamp`, `deletionTimestamp`, `deletionGracePeriodSeconds` and `selfLink` — as Kubernetes
   * does for a client's request. Default true; pass false when the caller manages these fields itself
   * (`crdkit serve` fills them before admission).
   */
  wipeSystemFields?: boolean;
  /**
   * Strict-decoding errors found while decoding the request body (duplicate keys, see `src/io`): they come
   * before the unknown-field errors, fail the request in Strict mode and are warnings in Warn mode.
   */
  strictDecodingErrors?: readonly string[];
  /**
   * The JSON text a typed kind's Go struct decoder read (the body, a YAML body converted to JSON, a patched
   * document): its strict errors, unknown and duplicate fields alike, are reported in the order of this text.
   */
  strictOrderText?: string;
  /**
   * The object is pruned without unknown-field warnings or errors: server-side apply's result, which the
   * API server never decodes strictly (the field manager refused fields its type does not declare; what
   * remains is pruned where the type is deduced, e.g. a map under int-or-string).
   */
  silentPruning?: boolean;
  /**
   * The object's nulls stay (no `PruneNonNullableNullsWithoutDefaults`): server-side apply's result, which the API
   * server does not decode, so a `null` in the applied configuration reaches validation (`spec: null` is then
   * "must be of type object"), where a create or update body's is dropped when it is decoded.
   */
  keepNulls?: boolean;
  /**
   * The caller hands the object over (a value decoded for this request alone, no part of it shared or
   * read afterwards): the pipeline works on it in place instead of on a copy, as the API server works on
   * the object it decoded from the body. Default false: the input is left unchanged.
   */
  consumeInput?: boolean;
}

/** The outcome of one create/update, as the API server would produce it. */
export interface PipelineResult {
  /**
   * The object as it would be stored (pruned, defaulted, prepared), or null when the request failed
   * before that point (decode error).
   */
  object: JsonObject | null;
  /** A 400-level decode failure (strict unknown fields, bad metadata, wrong apiVersion/kind): Kubernetes' message. */
  decodeError?: string;
  /** Validation errors (HTTP 422), in Kubernetes' order. */
  errors: FieldError[];
  /** Warning texts (HTTP `Warning` headers): unknown fields in Warn mode, ratcheted CEL errors, finalizer warnings, ... */
  warnings: string[];
  /** Paths of fields dropped by pruning and unknown metadata fields, sorted, e.g. `spec.foo`. */
  unknownFields: string[];
  /**
   * Top-level fields of the decoded object that the strategy replaced (a main write's status, everything
   * but the status of a /status write), as decoded: the API server's field manager types the object before
   * the strategy runs, and drops managedFields when they do not fit the schema's types.
   */
  reset?: JsonObject;
}

/** A CRD compiled once (schemas, validators, rules), used for many objects. */
export interface CompiledCrd {
  readonly crd: CustomResourceDefinition;
  /** Create (POST) of an object. */
  create(obj: JsonObject, opts?: RequestOptions): PipelineResult;
  /** Update (PUT) of `newObj` over the stored `oldObj`. */
  update(newObj: JsonObject, oldObj: JsonObject, opts?: RequestOptions): PipelineResult;
  /** Update through the `/status` subresource. */
  updateStatus(newObj: JsonObject, oldObj: JsonObject, opts?: RequestOptions): PipelineResult;
}
