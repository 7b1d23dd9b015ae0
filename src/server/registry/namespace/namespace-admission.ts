/**
 * Admission of Namespace writes, as kube-apiserver's namespace strategies (`pkg/registry/core/namespace`)
 * and `pkg/apis/core/validation` do them: typed decoding (unknown fields per `fieldValidation`, wrong JSON
 * types 400), `v1` defaulting (`status.phase: Active`, the `kubernetes.io/metadata.name` label), the create
 * strategy (phase Active, `spec.finalizers` gains `kubernetes`), the update / status / finalize strategies
 * (each keeps the parts it does not own) and validation (DNS-1123 label names, finalizer names, phase).
 */
import { type FieldError, fieldError, FieldPath } from "../../../errors/index.js";
import {
  isQualifiedName,
  nameIsDNSLabel,
  objectMetaOf,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from "../../../objectmeta/index.js";
import type { PipelineResult, RequestOptions } from "../../../pipeline/types.js";
import { deepClone, isObject, type JsonObject, type JsonValue, setKey } from "../../../value/json-value.js";
import { decodeFields, type Shape } from "../../auth/rbac-admission.js";
import type { Admission } from "../resource-type.js";

/** `core.FinalizerKubernetes`: the namespace controller's finalizer. */
export const FINALIZER_KUBERNETES = "kubernetes";
/** `v1.LabelMetadataName`. */
export const LABEL_METADATA_NAME = "kubernetes.io/metadata.name";
/** `NamespacePhase` values. */
export const PHASE_ACTIVE = "Active";
export const PHASE_TERMINATING = "Terminating";

const SHAPE: Record<string, Shape> = {
  spec: { object: { finalizers: "strings" } },
  status: {
    object: {
      phase: "string",
      conditions: { list: { type: "string", status: "string", lastTransitionTime: "string", reason: "string", message: "string" } },
    },
  },
};

/** `helper.IsStandardFinalizerName`. */
const STANDARD_FINALIZERS = new Set([FINALIZER_KUBERNETES, "orphan", "foregroundDeletion"]);

/** `validateKubeFinalizerName`: a name without `/` must be a standard one. */
function kubeFinalizerName(name: string, path: FieldPath): FieldError[] {
  if (name.split("/").length === 1 && !STANDARD_FINALIZERS.has(name)) {
    return [fieldError.invalid(path, name, "name is neither a standard finalizer name nor is it fully qualified")];
  }
  return [];
}

/** core `validateFinalizerName`: a qualified name, and a standard one unless it has a `/`. */
function finalizerName(name: string, path: FieldPath): FieldError[] {
  return [...isQualifiedName(name).map((m) => fieldError.invalid(path, name, m)), ...kubeFinalizerName(name, path)];
}

function strings(v: JsonValue | undefined): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

function objectAt(o: JsonObject, k: string): JsonObject {
  const v = o[k];
  if (isObject(v)) return v;
  const fresh: JsonObject = {};
  o[k] = fresh;
  return fresh;
}

const METADATA = FieldPath.of("metadata");

/** core `ValidateObjectMeta` (generic rules + kube finalizer names) with `ValidateNamespaceName` (DNS-1123 label). */
function validateMeta(obj: JsonObject): FieldError[] {
  const m = objectMetaOf(obj);
  if (m.errors) return m.errors;
  const errs = validateObjectMeta(m.meta, false, nameIsDNSLabel, METADATA);
  for (const f of m.meta.finalizers ?? []) errs.push(...kubeFinalizerName(f, METADATA.child("finalizers")));
  return errs;
}

/** core `ValidateObjectMetaUpdate` (+ kube finalizer names). Namespaces allow unconditional updates. */
function validateMetaUpdate(obj: JsonObject, old: JsonObject): FieldError[] {
  const n = objectMetaOf(obj);
  if (n.errors) return n.errors;
  const o = objectMetaOf(old);
  if (o.errors) return o.errors;
  const cur = n.meta.resourceVersion === "" ? { ...n.meta, resourceVersion: o.meta.resourceVersion } : n.meta;
  const errs = validateObjectMetaUpdate(cur, o.meta, METADATA);
  for (const f of n.meta.finalizers ?? []) errs.push(...kubeFinalizerName(f, METADATA.child("finalizers")));
  return errs;
}

/** `ValidateNamespace`: metadata, then each `spec.finalizers` name (reported on `spec.finalizers`). */
function validateNamespace(obj: JsonObject): FieldError[] {
  const errs = validateMeta(obj);
  const spec = isObject(obj["spec"]) ? obj["spec"] : {};
  for (const f of strings(spec["finalizers"])) errs.push(...finalizerName(f, FieldPath.of("spec", "finalizers")));
  return errs;
}

/** `SetDefaults_Namespace` / the strategy's `Canonicalize`: the name label follows the name. */
function labelName(obj: JsonObject): void {
  const meta = objectAt(obj, "metadata");
  const name = meta["name"];
  if (typeof name !== "string" || name === "") return;
  objectAt(meta, "labels")[LABEL_METADATA_NAME] = name;
}

type Decoded = { obj: JsonObject; warnings: string[]; unknown: string[] } | { error: PipelineResult };

/** Typed decoding: unknown fields (per fieldValidation), wrong JSON types, then `v1` defaults. */
function decode(input: JsonObject, opts: RequestOptions): Decoded {
  const copy = deepClone(input);
  const unknown: string[] = [];
  const body: JsonObject = {};
  // setKey: a field named `__proto__` stays a field (then an unknown one)
    for (const k of Object.keys(copy)) if (k !== "apiVersion" && k !== "kind" && k !== "metadata") setKey(body, k, copy[k]!);
  const bad = decodeFields(body, SHAPE, "", unknown);
  if (bad) return { error: { object: null, decodeError: bad, errors: [], warnings: [], unknownFields: [] } };
  const strict = [...(opts.strictDecodingErrors ?? []), ...unknown.map((f) => `unknown field "${f}"`)];
  const mode = opts.fieldValidation ?? "Warn";
  if (strict.length > 0 && mode === "Strict") {
    return { error: { object: null, decodeError: `strict decoding error: ${strict.join(", ")}`, errors: [], warnings: [], unknownFields: unknown } };
  }
  const obj: JsonObject = { apiVersion: "v1", kind: "Namespace", metadata: copy["metadata"] ?? {}, ...body };
  // SetDefaults_NamespaceStatus: an empty phase is Active.
  const status = objectAt(obj, "status");
  if (typeof status["phase"] !== "string" || status["phase"] === "") status["phase"] = PHASE_ACTIVE;
  labelName(obj);
  return { obj, warnings: mode === "Warn" ? strict : [], unknown };
}

function result(d: Exclude<Decoded, { error: PipelineResult }>, errors: FieldError[]): PipelineResult {
  return { object: d.obj, errors, warnings: d.warnings, unknownFields: d.unknown };
}

/** PrepareForCreate's finalizer: `kubernetes` appended to `spec.finalizers` when missing. */
export function addKubernetesFinalizer(obj: JsonObject): void {
  const spec = objectAt(obj, "spec");
  const fins = strings(spec["finalizers"]);
  if (!fins.includes(FINALIZER_KUBERNETES)) spec["finalizers"] = [...fins, FINALIZER_KUBERNETES];
}

/** The Namespace strategies: create, update, `/status` and `/finalize`. */
export function namespaceAdmission(): Admission & { finalize: Admission["update"] } {
  return {
    create(input, opts) {
      const d = decode(input, opts);
      if ("error" in d) return d.error;
      // PrepareForCreate: phase Active (the finalizer is added by `addKubernetesFinalizer`, after field tracking).
      d.obj["status"] = { phase: PHASE_ACTIVE };
      return result(d, validateNamespace(d.obj));
    },
    update(input, old, opts) {
      const d = decode(input, opts);
      if ("error" in d) return d.error;
      // PrepareForUpdate: spec.finalizers and status are the stored ones.
      const spec = objectAt(d.obj, "spec");
      const oldSpec = isObject(old["spec"]) ? old["spec"] : {};
      if (oldSpec["finalizers"] === undefined) delete spec["finalizers"];
      else spec["finalizers"] = deepClone(oldSpec["finalizers"]);
      if (Object.keys(spec).length === 0) delete d.obj["spec"];
      d.obj["status"] = deepClone(old["status"] ?? {});
      return result(d, [...validateNamespace(d.obj), ...validateMetaUpdate(d.obj, old)]);
    },
    updateStatus(input, old, opts) {
      const d = decode(input, opts);
      if ("error" in d) return d.error;
      // The status strategy keeps the stored spec.
      if (old["spec"] === undefined) delete d.obj["spec"];
      else d.obj["spec"] = deepClone(old["spec"]);
      const errs = validateMetaUpdate(d.obj, old);
      const meta = isObject(d.obj["metadata"]) ? d.obj["metadata"] : {};
      const phase = (d.obj["status"] as JsonObject)["phase"] as string;
      const deleting = typeof meta["deletionTimestamp"] === "string" && meta["deletionTimestamp"] !== "";
      if (!deleting && phase !== PHASE_ACTIVE) {
        errs.push(fieldError.invalid(FieldPath.of("status", "Phase"), phase, "may only be 'Active' if `deletionTimestamp` is empty"));
      } else if (deleting && phase !== PHASE_TERMINATING) {
        errs.push(fieldError.invalid(FieldPath.of("status", "Phase"), phase, "may only be 'Terminating' if `deletionTimestamp` is not empty"));
      }
      return result(d, errs);
    },
    finalize(input, old, opts) {
      const d = decode(input, opts);
      if ("error" in d) return d.error;
      // The finalize strategy keeps the stored status; only spec.finalizers may change.
      d.obj["status"] = deepClone(old["status"] ?? {});
      const errs = validateMetaUpdate(d.obj, old);
      const spec = isObject(d.obj["spec"]) ? d.obj["spec"] : {};
      strings(spec["finalizers"]).forEach((f, i) => {
        errs.push(...finalizerName(f, FieldPath.of("spec", "finalizers").index(i)));
      });
      return result(d, errs);
    },
  };
}
