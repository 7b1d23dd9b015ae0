/**
 * Runs one golden case through crdkit and lists the differences from Kubernetes' result, as readable
 * lines (empty list = agreement).
 */
import { type FieldError, errorString } from "../../../src/errors/field-error.js";
import { decodeJsonStream } from "../../../src/io/json-decode.js";
import { createFromJson, updateFromJson, updateStatusFromJson } from "../../../src/pipeline/request-body.js";
import type { FieldValidationMode, PipelineResult, RequestOptions } from "../../../src/pipeline/types.js";
import { goQuote } from "../../../src/go/fmt.js";
import { goJsonMarshal } from "../../../src/go/json.js";
import { type JsonObject, type JsonValue, deepEqual, isObject, kindOf } from "../../../src/value/json-value.js";
import { type CrdkitApi, compileWith } from "./crdkit-api.js";
import { parseTaggedJson } from "./tagged-json.js";

/** A diff line with this prefix means "not comparable through crdkit's API": the case is skipped. */
export const SKIP = "SKIP: ";

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
  if (unordered) {
    // multiset difference: what only one side has
    const rest = [...b];
    const onlyK: string[] = [];
    for (const x of a) {
      const i = rest.indexOf(x);
      if (i >= 0) rest.splice(i, 1);
      else onlyK.push(x);
    }
    return [
      `${label} differ (compared as a set): - only kubernetes, + only crdkit`,
      ...onlyK.map((x) => `    - ${x}`),
      ...rest.map((x) => `    + ${x}`),
    ];
  }
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
    for (let i = 0; i < exp.length; i++) diffValues(exp[i], act[i], `${path}[${i}]`, out, limit);
    return out;
  }
  out.push(`    ${path || "<root>"}: - ${show(exp)}   + ${show(act)}`);
  return out;
}

function parseBody(s: string | undefined, duplicates: string[] = []): JsonValue | undefined {
  if (s === undefined || s === "") return undefined;
  try {
    return parseTaggedJson(s, (k) => duplicates.push(k));
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
  // Kubernetes stores `object` on success; on a 422 `validatedObject` is the object as it was validated,
  // which is what crdkit returns next to its errors. After a decode error there is no object to compare.
  const gObj = golden["object"] ?? golden["validatedObject"];
  const gStored = gObj !== null && gObj !== undefined;
  if (gStored) {
    if (r.object === null || r.object === undefined) out.push("stored object: kubernetes has an object, crdkit returned null");
    else {
      const d = diffValues(gObj, normalizeGeneratedName(gObj, r.object));
      if (d.length > 0) out.push(`${golden["object"] ? "stored" : "validated"} object differs: - kubernetes, + crdkit`, ...d);
    }
  }
  return out;
}

/**
 * The oracle replaces the 5 random characters of a generated name by "abcde"; a crdkit name made of
 * the same generateName plus 5 characters of Kubernetes' alphabet is taken as equal.
 */
function normalizeGeneratedName(golden: JsonValue, actual: JsonObject): JsonObject {
  if (!isObject(golden) || !isObject(golden["metadata"])) return actual;
  const gm = golden["metadata"];
  const gen = gm["generateName"];
  if (typeof gen !== "string" || gm["name"] !== `${gen.slice(0, 58)}abcde`) return actual;
  return withOracleGeneratedName(gen, actual);
}

/** Renames `<generateName><5 random chars>` to the oracle's `<generateName>abcde`. */
export function withOracleGeneratedName(generateName: string, actual: JsonObject): JsonObject {
  const am = actual["metadata"];
  if (!isObject(am)) return actual;
  const base = generateName.slice(0, 58);
  const name = am["name"];
  if (typeof name !== "string" || !name.startsWith(base) || !/^[bcdfghjklmnpqrstvwxz2456789]{5}$/.test(name.slice(base.length))) {
    return actual;
  }
  return { ...actual, metadata: { ...am, name: `${base}abcde` } };
}

/** Runs a create/update/status golden case; returns the differences. */
export function runPipelineCase(api: CrdkitApi, c: JsonObject, crd: JsonObject): string[] {
  const result = c["result"];
  if (!isObject(result)) return ["golden case has no result"];
  const setup = str(result["setupError"]);
  if (setup !== undefined) return [`${SKIP}not a request the API server processes: ${setup}`];
  const compiled = compileWith(api, crd);
  const crdResult = result["crdResult"];
  if (isObject(crdResult)) {
    // Kubernetes rejects the CRD itself: crdkit must reject it too (with the same errors when it reports them).
    if (compiled.ok) return ["kubernetes rejects this CRD, crdkit compiled it", ...diffErrors("CRD errors", goldenErrors(crdResult["errors"]), [], true)];
    if (compiled.errors) return diffErrors("CRD errors", goldenErrors(crdResult["errors"]), compiled.errors, true);
    if (compiled.messages) {
      return diffLists("CRD errors", [...new Set(goldenErrors(crdResult["errors"]).map((e) => e.message))], [...new Set(compiled.messages)], true);
    }
    return [];
  }
  if (!compiled.ok) {
    return [`compileCrd failed: ${compiled.message}`, ...(compiled.errors ? compiled.errors.map((e) => `    + ${errorString(e)}`) : [])];
  }
  const mode = (str(c["fieldValidation"]) ?? "Warn") as FieldValidationMode;
  const version = str(c["version"]);
  // a client's request: the create handler wipes server-managed metadata
  const opts: RequestOptions = { fieldValidation: mode, wipeSystemFields: true, ...(version ? { version } : {}) };
  const rawBody = str(c["body"]) ?? "";
  const body = parseBody(rawBody);
  const op = str(c["operation"]);
  const reqNs = str(c["namespace"]);
  if (reqNs !== undefined) opts.namespace = reqNs;
  // The raw request body goes through crdkit's body entry points (repeated keys → strict decoding errors,
  // non-object bodies → the server's 400); decoded bodies are compared against the object API too.
  let r: PipelineResult;
  try {
    const cc = compiled.compiled;
    if (op === "create") r = createFromJson(cc, rawBody, opts);
    else {
      const old = result["oldObject"];
      if (!isObject(old)) return ["golden update case has no oldObject"];
      r = op === "status" ? updateStatusFromJson(cc, rawBody, old, opts) : updateFromJson(cc, rawBody, old, opts);
    }
    if (isObject(body) && decodeJsonStream(rawBody).documents[0]?.duplicateFields.length === 0) {
      const direct = op === "create" ? cc.create(body, opts) : op === "status" ? cc.updateStatus(body, result["oldObject"] as JsonObject, opts) : cc.update(body, result["oldObject"] as JsonObject, opts);
      const d = diffPipeline(result, withOracleNameInErrors(body, direct), mode, c["errorOrder"] === "unordered");
      if (d.length > 0) return ["the object API disagrees (the raw-body API was used first):", ...d];
    }
    // The old object as stored (oldBody), decoded by crdkit as storage does, must give the same result
    // as the oracle's decoded oldObject (generation repair, dropped malformed metadata, defaults).
    const rawOld = op === "create" ? undefined : parseBody(str(c["oldBody"]) ?? "");
    if (isObject(rawOld)) {
      const viaRaw = op === "status" ? updateStatusFromJson(cc, rawBody, rawOld, opts) : updateFromJson(cc, rawBody, rawOld, opts);
      const d = diffPipeline(result, isObject(body) ? withOracleNameInErrors(body, viaRaw) : viaRaw, mode, c["errorOrder"] === "unordered");
      if (d.length > 0) return ["with the stored old object (oldBody) decoded by crdkit instead of the oracle's oldObject:", ...d];
    }
  } catch (e) {
    return [`crdkit threw: ${e instanceof Error ? (e.stack ?? e.message).split("\n").slice(0, 4).join(" | ") : String(e)}`];
  }
  return diffPipeline(result, isObject(body) ? withOracleNameInErrors(body, r) : r, mode, c["errorOrder"] === "unordered");
}

/** Error texts mention a generated name: use the oracle's deterministic suffix there too. */
function withOracleNameInErrors(body: JsonObject, r: PipelineResult): PipelineResult {
  const md = body["metadata"];
  const gen = isObject(md) && typeof md["generateName"] === "string" && !md["name"] ? md["generateName"] : undefined;
  if (gen === undefined || !r.object) return r;
  const renamed = withOracleGeneratedName(gen, r.object);
  const from = isObject(r.object["metadata"]) ? r.object["metadata"]["name"] : undefined;
  const to = isObject(renamed["metadata"]) ? renamed["metadata"]["name"] : undefined;
  if (typeof from !== "string" || typeof to !== "string" || from === to) return r;
  const fix = (x: string): string => x.split(goQuote(from)).join(goQuote(to)).split(from).join(to);
  return {
    ...r,
    errors: r.errors.map((e) => ({ ...e, field: fix(e.field), detail: fix(e.detail), badValue: typeof e.badValue === "string" ? fix(e.badValue) : e.badValue })),
    warnings: r.warnings.map(fix),
  };
}

/** Runs a crd-create / crd-update golden case; returns the differences. */
export function runCrdCase(api: CrdkitApi, c: JsonObject, crd: JsonObject, oldCrd: JsonObject | undefined): string[] {
  const result = c["result"];
  if (!isObject(result)) return ["golden case has no result"];
  const setup = str(result["setupError"]);
  if (setup !== undefined) return [`${SKIP}oracle could not run the case: ${setup}`];
  const op = str(c["operation"]);
  const fn = op === "crd-update" ? api.validateCrdUpdate : api.validateCrdCreate;
  if (!fn) return [api.missing[op === "crd-update" ? "validateCrdUpdate" : "validateCrdCreate"] ?? "missing entry point"];
  let r: { errors: FieldError[]; warnings: string[] };
  try {
    r = op === "crd-update" ? api.validateCrdUpdate!(crd, oldCrd ?? {}) : api.validateCrdCreate!(crd);
  } catch (e) {
    return [`crdkit threw: ${e instanceof Error ? (e.stack ?? e.message).split("\n").slice(0, 4).join(" | ") : String(e)}`];
  }
  const gDecode = str(result["decodeError"]);
  if (gDecode !== undefined) {
    // Kubernetes could not decode the CRD (400); crdkit reports that as `decodeError`
    const aDecode = (r as { decodeError?: string }).decodeError;
    return gDecode === aDecode ? [] : ["decodeError differs:", `    - ${gDecode}`, `    + ${aDecode ?? "<none>"}`];
  }
  const out = diffErrors("errors", goldenErrors(result["errors"]), r.errors ?? [], c["errorOrder"] === "unordered");
  // warnings are only produced when the CRD is valid
  out.push(...diffLists("warnings", strings(result["warnings"]), (r.errors ?? []).length === 0 ? (r.warnings ?? []) : [], true));
  if (api.nonStructuralCondition) {
    const g = result["nonStructuralSchema"];
    let a: { reason: string; message: string } | null;
    try {
      a = api.nonStructuralCondition(crd) ?? null;
    } catch (e) {
      return [...out, `nonStructuralSchemaCondition threw: ${e instanceof Error ? e.message : String(e)}`];
    }
    const gm = isObject(g) ? `${str(g["reason"])}: ${str(g["message"])}` : "<none>";
    const am = a ? `${a.reason}: ${a.message}` : "<none>";
    if (gm !== am) out.push("NonStructuralSchema condition differs:", `    - ${gm}`, `    + ${am}`);
  }
  return out;
}
