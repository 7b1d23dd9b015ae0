/** Create, update (PUT), patch, apply and delete of objects, with optimistic concurrency. */
import { type FieldError, failureStatus, fieldError, FieldPath } from "../../errors/index.js";
import type { PipelineResult, RequestOptions } from "../../pipeline/types.js";
import { KeyExistsError, KeyNotFoundError, RevisionConflictError } from "../../storage/types.js";
import { MAX_DEPTH } from "../../io/yaml-decode.js";
import { goJsonMarshal } from "../../go/json.js";
import { goJsonTypeWord, goQuote } from "../../go/fmt.js";
import { depthExceeds } from "../../value/json-depth.js";
import { deepClone, deepEqual, isObject, kindOf, type JsonObject, type JsonValue } from "../../value/json-value.js";
import { STRATEGIC_MERGE_PATCH } from "../auth/strategic-merge.js";
import { ApiError, apiErrors, groupResource } from "./errors.js";
import { decodeBody, type DecodedBody, mediaType, readBody, unrecognizedBody } from "./http-io.js";
import {
  finalizersOf,
  generateName,
  metaOf,
  metaString,
  newUid,
  nowTimestamp,
  withoutResourceVersion,
} from "../registry/object-meta.js";
import { applyMerge, jsonPatch, JsonPatchDecodeError, JsonPatchDepthError, JsonPatchError, jsonPatchOpsTypeError, MAX_JSON_PATCH_OPERATIONS, mergePatch, pruneNulls } from "./patch.js";
import { firstOutOfRange, hasRawNumbers, rawPatchValue, withOutOfRangeTexts } from "./patch-numbers.js";
import { checkFieldManager, dryRunAndFieldValidationErrors, fieldManagerErrors } from "./field-manager-option.js";
import { patchTooDeep } from "./patch-depth.js";
import { PROTOBUF_MEDIA_TYPE, protobufBodyError, protobufDeleteOptions } from "./protobuf-body.js";
import { negotiateBodyType, negotiatePatchType, PATCH_TYPES } from "./content-type.js";
import { groupVersion } from "../registry/resource-type.js";
import {
  decodeStored,
  decodeWritten,
  encodeForStorage,
  writtenAnswer,
  fieldValidationOf,
  isDryRun,
  objectKey,
  type RestRequest,
  type RestResponse,
} from "./rest-common.js";
import { loadObject } from "./rest-read.js";
import { toScale } from "../registry/scale.js";
import { scaleApplied, scalePatched, scaleUpdated } from "./scale-write.js";
import { decodeScaleBody } from "./scale-body.js";
import { takeRequestManagedFields, trackApply, trackUpdate } from "../ssa/field-manager.js";
import { failsTypedConversion } from "../ssa/typed-validate.js";
import { writeDroppingManagedFieldsIfTooLarge } from "./too-large.js";
import { ConversionFailure } from "../conversion/conversion.js";
import { withRequestContext } from "../auth/request-context.js";
import { type DeleteOptions, deleteOptionsFromJson, deleteOptionsFromQuery, deleteOptionsFromValue, isDryRunDelete, validateDeleteOptions } from "./delete-options.js";
import type { ResourceType } from "../registry/resource-type.js";
import { deletionFinalizers, type PropagationOptions } from "../registry/deletion-finalizers.js";
import { patchNotDecodable } from "./patch-not-decodable.js";
import { goUintProblem, queryBool } from "./query-params.js";
import { typedBody } from "./typed-body.js";
import { type TypedPatched, typedPatched } from "./typed-patch.js";
import { decodePatchedTypeMeta } from "./typed-patch-type-meta.js";
import { unmarshalObjectMeta } from "../../objectmeta/go-decode.js";
import { parseGroupVersion } from "../../objectmeta/validate-meta.js";
import { decodeWithDuplicates } from "../typed/duplicate-fields.js";
import { bodyGvk } from "../../pipeline/body-gvk.js";


/** Built-in groups whose kinds crdkit decodes from protobuf (kubectl sends RBAC objects and Namespaces that way). */
const PROTOBUF_DECODED_GROUPS = new Set(["", "rbac.authorization.k8s.io", "authorization.k8s.io", "authentication.k8s.io", "apiextensions.k8s.io"]);

/**
 * Reads and decodes the request body as one object (strict-decoding problems kept in `r`). `checkOptions`
 * runs between reading and decoding, where the API server's handlers decode and validate the options.
 */
async function readObject(r: RestRequest, checkOptions?: () => void): Promise<JsonObject> {
  // Create negotiates the media type before reading the body, update after (as the API server's handlers).
  const negotiate = () => negotiateBodyType(r.req.headers["content-type"]);
  const early = r.req.method === "POST" ? negotiate() : undefined;
  const body = await readBody(r.req);
  checkOptions?.();
  const type = early ?? negotiate();
  if (type === "application/vnd.kubernetes.protobuf" && !PROTOBUF_DECODED_GROUPS.has(r.rt.group)) {
    throw protobufBodyError(body, r.rt.kind, r.rt.version);
  }
  const unstructured = r.rt.decodesBodyVersion === true && type !== "application/vnd.kubernetes.protobuf";
  const { value, strictErrors, outOfRange } = decodeBody(body, type, r.rt.kind, unstructured || r.rt.typedScheme !== undefined);
  if (unstructured) {
    // the unstructured decoder's type-meta errors name the body as sent (the pipeline sees it changed); YAML is
    // read as the JSON it converts to (keys sorted)
    const typeError = isObject(value) ? typeMetaTypeError(value, type !== "application/json") : undefined;
    if (typeError !== undefined) throw unrecognizedBody(r.rt.kind, typeError, body);
    // The kind was read (a number elsewhere is only scanned); decoding the object into Go values fails on it
    // before the decoder looks for the kind (the request's kind and version fill in what the body lacks).
    if (outOfRange !== undefined && (value === null || isObject(value))) {
      const { kind, version } = bodyKind(value ?? {}, r.rt);
      throw apiErrors.badRequest(`${kind} in version ${goQuote(version)} cannot be handled as a ${r.rt.kind}: json: cannot unmarshal number ${outOfRange} into Go value of type float64`);
    }
    if (kindMissing(value)) throw missingKindError(r, body, type === "application/json" ? undefined : value);
  }
  if (outOfRange !== undefined && !r.rt.typedScheme && isObject(value)) {
    throw unrecognizedBody(r.rt.kind, `couldn't get version/kind; json parse error: strconv.ParseFloat: parsing ${JSON.stringify(outOfRange)}: value out of range`, body);
  }
  if (r.rt.typedScheme && (value === null || isObject(value))) {
    const typeError = type === "application/json" && isObject(value) ? typeMetaTypeError(value) : undefined;
    if (typeError !== undefined) throw unrecognizedBody(r.rt.kind, typeError, body);
    r.strictErrors = strictErrors;
    // The Go decoder reads JSON as sent, YAML as the JSON it converts to (keys sorted).
    r.strictOrderText = type === "application/json" ? body.toString("utf8") : goJsonMarshal(value);
    // A number beyond float64 fails where the Go type converts it (a number field, a v1.JSON value), with its text.
    const sent = outOfRange !== undefined && type === "application/json" ? rawPatchValue(body.toString("utf8")) : undefined;
    // Duplicate fields are decoded into the earlier ones (YAML is converted to JSON without them first).
    const merged = strictErrors.length > 0 && type === "application/json" && sent === undefined && r.rt.bodyShape && isObject(value)
      ? decodeWithDuplicates(body.toString("utf8"), r.rt.bodyShape)
      : undefined;
    const decoded = isObject(merged) ? merged : value;
    return typedBody(r.rt, r.rt.typedScheme, sent === undefined ? decoded : withOutOfRangeTexts(value, sent), body);
  }
  if (!isObject(value)) {
    if (value === null) throw apiErrors.badRequest(`the object provided is unrecognized (must be of type ${r.rt.kind}): body is not an object`);
    const goType = Array.isArray(value) ? "array" : typeof value === "string" ? "string" : typeof value === "boolean" ? "bool" : "number";
    throw unrecognizedBody(r.rt.kind, `couldn't get version/kind; json parse error: ${NOT_A_STRUCT(goType)}`, body);
  }
  r.strictErrors = strictErrors;
  return value;
}

/** The serializer's reading of apiVersion and kind from a body that is no object. */
const NOT_A_STRUCT = (goType: string) =>
  `json: cannot unmarshal ${goType} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`;

/** The kind and version a decode error names: the body's, else the request's (`gvkWithDefaults`). */
function bodyKind(obj: JsonObject, rt: ResourceType): { kind: string; version: string } {
  return bodyGvk(obj, { group: rt.group, version: rt.version, kind: rt.kind }) ?? { kind: rt.kind, version: rt.version };
}

/** The JSON decoder's error for an apiVersion or kind that is no string (the first in the body's key order). */
function typeMetaTypeError(v: JsonObject, sorted = false): string | undefined {
  const av = v["apiVersion"];
  const kind = v["kind"];
  if ((av === undefined || av === null || typeof av === "string") && (kind === undefined || kind === null || typeof kind === "string")) return undefined;
  for (const k of sorted ? ["apiVersion", "kind"] : Object.keys(v)) {
    const x = v[k];
    if ((k === "apiVersion" || k === "kind") && x !== null && x !== undefined && typeof x !== "string") {
      return `couldn't get version/kind; json parse error: json: cannot unmarshal ${goJsonTypeWord(x)} into Go struct field .${k} of type string`;
    }
  }
  return undefined;
}

/** A custom resource body (`null` too) without a kind, which the unstructured JSON decoder refuses. */
function kindMissing(v: JsonValue): boolean {
  if (v === null) return true;
  if (!isObject(v)) return false;
  const av = v["apiVersion"];
  const k = v["kind"];
  // a kind or apiVersion that is no string is the decoder's earlier error (the pipeline's)
  if (av !== undefined && av !== null && typeof av !== "string") return false;
  return k === undefined || k === null || k === "";
}

/**
 * The unstructured decoder's `Object 'Kind' is missing in '<body>'`, as the handlers report it: with the strict
 * decoder (`fieldValidation` Warn or Strict) as an unrecognized object with a summary of the body, with the
 * plain one (`Ignore`) as an object of the request's kind and version that cannot be handled.
 */
function missingKindError(r: RestRequest, body: Buffer, yaml: JsonValue | undefined): ApiError {
  if (fieldValidationOf(r.query) === "Ignore") {
    // the plain YAML decoder converts the document to JSON first (sorted keys) and names that
    const text = yaml === undefined ? body.toString("utf8") : goJsonMarshal(yaml);
    return apiErrors.badRequest(`${r.rt.kind} in version ${JSON.stringify(r.rt.version)} cannot be handled as a ${r.rt.kind}: Object 'Kind' is missing in '${text}'`);
  }
  return unrecognizedBody(r.rt.kind, `Object 'Kind' is missing in '${body.toString("utf8")}'`, body);
}

/** `managerOrUserAgent`: the fieldManager parameter, else the User-Agent up to its first `/` (printable, ≤ 128 bytes). */
export function managerOf(r: RestRequest): string {
  const m = r.query.get("fieldManager");
  if (m !== null && m !== "") return m;
  const ua = (r.req.headers["user-agent"] ?? "").split("/")[0] ?? "";
  // Printable ASCII within the limit is kept whole (the usual case; no per-character checks).
  if (/^[\x20-\x7e]{0,128}$/.test(ua)) return ua;
  let out = "";
  for (const ch of ua) {
    if (/\p{C}/u.test(ch)) continue;
    if (Buffer.byteLength(out + ch) > 128) break;
    out += ch;
  }
  return out;
}

/** Top-level fields whose changes the strategy resets, so no manager owns them (`GetResetFields`). */
function resetFields(r: RestRequest): string[] {
  if (r.subresource === "status") return ["spec", "metadata"];
  return r.subresource === "" && r.rt.status ? ["status"] : [];
}

/** Pipeline options of a write. */
function requestOptions(r: RestRequest): RequestOptions {
  const o: RequestOptions = { fieldValidation: fieldValidationOf(r.query), version: r.rt.version };
  if (r.rt.decodesBodyVersion) o.decodeBodyVersion = true;
  if (r.strictErrors && r.strictErrors.length > 0) o.strictDecodingErrors = r.strictErrors;
  if (r.strictOrderText !== undefined) o.strictOrderText = r.strictOrderText;
  if (r.apply === true) {
    o.silentPruning = true;
    o.keepNulls = true;
  }
  return o;
}

/** Whether a system metadata field's JSON type decodes into its ObjectMeta field (strings, or an int64). */
function metaFieldDecodes(k: string, v: JsonValue): boolean {
  return k === "generation" || k === "deletionGracePeriodSeconds" ? kindOf(v) === "integer" : typeof v === "string";
}

/**
 * The group a custom resource's patched document names (`Unstructured.GroupVersionKind()`, as `BeforeUpdate` reads
 * it with the unstructured typer), or undefined when it names no version: that typer's error (a 500), which
 * `commitUpdate` answers only when decoding the document found nothing first (a metadata field of the wrong type is
 * the patch's 422 before `BeforeUpdate` runs). The patch handler decodes the patched document whatever its
 * apiVersion; the strategy's validation answers a wrong one (422).
 */
function patchedGroup(r: RestRequest, obj: JsonObject): string | undefined {
  const av = obj["apiVersion"];
  // (a null apiVersion is the decoder's error, an apiVersion that does not parse was refused by the patcher)
  if (av === null) return r.rt.group;
  const gv = parseGroupVersion(typeof av === "string" ? av : "");
  if (gv === null) return r.rt.group;
  if (gv[1] === "") return undefined;
  return gv[0];
}

/** The unstructured typer's error for a patched custom resource without a version (`patchedGroup`). */
const NO_API_VERSION = "Object 'apiVersion' is missing in 'object has no apiVersion field'";

/**
 * TypeMeta and namespace checks shared by create and update (`rest.BeforeCreate/BeforeUpdate`). `patched`: a
 * custom resource's JSON or merge patch; the group to name in its validation errors is returned.
 */
function checkEnvelope(r: RestRequest, obj: JsonObject, patched = false): string | undefined {
  const gv = groupVersion(r.rt.group, r.rt.version);
  const av = obj["apiVersion"];
  if (!patched && typeof av === "string" && av !== "" && av !== gv) {
    // A custom resource's decoder decodes the body in its own version first: its answer (the mismatch with the
    // unknown fields it found as warnings, or their strict decoding error) is thrown by `admitted`.
    if (r.rt.decodesBodyVersion) admitted(r, r.rt.admission().create(obj, requestOptions(r)), "");
    throw apiErrors.badRequest(`the API version in the data (${av}) does not match the expected API version (${gv})`);
  }
  // metadata null decodes as none (unstructured and Go struct decoding alike)
  if (obj["metadata"] === null) delete obj["metadata"];
  const m = obj["metadata"];
  if (m !== undefined && !isObject(m)) {
    if (r.rt.decodesBodyVersion) {
      // A custom resource's coercer reads apiVersion and kind before the metadata: its first error is the answer.
      const res = withRequestContext(r.context, () => r.rt.admission().create(deepClone(obj), requestOptions(r)));
      if (res.decodeError !== undefined) admitted(r, res, "");
    }
    // json.Unmarshal into ObjectMeta: a field of a Go struct (CRDs), or the unstructured object's metadata.
    const into = r.rt.typedScheme ? `Go struct field ${r.rt.kind}.metadata` : "Go value";
    const why = `json: cannot unmarshal ${goJsonTypeWord(m)} into ${into} of type v1.ObjectMeta`;
    const { kind, version } = bodyKind(obj, r.rt);
    throw apiErrors.badRequest(`${kind} in version ${goQuote(version)} cannot be handled as a ${r.rt.kind}: ${why}`);
  }
  const group = patched ? patchedGroup(r, obj) : r.rt.group;
  const meta = metaOf(obj);
  // A namespace of another type is the decoder's error (ObjectMeta.namespace of type string), not replaced here.
  if (meta["namespace"] !== undefined && meta["namespace"] !== null && typeof meta["namespace"] !== "string") return group;
  const ns = typeof meta["namespace"] === "string" ? meta["namespace"] : "";
  if (r.rt.namespaced) {
    if (ns === "") meta["namespace"] = r.namespace;
    else if (ns !== r.namespace) {
      const e = apiErrors.badRequest("the namespace of the provided object does not match the namespace sent on the request");
      if (r.rt.decodesBodyVersion && !patched) {
        // The create and update handlers check the namespace after decoding the body: a custom resource's decoding
        // error (a strict one under Strict) comes first, and its warnings (unknown and duplicate fields) ride on this.
        const res = withRequestContext(r.context, () => r.rt.admission().create(deepClone(obj), requestOptions(r)));
        if (res.decodeError !== undefined && res.decodeError !== e.status.message) admitted(r, res, "");
        e.warnings = collectWarnings(r, res);
      } else if (r.strictErrors && r.strictErrors.length > 0 && fieldValidationOf(r.query) === "Warn") {
        // the body's duplicate fields were warned about when it was decoded, before this check
        e.warnings = [...r.strictErrors];
      }
      throw e;
    }
  } else delete meta["namespace"];
  // A selfLink that is no string is the decoder's error (ObjectMeta.selfLink of type string), not dropped here.
  if (meta["selfLink"] === undefined || meta["selfLink"] === null || typeof meta["selfLink"] === "string") delete meta["selfLink"];
  return group;
}

/** Turns a pipeline verdict into an error, or returns the object to store. */
function admitted(r: RestRequest, res: PipelineResult, name: string, group = r.rt.group): JsonObject {
  if (res.decodeError !== undefined) {
    if (res.decodeError.startsWith("the API version in the data (")) {
      const e = apiErrors.badRequest(res.decodeError);
      e.warnings = collectWarnings(r, res);
      throw e;
    }
    const msg = res.decodeError.includes("cannot be handled as a") || res.decodeError.startsWith("the object provided is unrecognized")
      ? res.decodeError
      : `${r.rt.kind} in version ${JSON.stringify(r.rt.version)} cannot be handled as a ${r.rt.kind}: ${res.decodeError}`;
    throw apiErrors.badRequest(msg);
  }
  // `NewInvalid` names the object's own kind (`CronJob.stable.example.com "x" is invalid: kind: …`).
  const kind = res.object === null || res.object === undefined ? undefined : res.object["kind"];
  if (res.errors.length > 0) {
    const e = apiErrors.invalid(typeof kind === "string" && kind !== "" ? kind : r.rt.kind, group, name, res.errors);
    // Kubernetes records decoding's warnings (unknown fields under fieldValidation=Warn) before validating.
    e.warnings = collectWarnings(r, res);
    throw e;
  }
  if (!res.object) throw apiErrors.internal("admission returned no object");
  return res.object;
}

const RESET_ON_CREATE = ["resourceVersion", "managedFields", "deletionTimestamp", "deletionGracePeriodSeconds", "uid", "creationTimestamp"];

/** Whether a field a create resets (uid, creationTimestamp, …) holds a value that ObjectMeta cannot decode. */
function resetFieldsUndecodable(meta: JsonObject): boolean {
  const part: JsonObject = {};
  for (const k of RESET_ON_CREATE) if (Object.hasOwn(meta, k)) part[k] = meta[k]!;
  return Object.keys(part).length > 0 && unmarshalObjectMeta(part, false).error !== undefined;
}

/** `POST` to a collection. */
export async function createObject(r: RestRequest, body?: JsonObject, applied = false): Promise<RestResponse> {
  const obj = body ?? (await readObject(r, () => checkFieldManager(r.query, "CreateOptions")));
  if (r.rt.terminating) {
    throw apiErrors.forbiddenResource(r.rt.plural, r.rt.group, metaString(obj, "name") || r.name, "create not allowed while custom resource definition is terminating");
  }
  checkEnvelope(r, obj);
  const meta = metaOf(obj);
  if (applied) {
    // An apply that creates goes through the store's update: it parses the applied resourceVersion first.
    const rv = meta["resourceVersion"];
    const problem = typeof rv === "string" && rv !== "" ? goUintProblem(rv) : undefined;
    if (problem !== undefined) throw apiErrors.internalPlain(`strconv.ParseUint: parsing ${goQuote(rv as string)}: ${problem}`);
  }
  if (metaString(obj, "name") === "" && typeof meta["generateName"] === "string" && meta["generateName"] !== "") {
    meta["name"] = generateName(meta["generateName"]);
  }
  // Kubernetes decodes the body (its ObjectMeta) before the strategy resets the fields dropped below: a value of
  // the wrong Go type there is its decode error, as the whole body's decoding orders it.
  // (an apply that creates builds the object from the configuration: the strategy's reset overwrites such values)
  if (!applied && resetFieldsUndecodable(meta)) {
    const res = withRequestContext(r.context, () => r.rt.admission().create(deepClone(obj), requestOptions(r)));
    if (res.decodeError !== undefined) admitted(r, res, "");
  }
  // etcd3's Create refuses an object with a resourceVersion (one that parses as a number other than 0), after validation.
  const givenVersion = meta["resourceVersion"];
  const versionSet = typeof givenVersion === "string" && /^[0-9]+$/.test(givenVersion) && BigInt(givenVersion) !== 0n && BigInt(givenVersion) < 2n ** 64n;
  delete meta["resourceVersion"];
  const stripManaged = !applied && takeRequestManagedFields(meta);
  delete meta["deletionTimestamp"];
  delete meta["deletionGracePeriodSeconds"];
  meta["uid"] = newUid();
  meta["creationTimestamp"] = nowTimestamp();
  const opts = requestOptions(r);
  // A body read here is used by nothing else: admission may decode it in place instead of copying it.
  if (body === undefined) opts.consumeInput = true;
  const result = withRequestContext(r.context, () => r.rt.admission().create(obj, opts));
  // Admission plugins (NamespaceLifecycle) see the decoded object, before the strategy's validation.
  if (r.admit && result.decodeError === undefined) await r.admit("create", obj);
  const name = metaString(obj, "name");
  const warnings = collectWarnings(r, result);
  let toStore = admitted(r, result, name);
  // The field manager sees the object as decoded: pruned and defaulted (defaults are owned by the writer).
  if (stripManaged) metaOf(toStore)["managedFields"] = [{}];
  if (!applied) toStore = await tracked(r, undefined, toStore, result.reset);
  r.rt.prepareCreate?.(toStore);
  if (isDryRun(r.query)) {
    // A dry run answers what the real write would: a name that exists is a conflict.
    if (await r.store.get(objectKey(r.rt, r.namespace, name))) throw await createConflict(r, toStore, name, warnings);
    // The dry-run storage copies the object as it is: the resourceVersion the body set (which etcd3's Create
    // would have replaced) is answered.
    if (typeof givenVersion === "string" && givenVersion !== "") metaOf(toStore)["resourceVersion"] = givenVersion;
    return { code: 201, body: toStore, warnings };
  }
  if (versionSet) {
    const e = apiErrors.internalPlain("resourceVersion should not be set on objects to be created");
    if (warnings.length > 0) e.warnings = warnings;
    throw e;
  }
  try {
    const key = objectKey(r.rt, r.namespace, name);
    const sv = await writeDroppingManagedFieldsIfTooLarge(!applied, toStore, async () => r.store.create(key, await encodeForStorage(r.rt, toStore)));
    return await writtenAnswer(r, sv, 201, warnings);
  } catch (e) {
    if (e instanceof KeyExistsError) throw await createConflict(r, toStore, name, warnings);
    throw e;
  }
}

/**
 * The registry store's answer to a create of a name that exists: `CheckGeneratedNameError` (an object with a
 * generateName: the server could not generate a unique name), and `object is being deleted: ` before the message
 * when the existing object has a deletionTimestamp.
 */
async function createConflict(r: RestRequest, obj: JsonObject, name: string, warnings: string[]): Promise<ApiError> {
  const gen = metaOf(obj)["generateName"];
  const e =
    typeof gen === "string" && gen !== ""
      ? new ApiError(
          failureStatus(409, "AlreadyExists", `${groupResource(r.rt.plural, r.rt.group)} ${goQuote(name)} already exists, the server was not able to generate a unique name for the object`, {
            name,
            group: r.rt.group,
            kind: r.rt.plural,
            retryAfterSeconds: 1,
          }),
        )
      : apiErrors.alreadyExists(r.rt.plural, r.rt.group, name);
  const sv = await r.store.get(objectKey(r.rt, r.namespace, name));
  if (sv && typeof metaOf(await decodeStored(r.rt, sv))["deletionTimestamp"] === "string") e.status.message = `object is being deleted: ${e.status.message}`;
  // The decoding's warnings were recorded before the write.
  if (warnings.length > 0) e.warnings = warnings;
  return e;
}

/**
 * `next` with the managedFields of an Update by the request's manager. A create records the fields of the
 * request version's object; an update compares the objects as stored (in the storage version), so that a
 * change to a field the storage version does not have is no change — both as the real server answers
 * (test/server-diff/sequences/06-versions).
 */
async function tracked(r: RestRequest, old: JsonObject | undefined, next: JsonObject, reset?: JsonObject): Promise<JsonObject> {
  // `UpdateNoErrors`: the field manager types the custom resource as decoded, before the strategy reset parts
  // of it (a status sent to the main resource); when it does not fit the schema's types (a value validation
  // lets through, or a part reset after), or names another kind (a status update, whose reset parts hold the body's
  // kind, does not validate it: the type converter has no type for that kind), the live object's managedFields are
  // kept (none for a create).
  if (
    r.rt.decodesBodyVersion === true &&
    (namesOtherKind(next, r.rt.kind) ||
      namesOtherKind(reset, r.rt.kind) ||
      failsTypedConversion(next, r.rt.smdType()) ||
      (reset !== undefined && failsTypedConversion(reset, r.rt.smdType())))
  ) {
    const live = old === undefined ? undefined : metaOf(old)["managedFields"];
    if (Array.isArray(live) && live.length > 0) metaOf(next)["managedFields"] = deepClone(live);
    else delete metaOf(next)["managedFields"];
    return next;
  }
  const conv = old === undefined ? undefined : r.rt.converter?.();
  const view = async (o: JsonObject): Promise<JsonObject> => (conv ? conv.roundTrip(deepClone(o), r.rt.version) : o);
  // The field manager sees the main resource as decoded, before the strategy put the old status back: managers of
  // other versions see its status change (the reset field is registered for the request's version only).
  const seen = old !== undefined && r.subresource === "" && r.rt.status ? asDecoded(next, reset) : next;
  let before: JsonObject | undefined;
  let after: JsonObject;
  try {
    before = old && (await view(old));
    after = await view(seen);
  } catch (e) {
    if (!(e instanceof ConversionFailure)) throw e;
    // `UpdateNoErrors`: a field manager that cannot convert drops managedFields (the write then fails
    // on the same conversion when the object is encoded for storage).
    delete metaOf(next)["managedFields"];
    return next;
  }
  const t = trackUpdate(before, after, r.rt.smdType(), managerOf(r), groupVersion(r.rt.group, r.rt.version), r.subresource, resetFields(r), r.rt.createBase?.());
  if (!conv && seen === next) return t;
  const managed = metaOf(t)["managedFields"];
  if (managed === undefined) delete metaOf(next)["managedFields"];
  else metaOf(next)["managedFields"] = managed;
  return next;
}

/** Whether `o` has a kind other than `kind`. */
function namesOtherKind(o: JsonObject | undefined, kind: string): boolean {
  const k = o === undefined ? undefined : o["kind"];
  return typeof k === "string" && k !== kind;
}

/** `next` with the status the request sent (`reset`), or none when it sent none; `next` itself when that is its status. */
function asDecoded(next: JsonObject, reset: JsonObject | undefined): JsonObject {
  const sent = reset !== undefined && Object.hasOwn(reset, "status") ? reset["status"] : undefined;
  if (sent === undefined ? !Object.hasOwn(next, "status") : deepEqual(sent, next["status"])) return next;
  const o: JsonObject = { ...next };
  if (sent === undefined) delete o["status"];
  else o["status"] = sent;
  return o;
}

function collectWarnings(r: RestRequest, res: PipelineResult): string[] {
  return r.rt.deprecationWarning ? [r.rt.deprecationWarning, ...res.warnings] : [...res.warnings];
}

/**
 * The common tail of PUT and PATCH: admission (update or status), no-op detection, finalizer-driven
 * deletion and the compare-and-swap write on the revision the request was based on. `applied`: `input` has its final
 * managedFields (an apply, or a /scale write whose field manager ran on the Scale).
 */
async function commitUpdate(r: RestRequest, input: JsonObject, old: JsonObject, revision: number, applied = false, patched = false): Promise<RestResponse> {
  // Patches share unchanged subtrees with `old`: work on a copy.
  const newObj = deepClone(input);
  const group = checkEnvelope(r, newObj, patched && r.rt.decodesBodyVersion === true);
  const meta = metaOf(newObj);
  const oldMeta = metaOf(old);
  const name = meta["name"];
  if (name === undefined || name === null || name === "") meta["name"] = r.name;
  // A name that is no string is the decoder's error (a patched document's 422), which the pipeline reports.
  // (a JSON or merge patch's result is decoded first: its strict decoding error, or its warnings with this error)
  const renamed = typeof name === "string" && name !== "" && name !== r.name;
  const renamedError = () => apiErrors.badRequest(`the name of the object (${name}) does not match the name on the URL (${r.name})`);
  if (renamed && !patched) throw renamedError();
  // `rest.BeforeUpdate`: the old uid when none is given, the old creationTimestamp and generation; a deletionTimestamp
  // or grace period the old object has is kept, one it has not is left for validation (immutable fields).
  // A value of the wrong type is the custom resource decoder's 400 (ObjectMeta.creationTimestamp of type string), kept for it.
  const undecodable = (k: string) => r.rt.decodesBodyVersion === true && meta[k] !== undefined && meta[k] !== null && !metaFieldDecodes(k, meta[k]!);
  for (const k of ["uid", "creationTimestamp", "generation"]) {
    if (k === "uid" && typeof meta[k] === "string" && meta[k] !== "") continue;
    if (undecodable(k)) continue;
    if (oldMeta[k] !== undefined) meta[k] = oldMeta[k]!;
    else delete meta[k];
  }
  if (oldMeta["deletionTimestamp"] !== undefined && !undecodable("deletionTimestamp")) meta["deletionTimestamp"] = oldMeta["deletionTimestamp"]!;
  if (oldMeta["deletionGracePeriodSeconds"] !== undefined && (meta["deletionGracePeriodSeconds"] ?? null) === null) {
    meta["deletionGracePeriodSeconds"] = oldMeta["deletionGracePeriodSeconds"]!;
  }
  // managedFields the field manager cannot read are reset, but a value ObjectMeta cannot decode (a string) is the
  // custom resource decoder's 400, kept for it.
  const decoderError = (mf: JsonValue) => r.rt.decodesBodyVersion === true && unmarshalObjectMeta({ managedFields: mf }, false).error !== undefined;
  const managedFields = !applied && takeRequestManagedFields(meta, decoderError) ? [{}] : meta["managedFields"];
  const opts = requestOptions(r);
  if (patched && r.rt.decodesBodyVersion) opts.patched = true;
  const adm = r.rt.admission();
  const result = withRequestContext(r.context, () =>
    r.subresource === "status"
      ? adm.updateStatus(newObj, old, opts)
      : r.subresource === "finalize" && adm.finalize
        ? adm.finalize(newObj, old, opts)
        : adm.update(newObj, old, opts),
  );
  if (renamed) {
    if (result.decodeError !== undefined && !result.decodeError.startsWith("the name of the object (")) admitted(r, result, r.name, group);
    const e = renamedError();
    e.warnings = collectWarnings(r, result);
    throw e;
  }
  if (group === undefined && result.decodeError === undefined) throw apiErrors.internal(NO_API_VERSION);
  if (r.admit && result.decodeError === undefined) await r.admit("update", newObj);
  const warnings = collectWarnings(r, result);
  let next = admitted(r, result, r.name, group ?? r.rt.group);
  if (managedFields === undefined) delete metaOf(next)["managedFields"];
  else metaOf(next)["managedFields"] = managedFields;
  // The field manager sees the object as decoded: pruned and defaulted.
  if (!applied) next = await tracked(r, old, next, result.reset);
  const key = objectKey(r.rt, r.namespace, r.name);
  const respond = (o: JsonObject, code = 200): RestResponse =>
    r.subresource === "scale" ? { code, body: toScale(r.rt.scale!, o), warnings } : { code, body: o, warnings };
  if (deepEqual(withoutResourceVersion(next), withoutResourceVersion(old))) return respond(old);
  const dry = isDryRun(r.query);
  try {
    if (typeof metaOf(next)["deletionTimestamp"] === "string" && finalizersOf(next).length === 0 && r.rt.deletionHeld?.(next) === undefined) {
      if (!dry) {
        await r.rt.beforeDelete?.(next);
        await r.store.delete(key, revision);
      }
      return respond(next);
    }
    if (dry) return respond(next);
    const retry = mediaType(r.req.headers["content-type"]) !== "application/apply-patch+yaml";
    const sv = await writeDroppingManagedFieldsIfTooLarge(retry, next, async () => r.store.update(key, await encodeForStorage(r.rt, next), revision));
    if (r.subresource !== "scale") return await writtenAnswer(r, sv, 200, warnings);
    return respond(await decodeWritten(r.rt, sv));
  } catch (e) {
    if (e instanceof RevisionConflictError) throw new StorageConflict(apiErrors.modified(r.rt.plural, r.rt.group, r.name));
    if (e instanceof KeyNotFoundError) throw apiErrors.notFound(r.rt.plural, r.rt.group, r.name);
    throw e;
  }
}

/**
 * The stored object changed between the read an update was computed from and its write (another writer came
 * first). The registry store's `GuaranteedUpdate` then reads the object again and computes the update anew —
 * the handler runs again: a precondition the client gave (a resourceVersion) now fails with `conflict`, an update
 * the client did not pin (a patch, a PUT without resourceVersion) is written over the new state.
 */
export class StorageConflict extends Error {
  constructor(readonly conflict: ApiError) {
    super(conflict.message);
  }
}

/**
 * How often an update is computed again after storage conflicts before its answer is the conflict (Kubernetes
 * retries until the request's deadline; a bound keeps a request from spinning while writers race).
 */
const MAX_UPDATE_ATTEMPTS = 32;

/** Runs a PUT or PATCH handler, again (from reading the object) after each {@link StorageConflict}. */
export async function retryingConflicts<T>(handler: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await handler();
    } catch (e) {
      if (!(e instanceof StorageConflict)) throw e;
      if (attempt >= MAX_UPDATE_ATTEMPTS) throw e.conflict;
    }
  }
}

/**
 * A PUT's body uid is the update's precondition (`DefaultUpdatedObjectInfo.Preconditions`): another uid than the
 * stored object's is the storage layer's conflict, before the resourceVersion is compared. The etcd3 store names the
 * key with its prefix (`/registry`); a dry run's storage checks it on the key the registry gave, without.
 */
function checkUidPrecondition(r: RestRequest, body: JsonObject, old: JsonObject): void {
  const uid = metaString(body, "uid");
  const oldUid = metaString(old, "uid");
  if (uid === "" || uid === oldUid) return;
  const prefix = isDryRun(r.query) ? [""] : ["/registry"];
  const key = [...prefix, ...(r.rt.group === "" ? [] : [r.rt.group]), r.rt.plural, ...(r.rt.namespaced ? [r.namespace] : []), r.name].join("/");
  throw apiErrors.conflict(
    r.rt.plural,
    r.rt.group,
    r.name,
    `StorageError: invalid object, Code: 4, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${uid}, UID in object meta: ${oldUid}`,
  );
}

/** The revision a request is based on: the object's resourceVersion, checked against the store's. */
function basedOn(r: RestRequest, obj: JsonObject, current: number, required: boolean): number {
  const rv = metaOf(obj)["resourceVersion"];
  // The registry store parses it (`ObjectResourceVersion`) and returns the error as it is: a plain 500.
  const problem = typeof rv === "string" && rv !== "" ? goUintProblem(rv) : undefined;
  if (problem !== undefined) throw apiErrors.internalPlain(`strconv.ParseUint: parsing ${goQuote(rv as string)}: ${problem}`);
  // Version 0 ("0", "00") is no version.
  if (rv === undefined || rv === "" || rv === null || (typeof rv === "string" && BigInt(rv) === 0n)) {
    if (required) {
      // The registry store reports it for the resource (`crontabs.stable.example.com "a" is invalid`), value 0.
      throw apiErrors.invalid(r.rt.plural, r.rt.group, r.name, [
        fieldError.invalid(FieldPath.of("metadata", "resourceVersion"), 0, "must be specified for an update"),
      ]);
    }
    return current;
  }
  if (typeof rv !== "string") throw apiErrors.badRequest(`invalid resource version: ${String(rv)}`);
  if (Number(rv) !== current) throw apiErrors.modified(r.rt.plural, r.rt.group, r.name);
  return current;
}

/**
 * What the decoding half of a PUT says about `body` — the step the API server's update handler runs before it
 * reads the stored object: a decoding error (strict ones under `fieldValidation=Strict`), the apiVersion or
 * namespace check, or else the decoding warnings (unknown and duplicate fields under `Warn`). Asked only when a
 * step crdkit runs earlier (the name check, reading the object, its resourceVersion) failed, so that a
 * request's answer is the one of the step Kubernetes runs first, without decoding twice on the way to a write.
 */
function decodeVerdict(r: RestRequest, body: JsonObject): { error?: ApiError; warnings: string[] } {
  const obj = deepClone(body);
  try {
    checkEnvelope(r, obj);
    const opts = requestOptions(r);
    const res = withRequestContext(r.context, () => r.rt.admission().create(obj, opts));
    if (res.decodeError !== undefined) admitted(r, res, "");
    if (opts.fieldValidation !== "Warn") return { warnings: [] };
    return { warnings: [...(opts.strictDecodingErrors ?? []), ...res.unknownFields.map((f) => `unknown field "${f}"`)] };
  } catch (e) {
    if (e instanceof ApiError) return { error: e, warnings: [] };
    throw e;
  }
}

/** `e`, or the error decoding `body` gives (which Kubernetes reports first), with decoding's warnings. */
function decodedFirst(r: RestRequest, body: JsonObject, e: unknown): unknown {
  if (!(e instanceof ApiError)) return e;
  const v = decodeVerdict(r, body);
  if (v.error) return v.error;
  if (v.warnings.length > 0) e.warnings = [...(e.warnings ?? []), ...v.warnings];
  return e;
}

/** `PUT …/NAME/scale`: the body decoded as an autoscaling/v1 Scale, then checked and written as the update handler does. */
async function updateScale(r: RestRequest): Promise<RestResponse> {
  const body = await readBody(r.req);
  checkFieldManager(r.query, "UpdateOptions");
  const type = negotiateBodyType(r.req.headers["content-type"]);
  if (type === "application/vnd.kubernetes.protobuf") throw protobufBodyError(body, "Scale", "v1");
  // (a number beyond float64 fails only in a field of the Scale: decodeScaleBody)
  const decoded = decodeBody(body, type, "Scale", true);
  const scale = decodeScaleBody(decoded.value, decoded.strictErrors, fieldValidationOf(r.query));
  if (scale.name === "") throw apiErrors.badRequest(`the name of the object (${r.name} based on URL) was undeterminable: name must be provided`);
  if (scale.name !== r.name) throw apiErrors.badRequest(`the name of the object (${scale.name}) does not match the name on the URL (${r.name})`);
  if (scale.namespace !== "" && scale.namespace !== r.namespace) {
    throw apiErrors.badRequest("the namespace of the provided object does not match the namespace sent on the request");
  }
  r.strictErrors = scale.strictErrors;
  // The body was decoded (its warnings recorded) before the store runs: its errors carry them.
  const withDecodeWarnings = (e: ApiError): ApiError => {
    if (scale.strictErrors.length > 0 && fieldValidationOf(r.query) === "Warn") e.warnings = [...(e.warnings ?? []), ...scale.strictErrors];
    return e;
  };
  // The store reads the object first (a missing one is 404), then parses the resourceVersion the Scale set on
  // it: a malformed one is its plain 500.
  let loaded: Awaited<ReturnType<typeof loadObject>>;
  try {
    loaded = await loadObject(r, true);
  } catch (e) {
    throw e instanceof ApiError ? withDecodeWarnings(e) : e;
  }
  const { obj: old, revision } = loaded;
  const scaleRvProblem = scale.resourceVersion === "" ? undefined : goUintProblem(scale.resourceVersion);
  if (scaleRvProblem !== undefined) throw withDecodeWarnings(apiErrors.internalPlain(`strconv.ParseUint: parsing ${goQuote(scale.resourceVersion)}: ${scaleRvProblem}`));
  const next = scaleUpdated(r.rt, old, scale.replicas, scale.resourceVersion, managerOf(r), undefined, scale.hasApiVersion);
  return commitUpdate(r, next, old, basedOn(r, next, revision, false), true);
}

/** A merge, JSON or apply patch of /scale (`scale-write.ts`); `patchStrictErrors`: the body's duplicate fields. */
async function patchScale(r: RestRequest, type: string, patch: JsonValue, patchStrictErrors: string[], old: JsonObject, revision: number): Promise<RestResponse> {
  if (type === "application/apply-patch+yaml") {
    const next = scaleApplied(r.rt, patch as JsonObject, old, r.query.get("fieldManager")!, forceOf(r));
    return commitUpdate(r, next, old, revision, true);
  }
  const { next, warnings } = scalePatched(r.rt, type, patch, patchStrictErrors, fieldValidationOf(r.query), old, managerOf(r));
  r.strictErrors = warnings;
  return commitUpdate(r, next, old, basedOn(r, next, revision, false), true);
}

/** `PUT …/NAME[/status|/scale]`. */
export async function updateObject(r: RestRequest): Promise<RestResponse> {
  if (r.subresource === "scale") return updateScale(r);
  const body = await readObject(r, () => checkFieldManager(r.query, "UpdateOptions"));
  let old: JsonObject;
  let rev: number;
  try {
    const bodyName = metaString(body, "name");
    if (bodyName === "") throw apiErrors.badRequest(`the name of the object (${r.name} based on URL) was undeterminable: name must be provided`);
    if (bodyName !== r.name) {
      throw apiErrors.badRequest(`the name of the object (${bodyName}) does not match the name on the URL (${r.name})`);
    }
    const loaded = await loadObject(r, true);
    old = loaded.obj;
    checkUidPrecondition(r, body, old);
    rev = basedOn(r, body, loaded.revision, r.rt.unconditionalUpdate !== true);
  } catch (e) {
    throw decodedFirst(r, body, e);
  }
  return commitUpdate(r, body, old, rev);
}

function applyPatchBody(r: RestRequest, type: string, base: JsonObject, patch: JsonValue): JsonValue {
  if (type === "application/merge-patch+json") return mergePatch(base, patch);
  if (type === STRATEGIC_MERGE_PATCH && r.rt.strategicMergePatch) return r.rt.strategicMergePatch(base, patch);
  if (type === "application/json-patch+json") return jsonPatch(base, patch, { decodeOps: fieldValidationOf(r.query) !== "Ignore" });
  if ((r.subresource !== "" && r.subresource !== "status") || !isObject(patch)) return applyMerge(base, patch);
  return applyConfig(r, base, patch);
}

/** Server-side apply of `config` over `live` (undefined: create) with field ownership and conflicts. */
function applyConfig(r: RestRequest, live: JsonObject | undefined, config: JsonObject): JsonObject {
  const gv = groupVersion(r.rt.group, r.rt.version);
  const av = typeof config["apiVersion"] === "string" ? config["apiVersion"] : "";
  const kind = typeof config["kind"] === "string" ? config["kind"] : "";
  if (av !== gv || kind !== r.rt.kind) {
    // The field manager's version check (`schema.GroupVersionKind.String()` of the unstructured object's kind:
    // empty when its apiVersion does not parse).
    const parts = av.split("/");
    const gvk = parts.length > 2 ? "/, Kind=" : `${parts.length === 2 ? av : `/${av}`}, Kind=${kind}`;
    throw apiErrors.badRequest(`invalid object type: ${gvk}`);
  }
  const applied = trackApply(live, config, r.rt.smdType(), r.query.get("fieldManager")!, gv, forceOf(r), resetFields(r), r.subresource);
  // `applyPatcher`: once the field manager applied it, the patch is read again with yaml.UnmarshalStrict: under
  // Strict its duplicate keys are a 400 of their own (under Warn, warnings).
  if (fieldValidationOf(r.query) === "Strict" && r.strictErrors !== undefined && r.strictErrors.length > 0) {
    throw apiErrors.badRequest(`error strict decoding patch: error converting YAML to JSON: ${r.strictErrors.join(", ")}`);
  }
  return applied;
}

/**
 * An applied object is never decoded into ObjectMeta (the field manager's object goes to the strategy as it is),
 * and the strategy sets its generation (1, or the stored one): a generation no int64 holds (`1e+21`) is no error.
 */
function withoutUndecodableGeneration(obj: JsonObject): JsonObject {
  const meta = obj["metadata"];
  if (isObject(meta) && Object.hasOwn(meta, "generation") && meta["generation"] !== null && kindOf(meta["generation"]!) !== "integer") delete meta["generation"];
  return obj;
}

/** The `force` parameter (apply only). */
function forceOf(r: RestRequest): boolean {
  // PatchOptions.Force as the parameter codec reads it: any value but "0" and "false" (any case) is true.
  return r.query.has("force") && queryBool(r.query.get("force"));
}

/**
 * A JSON or merge patch whose result does not decode (`runtime.DecodeInto` of the patched JSON): the patcher's
 * 422 on field `patch` with the patched document's JSON `text` as the value.
 */
function patchedDecodeError(e: unknown, text: () => string): ApiError | undefined {
  if (!(e instanceof ApiError) || e.status.code !== 400) return undefined;
  const msg = e.status.message ?? "";
  // The decoder's error, without what the create and update handlers add around it (`… cannot be handled as …`,
  // `the object provided is unrecognized …` with a summary of the body).
  const m =
    /^\S* in version "[^"]*" cannot be handled as a [^:]*: ([\s\S]*)$/.exec(msg) ??
    /^the object provided is unrecognized \(must be of type [^)]*\): (couldn't get version\/kind; json parse error: [\s\S]*?) \(\{[\s\S]*\)$/.exec(msg);
  if (!m) return undefined;
  return patchNotDecodable(text(), m[1]!);
}

/** The patch body decoded; an apply patch's YAML that does not parse is sigs.k8s.io/yaml's error. */
function decodePatchBody(r: RestRequest, raw: Buffer, type: string): DecodedBody {
  try {
    // (a number beyond float64 fails only the decoders that convert numbers: `patchDecodeError`)
    return decodeBody(raw, type, r.rt.kind, type === "application/json");
  } catch (e) {
    const head = `the object provided is unrecognized (must be of type ${r.rt.kind}): couldn't get version/kind; json parse error: yaml: `;
    if (type === "application/apply-patch+yaml" && e instanceof ApiError && e.status.message?.startsWith(head)) {
      // `validateAndTranscodePatch` converts YAML that does not start with `{` to JSON first (its error is
      // "error encoding patch"); JSON-looking text reaches the apply patcher's yaml.Unmarshal
      const why = e.status.message.slice(head.length);
      if (!/^\s*\{/u.test(raw.toString("utf8"))) throw apiErrors.badRequest(`error encoding patch: yaml: ${why}`);
      throw apiErrors.badRequest(`error decoding patch: error converting YAML to JSON: yaml: ${why}`);
    }
    // a JSON or merge patch that is no JSON value (`json.Valid`)
    if (type === "application/json" && e instanceof ApiError && e.status.code === 400 && !e.status.message?.includes("exceeded max depth")) {
      throw apiErrors.badRequest("invalid JSON patch");
    }
    throw e;
  }
}

/**
 * What the patch handler's decoding of the patch says before it is applied (`applyJSPatch`; under
 * fieldValidation Strict and Warn only): a merge patch is unmarshaled into a map, a JSON patch into
 * `[]jsonPatchOp`, and a number beyond float64 (`outOfRange`; `sent`: the raw body) fails either.
 */
function patchDecodeError(r: RestRequest, type: string, patch: JsonValue, outOfRange: string | undefined, sent: () => JsonValue | undefined): string | undefined {
  if (fieldValidationOf(r.query) === "Ignore") return undefined;
  if (type === "application/merge-patch+json") {
    if (patch !== null && !isObject(patch)) return `json: cannot unmarshal ${goJsonTypeWord(patch)} into Go value of type map[string]interface {}`;
    const body = outOfRange === undefined ? undefined : sent();
    const lit = body === undefined ? undefined : firstOutOfRange(body);
    return lit === undefined ? undefined : `json: cannot unmarshal number ${lit} into Go value of type float64`;
  }
  if (type !== "application/json-patch+json" || outOfRange === undefined) return undefined;
  const ops = sent();
  return Array.isArray(ops) ? jsonPatchOpsTypeError(ops, firstOutOfRange) : undefined;
}

/** json-patch's `DecodePatch` of a JSON patch: a `Patch` is a list of `Operation` maps. */
function jsonPatchLibraryDecodeError(patch: JsonValue): string | undefined {
  if (patch === null) return undefined;
  if (!Array.isArray(patch)) return `json: cannot unmarshal ${goJsonTypeWord(patch)} into Go value of type jsonpatch.Patch`;
  const op = patch.find((o) => o !== null && !isObject(o));
  return op === undefined ? undefined : `json: cannot unmarshal ${goJsonTypeWord(op)} into Go value of type jsonpatch.Operation`;
}

/** The patch types a resource takes: built-in kinds with a strategic-merge strategy (RBAC) also that one. */
export function patchTypesOf(rt: ResourceType): readonly string[] {
  return rt.strategicMergePatch ? [...PATCH_TYPES.slice(0, 2), STRATEGIC_MERGE_PATCH, PATCH_TYPES[2]!] : PATCH_TYPES;
}

/** `PATCH …/NAME[/status|/scale]` with merge, JSON or apply patches. */
export async function patchObject(r: RestRequest): Promise<RestResponse> {
  const type = negotiatePatchType(r.req.headers["content-type"], patchTypesOf(r.rt));
  const raw = await readBody(r.req);
  const isApply = type === "application/apply-patch+yaml";
  // `ValidatePatchOptions`, before the patch is decoded: one 422 with every problem.
  const optionErrors: FieldError[] = [];
  if (isApply) {
    if ((r.query.get("fieldManager") ?? "") === "") optionErrors.push(fieldError.required(FieldPath.of("fieldManager"), "is required for apply patch"));
  } else if (r.query.has("force")) {
    optionErrors.push(fieldError.forbidden(FieldPath.of("force"), "may not be specified for non-apply patch"));
  }
  optionErrors.push(...fieldManagerErrors(r.query), ...dryRunAndFieldValidationErrors(r.query));
  if (optionErrors.length > 0) throw apiErrors.invalid("PatchOptions", "meta.k8s.io", "", optionErrors);
  // An apply patch is unmarshaled into a map: an empty body or null is an empty configuration.
  let decoded: DecodedBody;
  try {
    decoded = isApply && /^\s*$/.test(raw.toString("utf8")) ? { value: {}, strictErrors: [] } : decodePatchBody(r, raw, isApply ? type : "application/json");
  } catch (e) {
    // The apply patcher converts the YAML once it has the current object: a subresource's missing object first.
    if (isApply && r.subresource !== "" && e instanceof ApiError && e.status.message?.startsWith("error decoding patch: error converting YAML to JSON")) await loadObject(r, true);
    throw e;
  }
  const patch = isApply && decoded.value === null ? {} : decoded.value;
  // A merge patch's own duplicate fields are strict errors before the patched object's (warnings under Warn, the
  // patched document's 422 under Strict).
  if (isApply || (type === "application/merge-patch+json" && fieldValidationOf(r.query) !== "Ignore")) r.strictErrors = decoded.strictErrors;
  if (isApply) r.apply = true;
  if (isApply && !isObject(patch)) {
    // The apply patcher decodes the patch once it has the current object: a subresource's missing object first.
    if (r.subresource !== "") await loadObject(r, true);
    throw apiErrors.badRequest(`error decoding patch: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${goJsonTypeWord(patch)} into Go value of type map[string]interface {}`);
  }
  const key = objectKey(r.rt, r.namespace, r.name);
  if (isApply && isObject(patch) && r.subresource === "" && !(await r.store.get(key))) {
    // The field manager applies first (its typed-patch errors), then the patcher checks the name (`checkName`).
    const applied = withoutUndecodableGeneration(applyConfig(r, undefined, deepClone(patch)));
    // An object the configuration names by uid must exist (`applyPatch`: before the name is checked).
    const uid = metaString(applied, "uid");
    if (uid !== "") throw apiErrors.conflict(r.rt.plural, r.rt.group, r.name, `uid mismatch: the provided object specified uid ${uid}, and no existing object was found`);
    const bodyName = metaString(applied, "name");
    if (bodyName === "") throw apiErrors.badRequest(`the name of the object (${r.name} based on URL) was undeterminable: name must be provided`);
    if (bodyName !== r.name) throw apiErrors.badRequest(`the name of the object (${bodyName}) does not match the name on the URL (${r.name})`);
    return createObject(r, applied, true);
  }
  const { obj: old, revision } = await loadObject(r, true);
  // The patch as sent (its numbers' texts) when some print otherwise: read only for an error's text.
  let sentValue: JsonValue | undefined | null = null;
  const sent = (): JsonValue | undefined => {
    if (sentValue === null) {
      const text = raw.toString("utf8");
      sentValue = !isApply && hasRawNumbers(text) ? rawPatchValue(text) : undefined;
    }
    return sentValue;
  };
  if (!isApply) {
    const problem = patchDecodeError(r, type, patch, decoded.outOfRange, sent);
    if (problem !== undefined) throw apiErrors.badRequest(`error decoding patch: ${problem}`);
  }
  if (type === "application/json-patch+json" && fieldValidationOf(r.query) === "Ignore") {
    // Without field validation the operations are decoded only by json-patch (`DecodePatch`: a list of maps).
    const problem = jsonPatchLibraryDecodeError(patch);
    if (problem !== undefined) throw apiErrors.badRequest(problem);
  }
  if (type === "application/merge-patch+json" && !isObject(patch)) {
    // json-patch merges only into an object: a list comes back as the patched document (which the serializer
    // cannot read a kind from), anything else (null too) is its ErrBadJSONPatch
    if (!Array.isArray(patch)) throw apiErrors.badRequest("Invalid JSON Patch");
    throw patchNotDecodable(goJsonMarshal(pruneNulls(sent() ?? patch)), `couldn't get version/kind; json parse error: ${NOT_A_STRUCT("array")}`);
  }
  if (type === "application/json-patch+json" && Array.isArray(patch) && patch.length > MAX_JSON_PATCH_OPERATIONS) {
    throw apiErrors.tooLargeMessage(`The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${patch.length}`);
  }
  if (r.subresource === "scale") return patchScale(r, type, patch, decoded.strictErrors, old, revision);
  const base: JsonObject = old;
  let patched: JsonValue;
  // A typed object (CRD) is patched in its Go encoding: the text a decoding error quotes.
  let typed: TypedPatched | undefined;
  try {
    if (r.rt.goOrdered && (type === "application/merge-patch+json" || type === "application/json-patch+json")) {
      typed = typedPatched(r.rt.goOrdered, type, base, patch, fieldValidationOf(r.query) !== "Ignore");
      patched = typed.value;
      r.strictOrderText = typed.text;
    } else patched = applyPatchBody(r, type, base, patch);
  } catch (e) {
    if (e instanceof JsonPatchError) throw apiErrors.patchRejected(e.message);
    if (e instanceof JsonPatchDecodeError) throw apiErrors.badRequest(e.message);
    if (e instanceof JsonPatchDepthError) throw patchTooDeep(e.document);
    throw e;
  }
  // JSON and merge patches produce a document the API server decodes again (apply works on typed values).
  if (!isApply && depthExceeds(patched, MAX_DEPTH)) throw patchTooDeep(patched);
  if (!isObject(patched)) throw apiErrors.badRequest("the patched object is not an object");
  let next: JsonObject = isApply ? withoutUndecodableGeneration(patched) : patched;
  // The decoder reads apiVersion and kind first: as Go struct fields (in the typed object's text order, or the
  // unstructured one's sorted keys), then the version of a custom resource's apiVersion.
  const unstructured = !isApply && r.rt.decodesBodyVersion === true;
  const typeMetaProblem = typed || unstructured ? typeMetaTypeError(next, !typed) : undefined;
  const av = next["apiVersion"];
  const gvProblem = unstructured && typeof av === "string" && parseGroupVersion(av) === null ? `unexpected GroupVersion string: ${av}` : undefined;
  // The text a 422 quotes: the patch's numbers as they were sent.
  // (`old` is as it was: patching and the update work on copies)
  const patchedText = (): string => {
    const p = sent();
    if (p !== undefined) {
      try {
        if (typed) return typedPatched(r.rt.goOrdered!, type, old, p, fieldValidationOf(r.query) !== "Ignore").text;
        return goJsonMarshal(applyPatchBody(r, type, old, p));
      } catch {
        // (the raw patch applies as the decoded one did; kept safe all the same)
      }
    }
    return typed ? typed.text : goJsonMarshal(patched);
  };
  if (typeMetaProblem !== undefined || gvProblem !== undefined) throw patchNotDecodable(patchedText(), (typeMetaProblem ?? gvProblem)!);
  // A custom resource's document without a kind: the unstructured decoder's error, which names the document.
  if (unstructured && kindMissing(next)) {
    const t = patchedText();
    throw patchNotDecodable(t, `Object 'Kind' is missing in '${t}'`);
  }
  // A typed object's document is decoded into the internal type: what it lacks is taken from there.
  let internalUnknowns: string[] = [];
  const decodedAs = typed && r.rt.typedScheme ? decodePatchedTypeMeta(next, r.rt, r.rt.typedScheme) : undefined;
  if (decodedAs?.decoded === "refused") throw patchNotDecodable(patchedText(), decodedAs.message);
  if (decodedAs !== undefined) next = decodedAs.object;
  if (decodedAs?.decoded === "internal" && fieldValidationOf(r.query) !== "Ignore") {
    internalUnknowns = decodedAs.unknownFields.map((f) => `unknown field ${JSON.stringify(f)}`);
    // (after the patch's own duplicate fields)
    const all = [...(type === "application/merge-patch+json" ? decoded.strictErrors : []), ...internalUnknowns];
    if (fieldValidationOf(r.query) === "Strict" && all.length > 0) throw patchNotDecodable(patchedText(), `strict decoding error: ${all.join(", ")}`);
    r.strictErrors = all;
  }
  if (type === STRATEGIC_MERGE_PATCH && r.rt.typedScheme) {
    // A strategic merge patch's result is converted into the Go type field by field: its TypeMeta is not read.
    if (typeof next["apiVersion"] !== "string" || next["apiVersion"] === "") next["apiVersion"] = groupVersion(r.rt.group, r.rt.version);
    if (typeof next["kind"] !== "string" || next["kind"] === "") next["kind"] = r.rt.kind;
  }
  if (decoded.outOfRange !== undefined && !isApply && !r.rt.typedScheme) {
    // (fieldValidation=Ignore: json-patch copied the number as it was) decoding the patched document converts it
    const t = patchedText();
    const doc = rawPatchValue(t);
    const lit = doc === undefined ? undefined : firstOutOfRange(doc);
    if (lit !== undefined) throw patchNotDecodable(t, (isObject(next) ? typeMetaTypeError(next) : undefined) ?? `json: cannot unmarshal number ${lit} into Go value of type float64`);
  }
  // Under Warn, a merge patch's own duplicate fields are recorded once the patched document decodes: the errors of
  // the steps after that (the name checks, admission, the store) carry them.
  const patchWarnings =
    fieldValidationOf(r.query) !== "Warn" ? [] : [...(type === "application/merge-patch+json" ? decoded.strictErrors : []), ...internalUnknowns];
  const withPatchWarnings = (e: unknown): unknown => {
    if (e instanceof ApiError && patchWarnings.length > 0) e.warnings = [...patchWarnings, ...(e.warnings ?? [])];
    return e;
  };
  // Metadata that is no object does not decode (commitUpdate says so): not read here.
  const undecodable = next["metadata"] !== undefined && next["metadata"] !== null && !isObject(next["metadata"]);
  if (!undecodable && r.subresource !== "scale") {
    // The patcher's `checkName` (before the store's resourceVersion check): a patch that removes the name, an
    // apply that sets it to null or "" (after the field manager's conflicts).
    const name = isObject(next["metadata"]) ? next["metadata"]["name"] : undefined;
    if (name === undefined || name === null || name === "") {
      throw withPatchWarnings(apiErrors.badRequest(`the name of the object (${r.name} based on URL) was undeterminable: name must be provided`));
    }
  }
  // A patch that drops the resourceVersion (replacing the whole document, applying resourceVersion "") is an
  // unconditional update.
  let rev = revision;
  try {
    if (!undecodable) rev = basedOn(r, next, revision, r.rt.unconditionalUpdate !== true);
  } catch (e) {
    throw withPatchWarnings(e);
  }
  if (isApply || r.subresource === "scale") return commitUpdate(r, next, old, rev, isApply && (r.subresource === "" || r.subresource === "status"));
  try {
    return await commitUpdate(r, next, old, rev, false, true);
  } catch (e) {
    // Typed objects quote the patched document in their Go struct's field order, unstructured ones sorted.
    throw (typed || !r.rt.typedScheme ? patchedDecodeError(e, patchedText) : undefined) ?? withPatchWarnings(e);
  }
}

/**
 * Deletes one object as the generic registry store does: marks it (deletionTimestamp) when finalizers remain
 * or the resource marks objects first (CRDs), removes it otherwise. With the garbage collector on
 * (`garbageCollection`), the propagation options first add or remove the `orphan` / `foregroundDeletion`
 * finalizers (also on an object already marked: custom resources have no graceful deletion). 200 with the
 * object, or 202 when it stays and the client asked for `orphanDependents: false` (the API server's rule).
 */
export async function deleteOne(
  r: Pick<RestRequest, "rt" | "namespace" | "store" | "garbageCollection">,
  old: JsonObject,
  revision: number,
  dry: boolean,
  opts: PropagationOptions = {},
): Promise<RestResponse> {
  const key = objectKey(r.rt, r.namespace || metaString(old, "namespace"), metaString(old, "name"));
  const pending = opts.orphanDependents === false ? 202 : 200;
  try {
    const meta = metaOf(old);
    if (r.rt.markForDeletion && typeof meta["deletionTimestamp"] !== "string") {
      r.rt.markForDeletion(old);
      if (dry) return { code: pending, body: old };
      const sv = await r.store.update(key, await encodeForStorage(r.rt, old), revision);
      return { code: pending, body: await decodeWritten(r.rt, sv) };
    }
    const held = typeof meta["deletionTimestamp"] === "string" ? r.rt.deletionHeld?.(old) : undefined;
    if (held !== undefined) throw apiErrors.conflict(r.rt.plural, r.rt.group, metaString(old, "name"), held);
    const before = finalizersOf(old);
    // Namespaces (deletionHeld) have a REST delete of their own, which crdkit does not give the GC finalizers.
    const gc = r.garbageCollection === true && r.rt.deletionHeld === undefined ? deletionFinalizers(before, opts) : undefined;
    if (before.length > 0 || gc?.changed) {
      // `updateForGracefulDeletionAndFinalizers`: set the finalizers, then mark the object while any remain.
      const finalizers = gc?.changed ? gc.finalizers : before;
      if (finalizers.length > 0) {
        const unchanged = !gc?.changed && typeof meta["deletionTimestamp"] === "string" && meta["deletionGracePeriodSeconds"] === 0;
        if (gc?.changed) meta["finalizers"] = finalizers;
        if (unchanged) return { code: pending, body: old };
        if (typeof meta["deletionTimestamp"] !== "string") {
          // `markAsDeleting`: setting the deletion timestamp bumps a set generation.
          if (typeof meta["generation"] === "number" && meta["generation"] > 0) meta["generation"] = meta["generation"] + 1;
          meta["deletionTimestamp"] = nowTimestamp();
        }
        meta["deletionGracePeriodSeconds"] = 0;
        if (dry) return { code: pending, body: old };
        const sv = await r.store.update(key, await encodeForStorage(r.rt, old), revision);
        return { code: pending, body: await decodeWritten(r.rt, sv) };
      }
      // The options removed the last (GC) finalizer: the object is deleted at once (`errDeleteNow`). A dry run
      // answers the store's `out` as it is then: the new empty object the dry-run update never filled (a custom
      // resource's Unstructured holds only its apiVersion and kind).
      if (dry && r.rt.decodesBodyVersion) return { code: 200, body: { apiVersion: groupVersion(r.rt.group, r.rt.version), kind: r.rt.kind } };
    }
    if (!dry) {
      await r.rt.beforeDelete?.(old);
      await r.store.delete(key, revision);
    }
    return { code: 200, body: r.rt.returnDeletedObject ? old : deletedStatus(r, old) };
  } catch (e) {
    if (e instanceof RevisionConflictError) throw apiErrors.modified(r.rt.plural, r.rt.group, metaString(old, "name"));
    if (e instanceof KeyNotFoundError) throw apiErrors.notFound(r.rt.plural, r.rt.group, metaString(old, "name"));
    throw e;
  }
}

/** The `Status` a registry without `ReturnDeletedObject` answers for a deleted object. */
function deletedStatus(r: Pick<RestRequest, "rt">, old: JsonObject): JsonObject {
  const details: JsonObject = { name: metaString(old, "name"), group: r.rt.group, kind: r.rt.plural, uid: metaString(old, "uid") };
  return { kind: "Status", apiVersion: "v1", metadata: {}, status: "Success", details };
}

/**
 * Reads the DeleteOptions of a DELETE: from the body when there is one, else from the query; validated
 * (`ValidateDeleteOptions`).
 */
export async function readDeleteOptions(r: RestRequest): Promise<DeleteOptions> {
  const raw = await readBody(r.req);
  let opts: DeleteOptions;
  if (raw.length === 0) opts = deleteOptionsFromQuery(r.query);
  else {
    const type = negotiateBodyType(r.req.headers["content-type"]);
    if (type === PROTOBUF_MEDIA_TYPE) opts = deleteOptionsFromValue(protobufDeleteOptions(raw));
    else opts = type === "application/json" ? deleteOptionsFromJson(raw.toString("utf8")) : deleteOptionsFromValue(decodeBody(raw, type, "DeleteOptions").value);
  }
  validateDeleteOptions(opts);
  return opts;
}

/** `DELETE …/NAME`. */
export async function deleteObject(r: RestRequest): Promise<RestResponse> {
  const opts = await readDeleteOptions(r);
  const { obj: old, revision } = await loadObject(r, true);
  checkDeletePreconditions(r.rt, metaString(old, "name"), old, opts);
  const dry = isDryRunDelete(opts);
  return deleteOne(r, old, revision, dry, opts);
}

/** The generic store's precondition check of a delete: 409 Conflict naming the kind. */
export function checkDeletePreconditions(rt: ResourceType, name: string, old: JsonObject, opts: DeleteOptions): void {
  const pre = opts.preconditions;
  const meta = metaOf(old);
  const uid = String(meta["uid"] ?? "");
  const rv = String(meta["resourceVersion"] ?? "");
  if (rt.preconditionFailed) {
    if (pre.uid !== undefined && pre.uid !== uid) throw rt.preconditionFailed(name, "UID", pre.uid, uid);
    if (pre.resourceVersion !== undefined && pre.resourceVersion !== rv) throw rt.preconditionFailed(name, "ResourceVersion", pre.resourceVersion, rv);
    return;
  }
  if (pre.uid !== undefined && pre.uid !== meta["uid"]) {
    throw apiErrors.conflict(
      rt.kind,
      rt.group,
      name,
      `the UID in the precondition (${pre.uid}) does not match the UID in record (${String(meta["uid"] ?? "")}). The object might have been deleted and then recreated`,
    );
  }
  if (pre.resourceVersion !== undefined && pre.resourceVersion !== meta["resourceVersion"]) {
    throw apiErrors.conflict(
      rt.kind,
      rt.group,
      name,
      `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${String(meta["resourceVersion"] ?? "")}). The object might have been modified`,
    );
  }
}
