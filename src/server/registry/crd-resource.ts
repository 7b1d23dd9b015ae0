/**
 * `apiextensions.k8s.io/v1 customresourcedefinitions`: the resource type and its admission — the
 * engine's CRD checks (`validateCrdCreate/Update`: decoding, v1 defaulting, validation, warnings), the
 * registry strategy (status reset, generation, storedVersions). The naming/establishing status is written
 * afterwards by controllers/crd-naming-controller.ts, as Kubernetes' controllers do.
 */
import { strategicMergePatch } from "../auth/strategic-merge.js";
import { CRD_COLUMNS } from "../tableconvertor/crd-table.js";
import { strictDecodingMessage } from "../../crd/decode-crd.js";
import { validateCrdCreate, validateCrdUpdate, type CrdValidationResult } from "../../crdvalidation/index.js";
import { fieldError, FieldPath, type FieldError } from "../../errors/index.js";
import { getObjectMeta, objectMetaToUnstructured } from "../../objectmeta/get-set.js";
import { crdValidationOptions } from "../../pipeline/crd-hooks.js";
import type { PipelineResult, RequestOptions } from "../../pipeline/types.js";
import { deepClone, deepEqual, isObject, type JsonObject, type JsonValue } from "../../value/json-value.js";
import { strategyStatus } from "../controllers/crd-status.js";
import { CRD_PREFIX, storageVersionOf } from "./registry.js";
import type { Admission, ResourceType } from "./resource-type.js";
import { CRD_TYPE, zeroCrd } from "../ssa/crd-type.js";
import { apiErrors } from "../endpoints/errors.js";
import { TableConvertor } from "../tableconvertor/table.js";
import { apiextensionsScheme } from "./typed-scheme.js";
import { CRD_SHAPE, goOrderedCrd, omitEmptyCrdSpec } from "./crd-go-order.js";
import { orderStrictErrors } from "../typed/strict-error-order.js";

export const CRD_GROUP = "apiextensions.k8s.io";
export const CRD_VERSION = "v1";

/** A JSON copy of a typed value without `undefined` members. */
function plain(v: unknown): JsonValue {
  if (Array.isArray(v)) return v.map(plain);
  if (isObject(v)) {
    const out: JsonObject = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = plain(x);
    return out;
  }
  return v as JsonValue;
}

function specOf(o: JsonObject): JsonObject {
  return isObject(o["spec"]) ? o["spec"] : {};
}

function failure(decodeError: string, warnings: string[] = []): PipelineResult {
  return { object: null, decodeError, errors: [], warnings, unknownFields: [] };
}

/**
 * The decoder's duplicate-field errors as a Go struct decoder reports them: only for fields it knows (an unknown
 * field, given twice, is skipped twice and reported as unknown once).
 */
function knownDuplicates(errors: readonly string[], unknownFields: readonly string[]): readonly string[] {
  if (unknownFields.length === 0 || errors.length === 0) return errors;
  const under = (p: string) => unknownFields.some((u) => p === u || p.startsWith(`${u}.`) || p.startsWith(`${u}[`));
  return errors.filter((e) => {
    const m = /^duplicate field "(.*)"$/.exec(e);
    return m === null || !under(m[1]!);
  });
}

/**
 * Turns a CRD check result into a pipeline verdict: decode errors, strict-decoding handling of unknown
 * and duplicate fields per `fieldValidation`, validation errors; on success the object to store, built
 * from the request's metadata and the decoded (defaulted, unknown-free) spec.
 */
function verdict(v: CrdValidationResult, input: JsonObject, opts: RequestOptions): PipelineResult {
  if (v.decodeError !== undefined) return failure(v.decodeError);
  const found = [...knownDuplicates(opts.strictDecodingErrors ?? [], v.unknownFields), ...v.unknownFields.map((f) => `unknown field "${f}"`)];
  const strict = opts.strictOrderText === undefined ? found : orderStrictErrors(found, opts.strictOrderText);
  const warnings: string[] = [];
  const mode = opts.fieldValidation ?? "Warn";
  if (strict.length > 0 && mode === "Strict") {
    return failure(`${strictDecodingMessage(`${CRD_GROUP}/${CRD_VERSION}`, [])}${strict.join(", ")}`);
  }
  if (strict.length > 0 && mode === "Warn") warnings.push(...strict);
  if (v.errors.length > 0) return { object: null, errors: v.errors, warnings, unknownFields: v.unknownFields };
  const decoded = v.crd ? (plain(v.crd.crd) as JsonObject) : deepClone(input);
  const out: JsonObject = { apiVersion: `${CRD_GROUP}/${CRD_VERSION}`, kind: "CustomResourceDefinition", metadata: typedMetadata(input) };
  const spec = isObject(decoded["spec"]) ? decoded["spec"] : specOf(input);
  omitEmptyCrdSpec(spec);
  out["spec"] = spec;
  warnings.push(...v.warnings);
  return { object: out, errors: [], warnings, unknownFields: v.unknownFields };
}

/**
 * The request's metadata as Kubernetes stores a typed object's ObjectMeta: decoded as Go does (`null` leaves
 * a field unset, unknown fields dropped) and encoded with `omitempty`, so `labels: null` is not kept.
 */
function typedMetadata(input: JsonObject): JsonValue {
  const m = getObjectMeta(input);
  if (m.meta) return objectMetaToUnstructured(m.meta);
  return input["metadata"] ?? {};
}

function typeMetaErrors(obj: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  if (obj["kind"] !== "CustomResourceDefinition") {
    errs.push(fieldError.invalid(FieldPath.of("kind"), obj["kind"] ?? "", "must be CustomResourceDefinition"));
  }
  return errs;
}

function crdAdmission(): Admission {
  const finish = (res: PipelineResult, oldStatus: JsonValue | undefined): PipelineResult => {
    const out = res.object;
    if (!out || res.errors.length > 0 || res.decodeError !== undefined) return res;
    out["status"] = strategyStatus(oldStatus, storageVersionOf(out));
    return res;
  };
  return {
    create(obj, opts) {
      // A body nothing else uses (`consumeInput`) is not copied: only its status is dropped, and the CRD checks
      // read it without changing it.
      const input = opts.consumeInput === true ? obj : deepClone(obj);
      delete input["status"];
      const res = verdict(validateCrdCreate(input, crdValidationOptions), input, opts);
      if (res.object) {
        delete res.object["status"];
        if (isObject(res.object["metadata"])) res.object["metadata"]["generation"] = 1;
        const tm = typeMetaErrors(res.object);
        if (tm.length > 0) return { ...res, object: null, errors: tm };
      }
      return finish(res, undefined);
    },
    update(newObj, oldObj, opts) {
      const input = deepClone(newObj);
      const v = verdict(validateCrdUpdate(input, oldObj, crdValidationOptions), input, opts);
      if (v.object) {
        const oldMeta = isObject(oldObj["metadata"]) ? oldObj["metadata"] : {};
        const gen = typeof oldMeta["generation"] === "number" ? oldMeta["generation"] : 1;
        if (isObject(v.object["metadata"])) {
          v.object["metadata"]["generation"] = deepEqual(specOf(v.object), specOf(oldObj)) ? gen : gen + 1;
        }
      }
      return finish(v, oldObj["status"]);
    },
    updateStatus(newObj, oldObj) {
      const out = deepClone(oldObj);
      if (Object.hasOwn(newObj, "status")) out["status"] = deepClone(newObj["status"]!);
      // v1 defaulting of the decoded body (`SetDefaults_CustomResourceDefinition`): no storedVersions → its storage version.
      const st = out["status"];
      if (isObject(st) && (!Array.isArray(st["storedVersions"]) || st["storedVersions"].length === 0)) {
        const storage = storageVersionOf(newObj);
        if (storage) st["storedVersions"] = [storage];
      }
      return { object: out, errors: typeMetaErrors(out), warnings: [], unknownFields: [] };
    },
  };
}

/** The CRD resource type served at `/apis/apiextensions.k8s.io/v1/customresourcedefinitions`. */
export function crdResourceType(): ResourceType {
  const admission = crdAdmission();
  return {
    group: CRD_GROUP,
    version: CRD_VERSION,
    plural: "customresourcedefinitions",
    singular: "customresourcedefinition",
    kind: "CustomResourceDefinition",
    listKind: "CustomResourceDefinitionList",
    namespaced: false,
    shortNames: ["crd", "crds"],
    categories: ["api-extensions"],
    status: true,
    typedList: true,
    typedScheme: apiextensionsScheme,
    goOrdered: goOrderedCrd,
    bodyShape: CRD_SHAPE,
    returnDeletedObject: true,
    table: new TableConvertor(CRD_COLUMNS),
    selectableFields: new Map(),
    storagePrefix: CRD_PREFIX,
    terminating: false,
    admission: () => admission,
    smdType: () => CRD_TYPE,
    // A built-in kind: strategic merge patches are accepted (what kubectl apply, edit, label and annotate send once
    // the published OpenAPI names the kind). Only ObjectMeta's lists carry a strategy: a v1 CRD's schemas (with
    // x-kubernetes-validations merged by rule in Go's types) sit in the versions list, which is replaced whole.
    strategicMergePatch,
    createBase: zeroCrd,
    // The CRD REST storage checks a delete's preconditions itself, with its own text.
    preconditionFailed: (name, field, wanted, actual) =>
      apiErrors.conflict("customresourcedefinitions", CRD_GROUP, name, `precondition failed: ${field} in precondition: ${wanted}, ${field} in object meta: ${actual}`),
  };
}
