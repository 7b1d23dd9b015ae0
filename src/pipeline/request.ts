/**
 * The custom-resource request pipelines (create, update, /status update) in Kubernetes' order:
 * decode (apiVersion check, prune, drop non-nullable nulls, unknown-field handling) → default →
 * PrepareForCreate/PrepareForUpdate → validate (TypeMeta, OpenAPI, scale, list types, rules) → warnings.
 *
 * What the library does not do is listed in {@link PIPELINE_GAPS}.
 */
import { bodyGvk } from "./body-gvk.js";
import { applyDefaults } from "../defaulting/default.js";
import { pruneNonNullableNullsWithoutDefaults } from "../defaulting/prune-nulls.js";
import { CrdkitError } from "../errors/crdkit-error.js";
import type { FieldError } from "../errors/field-error.js";
import { validateListSetsAndMaps } from "../listtype/validate.js";
import { prune } from "../prune/prune.js";
import { type JsonObject, type JsonValue, deepClone, deepEqual, getKey, isObject, setKey } from "../value/json-value.js";
import { rulesNotEvaluatedWarning } from "./rules-bookkeeping.js";
import { goJsonTypeWord } from "../go/fmt.js";
import { goJsonMarshal } from "../go/json.js";
import { celBlockedBy, celBlockedError, validateRules } from "../rules/validate.js";
import type { Structural } from "../structural/structural.js";
import type { CompiledVersion, CrdContext } from "./compile.js";
import { coerce } from "../objectmeta/coerce.js";
import {
  type MetaOrErrors,
  finalizerWarnings,
  objectMetaOf,
  validateCustomResourceMetadataOf,
  validateCustomResourceMetadataUpdateOf,
  validateGenericCreate,
  validateGenericUpdate,
} from "../objectmeta/custom-resource.js";
import { getObjectMeta, goTypeName, setObjectMeta } from "../objectmeta/get-set.js";
import { parseGroupVersion } from "../objectmeta/validate-meta.js";
import { goSprint } from "../go/fmt.js";
import { validateEmbedded } from "../objectmeta/validate-embedded.js";
import { FieldPath } from "../errors/field-path.js";
import { errorString } from "../errors/field-error.js";
import { validateCustomResource, validateCustomResourceUpdate } from "../validation/schema-validator.js";
import { validateScaleSpec, validateScaleStatus } from "./scale.js";
import { validateTypeMeta } from "./typemeta.js";
import type { PipelineResult, RequestOptions } from "./types.js";

/**
 * What the library pipeline does not do (the README lists them too); results never claim these happened.
 */
export const PIPELINE_GAPS: readonly string[] = [
  "server-generated metadata (uid, creationTimestamp, resourceVersion) is not filled in; names from generateName get a reproducible suffix instead of a random one",
  "defaults are not pruned at CRD compile time (PruneDefaults; a no-op for CRDs that pass the create checks, which require pruned defaults)",
];

interface Decoded {
  obj: JsonObject;
  version: CompiledVersion;
  unknownFields: string[];
  warnings: string[];
  decodeError?: string;
}

function apiVersionOf(obj: JsonObject): string {
  const v = getKey(obj, "apiVersion");
  return typeof v === "string" ? v : "";
}

function resolveVersion(ctx: CrdContext, obj: JsonObject, opts: RequestOptions): { version?: CompiledVersion; error?: string } {
  const body = apiVersionOf(obj);
  const slash = body.indexOf("/");
  const bodyVersion = slash >= 0 && body.slice(0, slash) === ctx.group ? body.slice(slash + 1) : undefined;
  const name = opts.version ?? bodyVersion;
  if (name === undefined) {
    throw new CrdkitError(
      "unknown-version",
      `apiVersion ${JSON.stringify(body)} does not belong to group ${JSON.stringify(ctx.group)}; pass options.version`,
    );
  }
  const version = ctx.versions.get(name);
  if (!version) {
    throw new CrdkitError("unknown-version", `version ${JSON.stringify(name)} is not defined by CRD ${ctx.crd.metadata.name ?? ""}`);
  }
  const expected = `${ctx.group}/${name}`;
  if (body !== expected) {
    return { version, error: `the API version in the data (${body}) does not match the expected API version (${expected})` };
  }
  return { version };
}

function firstServed(ctx: CrdContext): string | undefined {
  for (const v of ctx.versions.values()) if (v.served) return v.name;
  return undefined;
}

/** The request body as a client would have sent it: compact JSON in the object's key order. */
function compactJson(v: JsonValue): string {
  if (isObject(v)) return `{${Object.keys(v).map((k) => `${JSON.stringify(k)}:${compactJson(v[k]!)}`).join(",")}}`;
  if (Array.isArray(v)) return `[${v.map(compactJson).join(",")}]`;
  return goJsonMarshal(v);
}

/** The fields the coercer reads as strings first, in its order. */
const TYPE_FIELDS = ["kind", "apiVersion"] as const;

/** The decoding half of a request: everything `schemaCoercingDecoder` and the defaulter do. */
function decode(ctx: CrdContext, input: JsonObject, opts: RequestOptions): Decoded {
  const obj = opts.consumeInput === true ? input : deepClone(input);
  // The unstructured JSON decoder first reads apiVersion and kind (transformDecodeError wording).
  const unrecognized = (err: (body: string) => string): Decoded => {
    const { version } = resolveVersion(ctx, obj, { ...opts, version: opts.version ?? firstServed(ctx) });
    const body = compactJson(input);
    const summary = body.length > 30 ? `${body.slice(0, 30)} ...` : body;
    return {
      obj,
      version: version!,
      unknownFields: [],
      warnings: [],
      decodeError: `the object provided is unrecognized (must be of type ${ctx.kind}): ${err(body)} (${summary})`,
    };
  };
  // indexed loops: a for-of allocates an iterator (and a result per step) in V8's lower tiers
  const keys = Object.keys(obj);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const x = obj[k];
    if ((k === "apiVersion" || k === "kind") && x !== null && typeof x !== "string") {
      return unrecognized(
        () => `couldn't get version/kind; json parse error: json: cannot unmarshal ${goJsonTypeWord(x!)} into Go struct field .${k} of type string`,
      );
    }
  }
  const kind = getKey(obj, "kind");
  if (kind === undefined || kind === null || kind === "") {
    return unrecognized((body) => `Object 'Kind' is missing in '${body}'`);
  }
  const { version, error } = resolveVersion(ctx, obj, opts);
  const v = version!;
  if (opts.decodeBodyVersion === true && getKey(obj, "apiVersion") === null) {
    // The unstructured decoder reads no version from a null apiVersion (it names ""), and the coercer's accessor
    // refuses the null before the version is looked at.
    const err = `.apiVersion accessor error: ${goSprint(null)} is of the type ${goTypeName(null)}, expected string`;
    return { obj, version: v, unknownFields: [], warnings: [], decodeError: `${typeof kind === "string" ? kind : ctx.kind} in version "" cannot be handled as a ${ctx.kind}: ${err}` };
  }
  // The version the body is decoded in: its own apiVersion's (decodeBodyVersion), else the request's.
  let dv: { name: string; structural: Structural | undefined } = v;
  if (error) {
    if (opts.decodeBodyVersion !== true) return { obj, version: v, unknownFields: [], warnings: [], decodeError: error };
    const body = apiVersionOf(obj);
    const name = body.slice(body.indexOf("/") + 1);
    dv = { name, structural: body.startsWith(`${ctx.group}/`) ? ctx.versions.get(name)?.structural : undefined };
  }
  // (the kind and version the body names: the serializer's, with the request's filling in what it lacks; the
  // server's unstructured decoder names the decoded object's own, `Unstructured.GroupVersionKind()`, which nothing
  // fills in: no apiVersion is version "")
  const cannot = (err: string) => {
    const named =
      opts.decodeBodyVersion === true
        ? { kind: typeof kind === "string" ? kind : ctx.kind, version: parseGroupVersion(apiVersionOf(obj))?.[1] ?? "" }
        : bodyGvk(obj, { group: ctx.group, version: dv.name, kind: ctx.kind });
    return `${named?.kind ?? ctx.kind} in version "${named?.version ?? dv.name}" cannot be handled as a ${ctx.kind}: ${err}`;
  };
  // the coercer reads kind and apiVersion as strings first
  for (let i = 0; i < TYPE_FIELDS.length; i++) {
    const k = TYPE_FIELDS[i]!;
    const x = getKey(obj, k);
    if (x !== undefined && x !== null && typeof x !== "string") {
      return { obj, version: v, unknownFields: [], warnings: [], decodeError: cannot(`.${k} accessor error: ${goSprint(x)} is of the type ${goTypeName(x)}, expected string`) };
    }
  }
  const kindValue = getKey(obj, "kind");
  const body = apiVersionOf(obj);
  // only objects of the CRD's group and kind are pruned, coerced and defaulted
  const ours = kindValue === ctx.kind && (body === ctx.group || body.startsWith(`${ctx.group}/`));
  // a. metadata through metav1.ObjectMeta (strict: unknown metadata fields are reported)
  const meta = getObjectMeta(obj, { returnUnknownFieldPaths: true });
  if (meta.error !== undefined) return { obj, version: v, unknownFields: [], warnings: [], decodeError: cannot(meta.error) };
  const unknownFields: string[] = [...meta.unknownPaths];
  // b. prune, drop non-nullable nulls without default
  if (ours) {
    if (!ctx.preserveUnknownFields) {
      unknownFields.push(...prune(obj, dv.structural, true));
      if (opts.keepNulls !== true) pruneNonNullableNullsWithoutDefaults(obj, dv.structural);
    }
    // c. embedded ObjectMeta coercion
    const co = coerce(null, obj, dv.structural, false, { returnUnknownFieldPaths: true });
    if (co.error) return { obj, version: v, unknownFields, warnings: [], decodeError: cannot(errorString(co.error)) };
    unknownFields.push(...co.unknownPaths);
  }
  // d. restore normalised metadata
  if (meta.found) setObjectMeta(obj, meta.meta);
  const warnings: string[] = [];
  const strictErrors = [...(opts.strictDecodingErrors ?? []), ...(opts.silentPruning === true ? [] : unknownFields.map((f) => `unknown field "${f}"`))];
  const mode = opts.fieldValidation ?? "Warn";
  if (strictErrors.length > 0) {
    if (mode === "Strict") {
      return {
        obj,
        version: v,
        unknownFields,
        warnings,
        decodeError: cannot(`strict decoding error: ${strictErrors.join(", ")}`),
      };
    }
    if (mode === "Warn") warnings.push(...strictErrors);
  }
  if (error && opts.patched !== true) return { obj, version: v, unknownFields, warnings, decodeError: error };
  if (ours && v.structural) applyDefaults(obj, v.structural);
  return { obj, version: v, unknownFields, warnings };
}

/**
 * Reads the stored old object as the server's storage decoder does (pruned, malformed metadata dropped,
 * a missing `metadata.generation` repaired to 1, defaulted) — before `PrepareForUpdate` compares it.
 */
function decodeOld(ctx: CrdContext, old: JsonObject, version: CompiledVersion): JsonObject {
  const obj = deepClone(old);
  const meta = getObjectMeta(obj, { dropMalformedFields: true });
  if (!ctx.preserveUnknownFields) {
    prune(obj, version.structural, true, { trackUnknownFieldPaths: false });
    pruneNonNullableNullsWithoutDefaults(obj, version.structural);
  }
  coerce(null, obj, version.structural, false, { dropInvalidFields: true });
  // unstructuredSchemaCoercer.apply with repairGeneration (storage decoding)
  if (meta.found && meta.meta && (meta.meta.generation === 0 || meta.meta.generation === 0n)) meta.meta.generation = 1;
  if (meta.found && meta.meta) setObjectMeta(obj, meta.meta);
  if (version.structural) applyDefaults(obj, version.structural);
  return obj;
}

function metadataOf(obj: JsonObject, create: boolean): JsonObject | undefined {
  const md = getKey(obj, "metadata");
  if (isObject(md)) return md;
  if (!create || (md !== undefined && md !== null)) return undefined;
  const m: JsonObject = {};
  setKey(obj, "metadata", m);
  return m;
}

function setMeta(obj: JsonObject, key: string, value: JsonValue | undefined): void {
  const md = metadataOf(obj, value !== undefined);
  if (!md) return;
  if (value === undefined) delete md[key];
  else setKey(md, key, value);
}

function getMeta(obj: JsonObject, key: string): JsonValue | undefined {
  const md = getKey(obj, "metadata");
  return isObject(md) ? getKey(md, key) : undefined;
}

function withoutMetadata(o: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const k of Object.keys(o)) if (k !== "metadata") setKey(out, k, o[k]!);
  return out;
}

/**
 * The update handler's URL checks for a PUT to the stored object's URL (request namespace and name: the
 * options', else the stored object's): the namespace check, then `checkName`. A mismatch is a 400.
 */
function checkUrl(ctx: CrdContext, obj: JsonObject, old: JsonObject, opts: RequestOptions): string | undefined {
  const nsError = ensureNamespace(ctx, obj, opts, old);
  if (nsError) return nsError;
  const str = (v: JsonValue | undefined): string => (typeof v === "string" ? v : "");
  const urlName = opts.name ?? str(getMeta(old, "name"));
  const name = str(getMeta(obj, "name"));
  if (name !== urlName) return `the name of the object (${name}) does not match the name on the URL (${urlName})`;
  return undefined;
}

/**
 * `rest.EnsureObjectNamespaceMatchesRequestNamespace`: fills an empty namespace from the request, clears it
 * for cluster-scoped objects, refuses a mismatch (400).
 */
function ensureNamespace(ctx: CrdContext, obj: JsonObject, opts: RequestOptions, urlObject: JsonObject = obj): string | undefined {
  const ns = getMeta(obj, "namespace");
  const objNs = typeof ns === "string" ? ns : "";
  const urlNs = getMeta(urlObject, "namespace");
  const defaultNs = typeof urlNs === "string" && urlNs !== "" ? urlNs : "default";
  const reqNs = ctx.namespaced ? (opts.namespace ?? defaultNs) : "";
  if (objNs === reqNs) return undefined;
  if (objNs === "") {
    setMeta(obj, "namespace", reqNs);
    return undefined;
  }
  if (reqNs === "") {
    setMeta(obj, "namespace", undefined);
    return undefined;
  }
  return "the namespace of the provided object does not match the namespace sent on the request";
}

const NAME_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

/**
 * `names.SimpleNameGenerator.GenerateName`: the base (cut to 58 characters) plus 5 characters. Kubernetes
 * picks them at random; crdkit derives them from the base so results are reproducible.
 */
export function generateName(base: string): string {
  const b = base.length > 58 ? base.slice(0, 58) : base;
  let h = 2166136261;
  for (let i = 0; i < b.length; i++) h = Math.imul(h ^ b.charCodeAt(i), 16777619) >>> 0;
  let suffix = "";
  for (let i = 0; i < 5; i++) {
    suffix += NAME_ALPHABET[h % NAME_ALPHABET.length];
    h = Math.floor(h / NAME_ALPHABET.length) + 7919 * (i + 1);
  }
  return b + suffix;
}

/**
 * The request handler's `dedupOwnerReferencesAndAddWarning`: identical owner references (same UID and
 * semantically equal) are dropped, with a warning listing the duplicate UIDs.
 */
function dedupOwnerReferences(obj: JsonObject, warnings: string[]): void {
  const refs = getMeta(obj, "ownerReferences");
  if (!Array.isArray(refs)) return;
  const result: JsonValue[] = [];
  const duplicates: string[] = [];
  const seen = new Set<string>();
  for (const ref of refs) {
    const u = isObject(ref) ? getKey(ref, "uid") : undefined;
    const uid = typeof u === "string" ? u : "";
    if (!seen.has(uid) || !result.some((r) => deepEqual(r, ref))) {
      seen.add(uid);
      result.push(ref);
    } else duplicates.push(uid);
  }
  if (duplicates.length === 0) return;
  warnings.push(
    `.metadata.ownerReferences contains duplicate entries; API server dedups owner references in 1.20+, and may reject such requests as early as 1.24; please fix your requests; duplicate UID(s) observed: ${duplicates.join(", ")}`,
  );
  setMeta(obj, "ownerReferences", result);
}

function failed(d: Decoded): PipelineResult {
  return { object: null, decodeError: d.decodeError!, errors: [], warnings: d.warnings, unknownFields: d.unknownFields };
}

function guard(fn: () => PipelineResult): PipelineResult {
  try {
    return fn();
  } catch (e) {
    if (e instanceof RangeError) {
      return {
        object: null,
        decodeError: "the object is nested too deeply to be processed",
        errors: [],
        warnings: [],
        unknownFields: [],
      };
    }
    throw e;
  }
}

const STATUS = FieldPath.of("status");

function finalizersOf(obj: JsonObject): string[] {
  const f = getMeta(obj, "finalizers");
  return Array.isArray(f) ? f.filter((x): x is string => typeof x === "string") : [];
}

/** `rest.validateCommonFields`: generic ObjectMeta checks, first in every update's error list. */
function genericUpdate(ctx: CrdContext, n: MetaOrErrors, o: MetaOrErrors): FieldError[] {
  if (!n.meta || !o.meta) return [];
  return validateGenericUpdate(n.meta, o.meta, ctx.namespaced);
}

/** Versions whose rules the CEL engine could not handle (first error message), so it is not retried. */
const rulesFailure = new WeakMap<CompiledVersion, string>();

/**
 * The strategy's CEL step: when earlier errors block it, Kubernetes' single "some validation rules were
 * not checked" error; otherwise the rules are evaluated (with the old object on update: transition rules and
 * ratcheting, ratcheted errors become warnings). Only for schemas that have rules. If the CEL engine cannot
 * evaluate them, a warning says so — never that they passed.
 */
function runRules(version: CompiledVersion, obj: JsonObject, old: JsonObject | undefined, errors: FieldError[], warnings: string[]): void {
  if (version.ruleCount === 0 || !version.structural) return;
  if (celBlockedBy(errors)) {
    errors.push(celBlockedError());
    return;
  }
  let failure = rulesFailure.get(version);
  if (failure === undefined) {
    try {
      const r = validateRules(version.structural, obj, old);
      errors.push(...r.errors);
      warnings.push(...r.warnings);
      return;
    } catch (e) {
      failure = e instanceof RangeError ? "the object is nested too deeply" : e instanceof Error ? e.message : String(e);
      rulesFailure.set(version, failure);
    }
  }
  warnings.push(rulesNotEvaluatedWarning(version.ruleCount, failure));
}

/**
 * The create handler's `rest.WipeObjectMetaSystemFields`: fields the server manages are dropped from a
 * create request (the server fills uid and creationTimestamp in afterwards; crdkit's pipeline does not).
 */
const SYSTEM_FIELDS = ["creationTimestamp", "uid", "deletionTimestamp", "deletionGracePeriodSeconds", "selfLink"] as const;

function wipeSystemFields(obj: JsonObject): void {
  for (let i = 0; i < SYSTEM_FIELDS.length; i++) setMeta(obj, SYSTEM_FIELDS[i]!, undefined);
}

/** POST: decode → default → PrepareForCreate → Validate → ObjectMeta checks → WarningsOnCreate. */
export function runCreate(ctx: CrdContext, input: JsonObject, opts: RequestOptions): PipelineResult {
  return guard(() => {
    const d = decode(ctx, input, opts);
    if (!d.decodeError) {
      if (opts.wipeSystemFields !== false) wipeSystemFields(d.obj);
      d.decodeError = ensureNamespace(ctx, d.obj, opts);
    }
    if (d.decodeError) return failed(d);
    dedupOwnerReferences(d.obj, d.warnings);
    const { obj, version } = d;
    // BeforeCreate: deletion fields cleared, PrepareForCreate, generated name
    setMeta(obj, "deletionTimestamp", undefined);
    setMeta(obj, "deletionGracePeriodSeconds", undefined);
    let reset: JsonObject | undefined;
    if (version.subresources?.status && Object.hasOwn(obj, "status")) {
      reset = { status: obj["status"]! };
      delete obj["status"];
    }
    setMeta(obj, "generation", 1);
    const gen = getMeta(obj, "generateName");
    const name = getMeta(obj, "name");
    if (typeof gen === "string" && gen !== "" && (typeof name !== "string" || name === "")) {
      setMeta(obj, "name", generateName(gen));
    }
    // Validate
    const errors: FieldError[] = [];
    const typeMeta = validateTypeMeta(obj, ctx.kind, ctx.group, version.name);
    // the metadata, read once for the strategy and the generic checks (nothing changes it between)
    let meta: MetaOrErrors | undefined;
    if (typeMeta.length > 0) errors.push(...typeMeta);
    else {
      meta = objectMetaOf(obj);
      errors.push(...validateCustomResourceMetadataOf(meta, ctx.namespaced));
      errors.push(...validateCustomResource(null, obj, version.validator));
      errors.push(...validateScaleSpec(obj, version.subresources?.scale));
      errors.push(...validateScaleStatus(obj, version.subresources?.scale));
    }
    errors.push(...validateEmbedded(null, obj, version.structural, false));
    errors.push(...validateListSetsAndMaps(null, version.structural, obj));
    const warnings = [...d.warnings];
    runRules(version, obj, undefined, errors, warnings);
    // generic ObjectMeta checks run only when the strategy found nothing
    if (errors.length === 0 && meta?.meta) errors.push(...validateGenericCreate(meta.meta, ctx.namespaced));
    if (errors.length === 0) warnings.push(...finalizerWarnings(finalizersOf(obj)));
    return reset ? { object: obj, errors, warnings, unknownFields: d.unknownFields, reset } : { object: obj, errors, warnings, unknownFields: d.unknownFields };
  });
}

function beforeUpdate(obj: JsonObject, old: JsonObject): void {
  const gen = getMeta(old, "generation");
  setMeta(obj, "generation", gen === undefined || gen === null ? undefined : gen);
  const uid = getMeta(obj, "uid");
  if ((uid === undefined || uid === "") && getMeta(old, "uid") !== undefined) setMeta(obj, "uid", getMeta(old, "uid"));
  for (const k of ["creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds"]) {
    const v = getMeta(old, k);
    if (v !== undefined && v !== null) setMeta(obj, k, v);
  }
}

/** PUT: decode → default → BeforeUpdate/PrepareForUpdate → ValidateUpdate → WarningsOnUpdate. */
export function runUpdate(ctx: CrdContext, input: JsonObject, oldInput: JsonObject, opts: RequestOptions): PipelineResult {
  return guard(() => {
    const d = decode(ctx, input, opts);
    const old = d.decodeError ? undefined : decodeOld(ctx, oldInput, d.version);
    if (old) d.decodeError = checkUrl(ctx, d.obj, old, opts);
    if (d.decodeError || !old) return failed(d);
    dedupOwnerReferences(d.obj, d.warnings);
    const { obj, version } = d;
    // PrepareForUpdate (status kept from old when the status subresource is on), then generation.
    let reset: JsonObject | undefined;
    if (version.subresources?.status) {
      if (Object.hasOwn(obj, "status")) reset = { status: obj["status"]! };
      if (Object.hasOwn(old, "status")) setKey(obj, "status", deepClone(old["status"]!));
      else delete obj["status"];
    }
    const changed = !deepEqual(withoutMetadata(obj), withoutMetadata(old));
    beforeUpdate(obj, old);
    if (changed) {
      const g = getMeta(old, "generation");
      setMeta(obj, "generation", (typeof g === "number" ? g : 0) + 1);
    }
    // the metadata of both, read once for the generic and the strategy checks (nothing changes them between)
    const newMeta = objectMetaOf(obj);
    const oldMeta = objectMetaOf(old);
    const errors: FieldError[] = genericUpdate(ctx, newMeta, oldMeta);
    const typeMeta = validateTypeMeta(obj, ctx.kind, ctx.group, version.name);
    if (typeMeta.length > 0) errors.push(...typeMeta);
    else {
      errors.push(...validateCustomResourceMetadataUpdateOf(newMeta, oldMeta));
      errors.push(...validateCustomResourceUpdate(null, obj, old, version.validator));
      errors.push(...validateScaleSpec(obj, version.subresources?.scale));
      errors.push(...validateScaleStatus(obj, version.subresources?.scale));
    }
    errors.push(...validateEmbedded(null, obj, version.structural, false));
    if (validateListSetsAndMaps(null, version.structural, old).length === 0) {
      errors.push(...validateListSetsAndMaps(null, version.structural, obj));
    }
    const warnings = [...d.warnings];
    runRules(version, obj, old, errors, warnings);
    if (errors.length === 0) warnings.push(...finalizerWarnings(finalizersOf(obj), finalizersOf(old)));
    return reset ? { object: obj, errors, warnings, unknownFields: d.unknownFields, reset } : { object: obj, errors, warnings, unknownFields: d.unknownFields };
  });
}

/** PUT /status: the old object with the incoming status; only status is validated. */
export function runUpdateStatus(ctx: CrdContext, input: JsonObject, oldInput: JsonObject, opts: RequestOptions): PipelineResult {
  return guard(() => {
    const d = decode(ctx, input, opts);
    const { version } = d;
    if (!d.decodeError && !version.subresources?.status) {
      throw new CrdkitError("no-status-subresource", `version ${version.name} of ${ctx.kind} has no status subresource`);
    }
    const old = d.decodeError ? undefined : decodeOld(ctx, oldInput, version);
    if (old) d.decodeError = checkUrl(ctx, d.obj, old, opts);
    if (d.decodeError || !old) return failed(d);
    dedupOwnerReferences(d.obj, d.warnings);
    const obj = deepClone(old);
    if (Object.hasOwn(d.obj, "status")) setKey(obj, "status", d.obj["status"]!);
    else delete obj["status"];
    const reset: JsonObject = {};
    for (const k of Object.keys(d.obj)) if (k !== "status") setKey(reset, k, d.obj[k]!);
    // the metadata of both, read once for the generic and the strategy checks (nothing changes them between)
    const newMeta = objectMetaOf(obj);
    const oldMeta = objectMetaOf(old);
    const errors: FieldError[] = genericUpdate(ctx, newMeta, oldMeta);
    const typeMeta = validateTypeMeta(obj, ctx.kind, ctx.group, version.name);
    if (typeMeta.length > 0) errors.push(...typeMeta);
    else {
      errors.push(...validateCustomResourceMetadataUpdateOf(newMeta, oldMeta));
      if (Object.hasOwn(obj, "status")) {
        errors.push(
          ...validateCustomResourceUpdate(STATUS, obj["status"]!, Object.hasOwn(old, "status") ? old["status"]! : null, version.statusValidator),
        );
      }
      errors.push(...validateScaleStatus(obj, version.subresources?.scale));
    }
    const newListErrors = validateListSetsAndMaps(null, version.structural, obj);
    if (newListErrors.length > 0 && validateListSetsAndMaps(null, version.structural, old).length === 0) {
      errors.push(...newListErrors);
    }
    const warnings = [...d.warnings];
    runRules(version, obj, old, errors, warnings);
    return { object: obj, errors, warnings, unknownFields: d.unknownFields, reset };
  });
}
