/**
 * The server's own admission for custom resources when no compiled pipeline is available: TypeMeta and
 * object-name checks plus the registry strategy's preparation (status reset, generation). It does not
 * prune, default or validate against the schema; {@link ./cr-admission.ts} prefers the real pipeline.
 */
import { fieldError, FieldPath, type FieldError } from "../../errors/index.js";
import type { PipelineResult } from "../../pipeline/types.js";
import { deepClone, deepEqual, isObject, type JsonObject } from "../../value/json-value.js";
import type { Admission } from "./resource-type.js";

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1123_SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

/** `metadata.name` checks of `ValidateObjectMeta` with `NameIsDNSSubdomain`. */
export function validateObjectName(obj: JsonObject): FieldError[] {
  const meta = isObject(obj["metadata"]) ? obj["metadata"] : {};
  const name = meta["name"];
  const path = FieldPath.of("metadata", "name");
  if (typeof name !== "string" || name === "") return [fieldError.required(path, "name or generateName is required")];
  const errs: FieldError[] = [];
  if (name.length > 253) errs.push(fieldError.invalid(path, name, "must be no more than 253 characters"));
  if (!DNS1123_SUBDOMAIN.test(name)) errs.push(fieldError.invalid(path, name, DNS1123_SUBDOMAIN_MSG));
  return errs;
}

function typeMetaErrors(obj: JsonObject, kind: string, apiVersion: string): FieldError[] {
  const errs: FieldError[] = [];
  if (obj["kind"] !== kind) errs.push(fieldError.invalid(FieldPath.of("kind"), obj["kind"] ?? "", `must be ${kind}`));
  if (obj["apiVersion"] !== apiVersion) {
    errs.push(fieldError.invalid(FieldPath.of("apiVersion"), obj["apiVersion"] ?? "", `must be ${apiVersion}`));
  }
  return errs;
}

function result(object: JsonObject, errors: FieldError[]): PipelineResult {
  return { object, errors, warnings: [], unknownFields: [] };
}

function withoutMeta(o: JsonObject): JsonObject {
  const c = { ...o };
  delete c["metadata"];
  return c;
}

/** Basic admission for the kind `kind` in `apiVersion` (`hasStatus`: the status subresource is on). */
export function basicAdmission(kind: string, apiVersion: string, hasStatus: boolean): Admission {
  return {
    create(obj) {
      const out = deepClone(obj);
      if (hasStatus) delete out["status"];
      if (isObject(out["metadata"])) out["metadata"]["generation"] = 1;
      return result(out, [...typeMetaErrors(out, kind, apiVersion), ...validateObjectName(out)]);
    },
    update(newObj, oldObj) {
      const out = deepClone(newObj);
      if (hasStatus) {
        if (Object.hasOwn(oldObj, "status")) out["status"] = deepClone(oldObj["status"]!);
        else delete out["status"];
      }
      const oldMeta = isObject(oldObj["metadata"]) ? oldObj["metadata"] : {};
      const gen = typeof oldMeta["generation"] === "number" ? oldMeta["generation"] : 1;
      if (isObject(out["metadata"])) {
        out["metadata"]["generation"] = deepEqual(withoutMeta(out), withoutMeta(oldObj)) ? gen : gen + 1;
      }
      return result(out, typeMetaErrors(out, kind, apiVersion));
    },
    updateStatus(newObj, oldObj) {
      const out = deepClone(oldObj);
      if (Object.hasOwn(newObj, "status")) out["status"] = deepClone(newObj["status"]!);
      else delete out["status"];
      return result(out, typeMetaErrors(out, kind, apiVersion));
    },
  };
}
