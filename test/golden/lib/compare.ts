/**
 * Runs one golden case through crdkit and lists the differences from Kubernetes' result, as readable
 * lines (empty list = agreement).
 */
import { type FieldError, errorString } from "../../../src/errors/field-error.js";
import type { FieldValidationMode, PipelineResult } from "../../../src/pipeline/types.js";
import { goJsonMarshal } from "../../../src/value/go-format.js";
import { type JsonObject, type JsonValue, deepEqual, isObject, kindOf } from "../../../src/value/json-value.js";
import { type CrdkitApi, compileWith } from "./crdkit-api.js";
import { parseTaggedJson } from "./tagged-json.js";

export interface GoldenError {
  type: string;
  field: string;
  detail: string;
  message: string;
}

function str(v: JsonValue | undefined): string | undefined {
  return typeof v === "string" ? v : undefined;
}

function goldenErrors(v: JsonValue | undefined): GoldenError[] {
  if (!Array.isArray(v)) return [];
  return v.filter(isObject).map((e) => ({
    type: str(e["type"]) ?? "",
    field: str(e["field"]) ?? "",
    detail: str(e["detail"]) ?? "",
    message: str(e["message"]) ?? "",
  }));
}

function strings(v: JsonValue | undefined): string[] {
  return Array.isArray(v) ? v.map((x) => (typeof x === "string" ? x : goJsonMarshal(x))) : [];
}

const errLine = (e: { type: string; field: string; message: string }): string => `${e.type} ${e.field} | ${e.message}`;

/** Compares error lists by (type, field, full text), in order unless `unordered`. */
export function diffErrors(
  label: string,
  expected: GoldenError[],
  actual: readonly FieldError[],
  unordered: boolean,
): string[] {
  const exp = expected.map(errLine);
  const act = actual.map((e) => errLine({ type: e.type, field: e.field, message: errorString(e) }));
  return diffLists(label, exp, act, unordered);
}

export function diffLists(label: string, exp: string[], act: string[], unordered = false): string[] {
  const a = unordered ? [...exp].sort() : exp;
  const b = unordered ? [...act].sort() : act;
  if (a.length === b.length && a.every((x, i) => x === b[i])) return [];
  const out = [`${label} differ${unordered ? " (compared as a set)" : ""}: - kubernetes, + crdkit`];
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i] === b[i]) out.push(`    [${i}]   ${a[i]}`);
    else {
      if (a[i] !== undefined) out.push(`    [${i}] - ${a[i]}`);
      if (b[i] !== undefined) out.push(`    [${i}] + ${b[i]}`);
    }
  }
  return out;
}

function show(v: JsonValue | undefined): string {
  if (v === undefined) return "<absent>";
  const k = kindOf(v);
  const s = goJsonMarshal(v);
  const t = s.length > 120 ? s.slice(0, 117) + "..." : s;
  return k === "integer" || k === "number" ? `${t} (${k === "integer" ? "int64" : "float64"})` : t;
}

/** Paths where two values differ (Go DeepEqual semantics: int64 ≠ float64), at most `limit`. */
export function diffValues(exp: JsonValue | undefined, act: JsonValue | undefined, path = "", out: string[] = [], limit = 12): string[] {
  if (out.length >= limit) return out;
  if (deepEqual(exp as JsonValue, act as JsonValue) && (exp === undefined) === (act === undefined)) return out;
  if (isObject(exp) && isObject(act)) {
    const keys = [...new Set([...Object.keys(exp), ...Object.keys(act)])].sort();
    for (const k of keys) {
      diffValues(
        Object.hasOwn(exp, k) ? exp[k] : undefined,
        Object.hasOwn(act, k) ? act[k] : undefined,
        path ? `${path}.${k}` : k,
        out,
        limit,
      );
    }
    return out;
  }
  if (Array.isArray(exp) && Array.isArray(act) && exp.length === act.length) {
    exp.forEach((x, i) => diffValues(x, act[i], `${path}[${i}]`, out, limit));
    return out;
  }
  out.push(`    ${path || "<root>"}: - ${show(exp)}   + ${show(act)}`);
  return out;
}

function parseBody(s: string | undefined): JsonValue | undefined {
  if (s === undefined || s === "") return undefined;
  try {
    return parseTaggedJson(s);
  } catch {
    return undefined;
  }
}

/** Compares a crdkit pipeline result with the golden `result` of a create/update/status case. */
export function diffPipeline(golden: JsonObject, r: PipelineResult, mode: FieldValidationMode, unordered: boolean): string[] {
  const out: string[] = [];
  const gDecode = str(golden["decodeError"]);
  if ((gDecode ?? "") !== (r.decodeError ?? "")) {
    out.push("decodeError differs:", `    - ${gDecode ?? "<none>"}`, `    + ${r.decodeError ?? "<none>"}`);
  }
  out.push(...diffErrors("errors", goldenErrors(golden["errors"]), r.errors ?? [], unordered));
  out.push(...diffLists("warnings", strings(golden["warnings"]), r.warnings ?? []));
  if (mode !== "Ignore" && gDecode === undefined) {
    out.push(...diffLists("unknownFields", strings(golden["unknownFields"]), [...(r.unknownFields ?? [])].sort()));
  }
  const gObj = golden["object"];
  const gStored = gObj !== null && gObj !== undefined;
  if (gStored !== (r.object !== null && r.object !== undefined)) {
    out.push(`stored object: kubernetes ${gStored ? "stores an object" : "stores nothing"}, crdkit ${gStored ? "returned null" : "returned an object"}`);
  } else if (gStored) {
    const d = diffValues(gObj, r.object ?? undefined);
    if (d.length > 0) out.push("stored object differs: - kubernetes, + crdkit", ...d);
  }
  return out;
}

/** Runs a create/update/status golden case; returns the differences. */
export function runPipelineCase(api: CrdkitApi, c: JsonObject, crd: JsonObject): string[] {
  const result = c["result"];
  if (!isObject(result)) return ["golden case has no result"];
  if (str(result["setupError"]) !== undefined) return [];
  const compiled = compileWith(api, crd);
  const crdResult = result["crdResult"];
  if (isObject(crdResult)) {
    // Kubernetes rejects the CRD itself: crdkit must reject it too (with the same errors when it reports them).
    if (compiled.ok) return ["kubernetes rejects this CRD, crdkit compiled it", ...diffErrors("CRD errors", goldenErrors(crdResult["errors"]), [], true)];
    if (compiled.errors) return diffErrors("CRD errors", goldenErrors(crdResult["errors"]), compiled.errors, true);
    return [];
  }
  if (!compiled.ok) {
    return [`compileCrd failed: ${compiled.message}`, ...(compiled.errors ? compiled.errors.map((e) => `    + ${errorString(e)}`) : [])];
  }
  const mode = (str(c["fieldValidation"]) ?? "Warn") as FieldValidationMode;
  const version = str(c["version"]);
  const opts = { fieldValidation: mode, ...(version ? { version } : {}) };
  const body = parseBody(str(c["body"]));
  if (!isObject(body)) return ["the request body is not a JSON object (crdkit's API takes objects); case cannot be compared"];
  const op = str(c["operation"]);
  let r: PipelineResult;
  try {
    if (op === "create") r = compiled.compiled.create(body, opts);
    else {
      const old = result["oldObject"];
      if (!isObject(old)) return ["golden update case has no oldObject"];
      r = op === "status" ? compiled.compiled.updateStatus(body, old, opts) : compiled.compiled.update(body, old, opts);
    }
  } catch (e) {
    return [`crdkit threw: ${e instanceof Error ? (e.stack ?? e.message).split("\n").slice(0, 4).join(" | ") : String(e)}`];
  }
  return diffPipeline(result, r, mode, c["errorOrder"] === "unordered");
}

/** Runs a crd-create / crd-update golden case; returns the differences. */
export function runCrdCase(api: CrdkitApi, c: JsonObject, crd: JsonObject, oldCrd: JsonObject | undefined): string[] {
  const result = c["result"];
  if (!isObject(result)) return ["golden case has no result"];
  if (str(result["setupError"]) !== undefined || str(result["decodeError"]) !== undefined) return [];
  const op = str(c["operation"]);
  const fn = op === "crd-update" ? api.validateCrdUpdate : api.validateCrdCreate;
  if (!fn) return [api.missing[op === "crd-update" ? "validateCrdUpdate" : "validateCrdCreate"] ?? "missing entry point"];
  let r: { errors: FieldError[]; warnings: string[] };
  try {
    r = op === "crd-update" ? api.validateCrdUpdate!(crd, oldCrd ?? {}) : api.validateCrdCreate!(crd);
  } catch (e) {
    return [`crdkit threw: ${e instanceof Error ? (e.stack ?? e.message).split("\n").slice(0, 4).join(" | ") : String(e)}`];
  }
  const out = diffErrors("errors", goldenErrors(result["errors"]), r.errors ?? [], c["errorOrder"] === "unordered");
  // warnings are only produced when the CRD is valid
  out.push(...diffLists("warnings", strings(result["warnings"]), (r.errors ?? []).length === 0 ? (r.warnings ?? []) : [], true));
  if (api.nonStructuralCondition) {
    const g = result["nonStructuralSchema"];
    const a = api.nonStructuralCondition(crd) ?? null;
    const gm = isObject(g) ? `${str(g["reason"])}: ${str(g["message"])}` : "<none>";
    const am = a ? `${a.reason}: ${a.message}` : "<none>";
    if (gm !== am) out.push("NonStructuralSchema condition differs:", `    - ${gm}`, `    + ${am}`);
  }
  return out;
}
