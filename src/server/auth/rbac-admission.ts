/**
 * Admission of Role, ClusterRole, RoleBinding and ClusterRoleBinding writes: decoding into the typed
 * fields (unknown fields reported per `fieldValidation`, wrong JSON types refused), `rbac/v1` defaulting
 * (User/Group subjects get `apiGroup: rbac.authorization.k8s.io`) and `pkg/apis/rbac/validation`
 * (names, rules, roleRef, subjects, roleRef immutable).
 */
import { fieldError, FieldPath, RawJson, type FieldError } from "../../errors/index.js";
import { objectMetaOf, validateObjectMeta, validateObjectMetaUpdate, validatePathSegment } from "../../objectmeta/index.js";
import { goJsonMarshal } from "../../go/json.js";
import type { PipelineResult, RequestOptions } from "../../pipeline/types.js";
import { deepClone, deepEqual, isObject, type JsonObject, type JsonValue, setKey } from "../../value/json-value.js";
import type { Admission } from "../registry/resource-type.js";

export const RBAC_GROUP = "rbac.authorization.k8s.io";

export type RbacKind = "Role" | "ClusterRole" | "RoleBinding" | "ClusterRoleBinding";

/** Field shapes: "string", "strings" ([]string), or nested objects / lists of objects. */
export type Shape = "string" | "strings" | { object: Record<string, Shape> } | { list: Record<string, Shape> };

const RULE: Record<string, Shape> = {
  verbs: "strings",
  apiGroups: "strings",
  resources: "strings",
  resourceNames: "strings",
  nonResourceURLs: "strings",
};
const LABEL_SELECTOR: Record<string, Shape> = {
  matchLabels: { object: {} },
  matchExpressions: { list: { key: "string", operator: "string", values: "strings" } },
};
const SHAPES: Record<RbacKind, Record<string, Shape>> = {
  Role: { rules: { list: RULE } },
  ClusterRole: { rules: { list: RULE }, aggregationRule: { object: { clusterRoleSelectors: { list: LABEL_SELECTOR } } } },
  RoleBinding: {
    subjects: { list: { kind: "string", apiGroup: "string", name: "string", namespace: "string" } },
    roleRef: { object: { apiGroup: "string", kind: "string", name: "string" } },
  },
  ClusterRoleBinding: {
    subjects: { list: { kind: "string", apiGroup: "string", name: "string", namespace: "string" } },
    roleRef: { object: { apiGroup: "string", kind: "string", name: "string" } },
  },
};

function goType(v: JsonValue): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "object") return "object";
  return typeof v === "boolean" ? "bool" : typeof v;
}

/** Drops unknown fields (collecting their paths) and reports values of the wrong JSON type. */
export function decodeFields(obj: JsonObject, fields: Record<string, Shape>, path: string, unknown: string[]): string | undefined {
  for (const k of Object.keys(obj)) {
    // own keys only: a field named `constructor` is unknown, not Object's
    const shape = Object.hasOwn(fields, k) ? fields[k] : undefined;
    const p = path === "" ? k : `${path}.${k}`;
    if (!shape) {
      unknown.push(p);
      delete obj[k];
      continue;
    }
    const v = obj[k]!;
    if (v === null) {
      delete obj[k];
      continue;
    }
    if (shape === "string") {
      if (typeof v !== "string") return `json: cannot unmarshal ${goType(v)} into Go struct field .${p} of type string`;
    } else if (shape === "strings") {
      if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) {
        return `json: cannot unmarshal ${Array.isArray(v) ? "array element" : goType(v)} into Go struct field .${p} of type []string`;
      }
    } else if ("object" in shape) {
      if (!isObject(v)) return `json: cannot unmarshal ${goType(v)} into Go struct field .${p} of type object`;
      if (Object.keys(shape.object).length > 0) {
        const e = decodeFields(v, shape.object, p, unknown);
        if (e) return e;
      }
    } else {
      if (!Array.isArray(v)) return `json: cannot unmarshal ${goType(v)} into Go struct field .${p} of type array`;
      for (let i = 0; i < v.length; i++) {
        const item = v[i]!;
        if (!isObject(item)) return `json: cannot unmarshal ${goType(item)} into Go struct field .${p} of type object`;
        const e = decodeFields(item, shape.list, `${p}[${i}]`, unknown);
        if (e) return e;
      }
    }
  }
  return undefined;
}

/** `path.IsValidPathSegmentName`. */
export function pathSegmentNameErrors(name: string): string[] {
  if (name === "." || name === "..") return [`may not be '${name}'`];
  const out: string[] = [];
  for (const bad of ["/", "%"]) if (name.includes(bad)) out.push(`may not contain '${bad}'`);
  return out;
}

function list(v: JsonValue | undefined): JsonValue[] {
  return Array.isArray(v) ? v : [];
}

function str(o: JsonObject, k: string): string {
  return typeof o[k] === "string" ? (o[k] as string) : "";
}

/** `minimalNameRequirements`: the name and generateName are path segment names. */
const minimalName = (name: string) => validatePathSegment(name, false);

/** `ValidateObjectMeta(meta, namespaced, minimalNameRequirements)` (+ `ValidateObjectMetaUpdate`). */
function validateMeta(obj: JsonObject, namespaced: boolean, old: JsonObject | undefined): FieldError[] {
  const m = objectMetaOf(obj);
  if (m.errors) return m.errors;
  const errs = validateObjectMeta(m.meta, namespaced, minimalName, FieldPath.of("metadata"));
  if (old) {
    const o = objectMetaOf(old);
    // RBAC kinds allow unconditional updates: the store gives the object the current resourceVersion.
    if (o.meta) {
      const cur = m.meta.resourceVersion === "" ? { ...m.meta, resourceVersion: o.meta.resourceVersion } : m.meta;
      errs.push(...validateObjectMetaUpdate(cur, o.meta, FieldPath.of("metadata")));
    }
  }
  return errs;
}

function validateRules(obj: JsonObject, namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  list(obj["rules"]).forEach((r, i) => {
    if (!isObject(r)) return;
    const p = FieldPath.of("rules").index(i);
    const n = (k: string) => list(r[k]).length;
    if (n("verbs") === 0) errs.push(fieldError.required(p.child("verbs"), "verbs must contain at least one value"));
    if (n("nonResourceURLs") > 0) {
      const urls = r["nonResourceURLs"]!;
      if (namespaced) errs.push(fieldError.invalid(p.child("nonResourceURLs"), urls, "namespaced rules cannot apply to non-resource URLs"));
      if (n("apiGroups") > 0 || n("resources") > 0 || n("resourceNames") > 0) {
        errs.push(fieldError.invalid(p.child("nonResourceURLs"), urls, "rules cannot apply to both regular resources and non-resource URLs"));
      }
      return;
    }
    if (n("apiGroups") === 0) errs.push(fieldError.required(p.child("apiGroups"), "resource rules must supply at least one api group"));
    if (n("resources") === 0) errs.push(fieldError.required(p.child("resources"), "resource rules must supply at least one resource"));
    if (n("resourceNames") > 0 && n("resources") > 1) {
      errs.push(fieldError.required(p.child("resourceNames"), "resource names cannot apply to multiple resources"));
    }
  });
  return errs;
}

function validateBinding(obj: JsonObject, namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const ref = isObject(obj["roleRef"]) ? obj["roleRef"] : {};
  if (str(ref, "apiGroup") !== RBAC_GROUP) errs.push(fieldError.notSupported(FieldPath.of("roleRef", "apiGroup"), str(ref, "apiGroup"), [RBAC_GROUP]));
  const kinds = namespaced ? ["Role", "ClusterRole"] : ["ClusterRole"];
  if (!kinds.includes(str(ref, "kind"))) errs.push(fieldError.notSupported(FieldPath.of("roleRef", "kind"), str(ref, "kind"), kinds));
  const refName = str(ref, "name");
  if (refName === "") errs.push(fieldError.required(FieldPath.of("roleRef", "name")));
  else for (const m of pathSegmentNameErrors(refName)) errs.push(fieldError.invalid(FieldPath.of("roleRef", "name"), refName, m));
  list(obj["subjects"]).forEach((s, i) => {
    if (!isObject(s)) return;
    const p = FieldPath.of("subjects").index(i);
    const name = str(s, "name");
    const group = str(s, "apiGroup");
    if (name === "") errs.push(fieldError.required(p.child("name")));
    switch (str(s, "kind")) {
      case "ServiceAccount":
        if (group !== "") errs.push(fieldError.notSupported(p.child("apiGroup"), group, [""]));
        if (!namespaced && str(s, "namespace") === "") errs.push(fieldError.required(p.child("namespace")));
        break;
      case "User":
      case "Group":
        if (name === "") errs.push(fieldError.invalid(p.child("name"), name, `${str(s, "kind") === "User" ? "user" : "group"} name cannot be empty`));
        if (group !== RBAC_GROUP) errs.push(fieldError.notSupported(p.child("apiGroup"), group, [RBAC_GROUP]));
        break;
      default:
        errs.push(fieldError.notSupported(p.child("kind"), str(s, "kind"), ["ServiceAccount", "User", "Group"]));
    }
  });
  return errs;
}

/** `SetDefaults_Subject`: User and Group subjects default to the RBAC API group. */
function defaultSubjects(obj: JsonObject): void {
  for (const s of list(obj["subjects"])) {
    if (!isObject(s)) continue;
    if ((s["kind"] === "User" || s["kind"] === "Group") && str(s, "apiGroup") === "") s["apiGroup"] = RBAC_GROUP;
    if (s["kind"] === "ServiceAccount" && s["apiGroup"] === undefined) s["apiGroup"] = "";
  }
}

/** The admission of one RBAC kind. */
export function rbacAdmission(kind: RbacKind): Admission {
  const namespaced = kind === "Role" || kind === "RoleBinding";
  const binding = kind === "RoleBinding" || kind === "ClusterRoleBinding";
  const decode = (input: JsonObject, opts: RequestOptions, old?: JsonObject): PipelineResult => {
    const obj = deepClone(input);
    const unknown: string[] = [];
    const body: JsonObject = {};
    // setKey: a field named `__proto__` stays a field (then an unknown one)
    for (const k of Object.keys(obj)) if (k !== "apiVersion" && k !== "kind" && k !== "metadata") setKey(body, k, obj[k]!);
    const bad = decodeFields(body, SHAPES[kind], "", unknown);
    if (bad) return { object: null, decodeError: bad, errors: [], warnings: [], unknownFields: [] };
    const strict = [...(opts.strictDecodingErrors ?? []), ...unknown.map((f) => `unknown field "${f}"`)];
    const mode = opts.fieldValidation ?? "Warn";
    if (strict.length > 0 && mode === "Strict") {
      return { object: null, decodeError: `strict decoding error: ${strict.join(", ")}`, errors: [], warnings: [], unknownFields: unknown };
    }
    const out: JsonObject = { apiVersion: `${RBAC_GROUP}/v1`, kind, metadata: obj["metadata"] ?? {}, ...body };
    if (binding) defaultSubjects(out);
    const errors = [...validateMeta(out, namespaced, old), ...(binding ? validateBinding(out, namespaced) : validateRules(out, namespaced))];
    return { object: out, errors, warnings: mode === "Warn" ? strict : [], unknownFields: unknown };
  };
  return {
    create: (obj, opts) => decode(obj, opts),
    update(newObj, oldObj, opts) {
      const res = decode(newObj, opts, oldObj);
      if (binding && res.object && !deepEqual(res.object["roleRef"] ?? null, oldObj["roleRef"] ?? null)) {
        // The internal rbac.RoleRef has no JSON tags: the value prints with Go field names.
        const ref = isObject(res.object["roleRef"]) ? res.object["roleRef"] : {};
        const json = goJsonMarshal({ APIGroup: str(ref, "apiGroup"), Kind: str(ref, "kind"), Name: str(ref, "name") });
        res.errors.push(fieldError.invalid(FieldPath.of("roleRef"), new RawJson(json), "cannot change roleRef"));
      }
      return res;
    },
    updateStatus: (newObj, old, opts) => decode(newObj, opts, old),
  };
}
