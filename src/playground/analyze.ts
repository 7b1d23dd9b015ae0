/**
 * One playground verdict: a CRD text, an object text and an optional old object text in, what the API
 * server would answer out — the CRD's own errors and warnings (as on CRD create), the object's create or
 * update result with every message located at its line and column, the stored object, and the result and
 * cost of each x-kubernetes-validations rule. Node-free: runs in a browser Web Worker.
 */
import { crdValidationOptions } from "../pipeline/crd-hooks.js";
import { documentPath } from "../crdvalidation/document-path.js";
import { validateCrdCreate } from "../crdvalidation/validate-crd.js";
import { errorString } from "../errors/field-error.js";
import { decodeDocuments, type DecodedDocument } from "../io/decode.js";
import { type CompiledCrdImpl, tryCompileCrd, verdictOf } from "../pipeline/compile.js";
import type { FieldValidationMode, PipelineResult } from "../pipeline/types.js";
import { evaluateExpression, type ExpressionResult } from "../rules/evaluate-expression.js";
import { type RuleTrace, validateRules } from "../rules/validate.js";
import { goJsonTypeWord } from "../go/fmt.js";
import { isObject, type JsonObject, type JsonValue } from "../value/json-value.js";

/** Which editor pane a diagnostic belongs to. */
export type Pane = "crd" | "object" | "old";

/** A message located in a pane (1-based line and column). */
export interface Diagnostic {
  pane: Pane;
  severity: "error" | "warning";
  /** Kubernetes' message, exactly. */
  message: string;
  /** The Kubernetes field path the message is about ("" when none). */
  field: string;
  line: number;
  column: number;
}

export interface PlaygroundInput {
  crd: string;
  object: string;
  /** The stored object an update replaces; empty or absent for a create. */
  oldObject?: string;
  /** Default Strict (what kubectl sends). */
  fieldValidation?: FieldValidationMode;
  /** A CEL expression to evaluate with `self` = the stored object (and `oldSelf` = the old object). */
  expression?: string;
}

export interface PlaygroundResult {
  crd: {
    ok: boolean;
    name: string;
    kind: string;
    group: string;
    servedVersions: string[];
    /** Messages of the CRD create checks (`crdkit check`), or the decode error. */
    errors: Diagnostic[];
    warnings: string[];
  };
  /** Absent when there is no object or the CRD is invalid. */
  request?: {
    operation: "create" | "update";
    /** 201 created / 200 updated, 400 decode error, 422 invalid, 404 no such kind. */
    status: number;
    /** The API server's 400/404 text. */
    failure?: string;
    errors: Diagnostic[];
    warnings: string[];
    /** The object as it would be stored (pruned, defaulted), null when the request failed before storage. */
    stored: JsonObject | null;
  };
  /** Each x-kubernetes-validations rule evaluation on the stored object (with the old object on update). */
  rules: RuleTrace[];
  /** Every error and warning with a position, for editor markers. */
  diagnostics: Diagnostic[];
  /** The result of {@link PlaygroundInput.expression}, when one was given. */
  expression?: ExpressionResult;
}

interface CompiledCache {
  text: string;
  ok: boolean;
  errors: Diagnostic[];
  warnings: string[];
  compiled?: CompiledCrdImpl;
  meta: { name: string; kind: string; group: string };
}

let cache: CompiledCache | undefined;

function firstDocument(text: string): DecodedDocument | undefined {
  return decodeDocuments(text).find((d) => d.problem !== undefined || (d.value !== undefined && d.value !== null));
}

function str(o: JsonValue | undefined, ...path: string[]): string {
  let v = o;
  for (const k of path) v = isObject(v) && Object.hasOwn(v, k) ? v[k] : undefined;
  return typeof v === "string" ? v : "";
}

function at(pane: Pane, doc: DecodedDocument, severity: Diagnostic["severity"], message: string, field: string, locateAs = field): Diagnostic {
  const p = doc.locate(locateAs === "" ? "<nil>" : locateAs);
  return { pane, severity, message, field, line: p.line, column: p.column };
}

function problem(pane: Pane, doc: DecodedDocument): Diagnostic {
  const p = doc.problem!;
  return { pane, severity: "error", message: p.message, field: "", line: p.position.line, column: p.position.column };
}

/** Compiles the CRD text (cached while the text is unchanged). */
function compileCrdText(text: string): CompiledCache {
  if (cache?.text === text) return cache;
  const doc = firstDocument(text);
  const meta = { name: "", kind: "", group: "" };
  let out: CompiledCache;
  if (!doc) out = { text, ok: false, errors: [], warnings: [], meta };
  else if (doc.problem) out = { text, ok: false, errors: [problem("crd", doc)], warnings: [], meta };
  else {
    const v = doc.value!;
    Object.assign(meta, { name: str(v, "metadata", "name"), kind: str(v, "spec", "names", "kind"), group: str(v, "spec", "group") });
    const checked = validateCrdCreate(v, crdValidationOptions);
    const apiVersion = str(v, "apiVersion");
    const errors: Diagnostic[] = [];
    if (checked.decodeError !== undefined) errors.push(at("crd", doc, "error", checked.decodeError, ""));
    for (const f of checked.unknownFields) errors.push(at("crd", doc, "error", `unknown field "${f}"`, f));
    for (const e of checked.errors) errors.push(at("crd", doc, "error", errorString(e), e.field, documentPath(e.field, apiVersion)));
    const compiled = errors.length === 0 ? tryCompileCrd(v, verdictOf(checked)) : undefined;
    if (compiled && !compiled.ok) for (const m of compiled.errors) errors.push(at("crd", doc, "error", m, ""));
    out = {
      text,
      ok: errors.length === 0,
      errors,
      warnings: checked.warnings,
      ...(compiled?.ok ? { compiled: compiled.compiled } : {}),
      meta,
    };
  }
  cache = out;
  return out;
}

/** The request `kubectl apply` would make: it carries the stored object's resourceVersion (`1` when unset). */
function withResourceVersion(obj: JsonObject, old: JsonObject): JsonObject {
  const md = obj["metadata"];
  if (!isObject(md) || str(obj, "metadata", "resourceVersion") !== "") return obj;
  return { ...obj, metadata: { ...md, resourceVersion: str(old, "metadata", "resourceVersion") || "1" } };
}

/** Computes the playground verdict. Never throws for user input. */
export function analyze(input: PlaygroundInput): PlaygroundResult {
  const c = compileCrdText(input.crd);
  const result: PlaygroundResult = {
    crd: { ok: c.ok, ...c.meta, servedVersions: c.compiled?.servedVersions ?? [], errors: c.errors, warnings: c.warnings },
    rules: [],
    diagnostics: [...c.errors],
  };
  const objDoc = firstDocument(input.object);
  if (!objDoc) return result;
  if (objDoc.problem) {
    result.diagnostics.push(problem("object", objDoc));
    return result;
  }
  const oldDoc = input.oldObject !== undefined && input.oldObject.trim() !== "" ? firstDocument(input.oldObject) : undefined;
  if (oldDoc?.problem) {
    result.diagnostics.push(problem("old", oldDoc));
    return result;
  }
  const crd = c.compiled;
  if (!crd) return result;
  const obj = objDoc.value!;
  const old = oldDoc?.value;
  const operation = old !== undefined ? "update" : "create";
  const req: NonNullable<PlaygroundResult["request"]> = { operation, status: 0, errors: [], warnings: [], stored: null };
  result.request = req;
  const fail = (status: number, message: string, pane: Pane = "object", doc: DecodedDocument = objDoc) => {
    req.status = status;
    req.failure = message;
    req.errors.push(at(pane, doc, "error", message, ""));
    result.diagnostics.push(...req.errors);
    return result;
  };
  if (!isObject(obj)) return fail(400, `json: cannot unmarshal ${goJsonTypeWord(obj)} into Go value of type map[string]interface {}`);
  if (old !== undefined && !isObject(old)) return fail(400, "the old object is not an object", "old", oldDoc!);
  const apiVersion = str(obj, "apiVersion");
  const kind = str(obj, "kind");
  const slash = apiVersion.lastIndexOf("/");
  const group = slash < 0 ? "" : apiVersion.slice(0, slash);
  const version = apiVersion.slice(slash + 1);
  if (kind !== crd.kind || group !== crd.group || !crd.servedVersions.includes(version)) {
    return fail(404, `no matches for kind "${kind}" in version "${apiVersion}"`);
  }
  const strictDecodingErrors = objDoc.strictErrors;
  const opts = { version, fieldValidation: input.fieldValidation ?? "Strict", strictDecodingErrors, wipeSystemFields: true } as const;
  let res: PipelineResult;
  if (old !== undefined && isObject(old)) res = crd.update(withResourceVersion(obj, old), withResourceVersion(old, old), opts);
  else res = crd.create(obj, opts);
  req.warnings = res.warnings;
  req.stored = res.object;
  if (res.decodeError !== undefined) {
    req.status = 400;
    req.failure = res.decodeError;
    if (res.decodeError.includes(": strict decoding error: ")) {
      for (const s of strictDecodingErrors) {
        const m = /^duplicate field "(.*)"$/.exec(s);
        const pos = m ? objDoc.locate(m[1]!) : (objDoc.strictErrorPosition ?? objDoc.locate("<nil>"));
        req.errors.push({ pane: "object", severity: "error", message: s, field: m ? m[1]! : "", line: pos.line, column: pos.column });
      }
      for (const f of res.unknownFields) req.errors.push(at("object", objDoc, "error", `unknown field "${f}"`, f));
    } else req.errors.push(at("object", objDoc, "error", res.decodeError, ""));
  }
  for (const e of res.errors) req.errors.push(at("object", objDoc, "error", errorString(e), e.field));
  if (res.decodeError === undefined && opts.fieldValidation === "Warn") {
    // the Warning headers of unknown fields, shown at the pruned fields
    for (const f of res.unknownFields) {
      if (res.warnings.includes(`unknown field "${f}"`)) result.diagnostics.push(at("object", objDoc, "warning", `unknown field "${f}"`, f));
    }
  }
  if (req.status === 0) req.status = req.errors.length > 0 ? 422 : operation === "create" ? 201 : 200;
  result.diagnostics.push(...req.errors);
  const structural = crd.ctx.versions.get(version)?.structural;
  const oldStored = old !== undefined ? (old as JsonValue) : undefined;
  if (structural && res.object) validateRules(structural, res.object, oldStored, { onRule: (t) => result.rules.push(t) });
  if (input.expression !== undefined && input.expression.trim() !== "") {
    result.expression = evaluateExpression(structural, input.expression, res.object ?? obj, oldStored);
  }
  return result;
}
